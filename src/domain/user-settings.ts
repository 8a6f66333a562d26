/**
 * Personal settings (Zulip's UserBaseSettings): names, Zulip's defaults, allowed values, and which
 * legacy event/register group each belongs to. Pure: users.settings (JSON) holds only what differs
 * from these defaults; timezone lives in its own users column.
 */
import type { UserRow } from "../store/users";

export type SettingValue = boolean | number | string;

type Spec =
  | { kind: "bool"; default: boolean }
  | { kind: "int"; default: number; choices?: readonly number[] }
  | { kind: "string"; default: string; choices?: readonly string[] };

const bool = (d: boolean) => ({ kind: "bool" as const, default: d });
const int = (d: number, choices?: readonly number[]) => ({ kind: "int" as const, default: d, choices });
const str = (d: string, choices?: readonly string[]) => ({ kind: "string" as const, default: d, choices });

/** Zulip's EMOJISET_CHOICES, in its order. */
export const EMOJISET_CHOICES = [
  { key: "google", text: "Google" },
  { key: "twitter", text: "Twitter" },
  { key: "text", text: "Plain text" },
  { key: "google-blob", text: "Google blobs" },
] as const;

/** The notification sounds this server offers ("none" is accepted too: silence). */
export const NOTIFICATION_SOUNDS = ["chime", "ding", "zulip"] as const;

/** Languages Zulip has translations for: code → name in English (the `language_name` of events). */
export const LANGUAGES: Record<string, string> = {
  ar: "Arabic", be: "Belarusian", bg: "Bulgarian", bn: "Bengali", ca: "Catalan", cs: "Czech", cy: "Welsh",
  da: "Danish", de: "German", el: "Greek", en: "English", en_GB: "British English", eo: "Esperanto",
  es: "Spanish", fa: "Persian", fi: "Finnish", fr: "French", gl: "Galician", gu: "Gujarati", hi: "Hindi",
  hu: "Hungarian", id: "Indonesian", it: "Italian", ja: "Japanese", ko: "Korean", lt: "Lithuanian",
  lv: "Latvian", ml: "Malayalam", mn: "Mongolian", nl: "Dutch", no: "Norwegian", pl: "Polish",
  pt: "Portuguese", pt_BR: "Brazilian Portuguese", pt_PT: "Portuguese (Portugal)", ro: "Romanian",
  ru: "Russian", si: "Sinhala", sr: "Serbian", sv: "Swedish", ta: "Tamil", te: "Telugu", tl: "Tagalog",
  tr: "Turkish", uk: "Ukrainian", uz: "Uzbek", vi: "Vietnamese", "zh-hans": "Simplified Chinese",
  "zh-hant": "Traditional Chinese",
};

/** One week: the longest email batching period Zulip accepts. */
export const MAX_EMAIL_BATCHING_SECONDS = 7 * 24 * 60 * 60;

const POLICY_1_3 = [1, 2, 3] as const;
const POLICY_1_4 = [1, 2, 3, 4] as const;

/** Every personal setting PATCH /settings changes (except timezone), with Zulip's default. */
export const USER_SETTINGS = {
  // display
  twenty_four_hour_time: bool(false),
  web_mark_read_on_scroll_policy: int(1, POLICY_1_3),
  web_channel_default_view: int(1, [1, 2]),
  starred_message_counts: bool(true),
  receives_typing_notifications: bool(true),
  web_suggest_update_timezone: bool(true),
  fluid_layout_width: bool(false),
  high_contrast_mode: bool(false),
  web_font_size_px: int(16),
  web_line_height_percent: int(140),
  color_scheme: int(1, POLICY_1_3),
  translate_emoticons: bool(false),
  display_emoji_reaction_users: bool(true),
  default_language: str("en"),
  web_home_view: str("inbox", ["recent_topics", "inbox", "all_messages"]),
  web_escape_navigates_to_home_view: bool(true),
  left_side_userlist: bool(false),
  emojiset: str("google", EMOJISET_CHOICES.map((e) => e.key)),
  demote_inactive_streams: int(1, POLICY_1_3),
  user_list_style: int(2, POLICY_1_3),
  web_animate_image_previews: str("on_hover", ["always", "on_hover", "never"]),
  web_stream_unreads_count_display_policy: int(2, POLICY_1_3),
  hide_ai_features: bool(false),
  enter_sends: bool(false),
  enable_drafts_synchronization: bool(true),
  // notifications
  enable_stream_desktop_notifications: bool(false),
  enable_stream_email_notifications: bool(false),
  enable_stream_push_notifications: bool(false),
  enable_stream_audible_notifications: bool(false),
  notification_sound: str("zulip"),
  enable_desktop_notifications: bool(true),
  enable_sounds: bool(true),
  email_notifications_batching_period_seconds: int(120),
  enable_offline_email_notifications: bool(true),
  enable_offline_push_notifications: bool(true),
  enable_online_push_notifications: bool(true),
  enable_followed_topic_desktop_notifications: bool(true),
  enable_followed_topic_email_notifications: bool(true),
  enable_followed_topic_push_notifications: bool(true),
  enable_followed_topic_audible_notifications: bool(true),
  enable_digest_emails: bool(true),
  enable_marketing_emails: bool(true),
  enable_login_emails: bool(true),
  message_content_in_email_notifications: bool(true),
  pm_content_in_desktop_notifications: bool(true),
  wildcard_mentions_notify: bool(true),
  enable_followed_topic_wildcard_mentions_notify: bool(true),
  desktop_icon_count_display: int(1, POLICY_1_4),
  realm_name_in_email_notifications_policy: int(1, POLICY_1_3),
  automatically_follow_topics_policy: int(3, POLICY_1_4),
  automatically_unmute_topics_in_muted_streams_policy: int(2, POLICY_1_4),
  automatically_follow_topics_where_mentioned: bool(true),
  presence_enabled: bool(true),
  // privacy
  send_private_typing_notifications: bool(true),
  send_stream_typing_notifications: bool(true),
  send_read_receipts: bool(true),
  allow_private_data_export: bool(false),
  email_address_visibility: int(1, [1, 2, 3, 4, 5]),
  web_navigate_to_sent_message: bool(true),
} satisfies Record<string, Spec>;

export type UserSettingName = keyof typeof USER_SETTINGS;
export const USER_SETTING_NAMES = Object.keys(USER_SETTINGS) as UserSettingName[];
export const USER_SETTING_SPECS: Record<UserSettingName, Spec> = USER_SETTINGS;

/** A user's effective settings: every setting, plus timezone. */
export type UserSettings = { [K in UserSettingName]: (typeof USER_SETTINGS)[K]["default"] } & { timezone: string };

export const USER_SETTING_DEFAULTS = Object.fromEntries(USER_SETTING_NAMES.map((n) => [n, USER_SETTINGS[n].default])) as Record<
  UserSettingName,
  SettingValue
>;

/** Settings the pre-feature-level-89 `update_display_settings` event and register keys carry (timezone too). */
export const LEGACY_DISPLAY_SETTINGS: ReadonlySet<string> = new Set([
  "color_scheme", "default_language", "demote_inactive_streams", "emojiset", "enable_drafts_synchronization", "enter_sends",
  "fluid_layout_width", "high_contrast_mode", "left_side_userlist", "starred_message_counts", "translate_emoticons",
  "twenty_four_hour_time", "web_home_view",
]);

/** Settings of the legacy `update_global_notifications` event and register keys. */
export const LEGACY_NOTIFICATION_SETTINGS: ReadonlySet<string> = new Set([
  "enable_desktop_notifications", "enable_digest_emails", "enable_login_emails", "enable_marketing_emails",
  "email_notifications_batching_period_seconds", "enable_offline_email_notifications", "enable_offline_push_notifications",
  "enable_online_push_notifications", "enable_sounds", "enable_stream_desktop_notifications", "enable_stream_email_notifications",
  "enable_stream_push_notifications", "enable_stream_audible_notifications", "wildcard_mentions_notify",
  "message_content_in_email_notifications", "notification_sound", "pm_content_in_desktop_notifications",
  "desktop_icon_count_display", "realm_name_in_email_notifications_policy", "presence_enabled",
]);

/** Parses a users.settings / realm_user_defaults.settings JSON text, keeping only known settings of the right kind. */
export function parseStoredSettings(json: string | null | undefined): Partial<Record<UserSettingName, SettingValue>> {
  let raw: unknown;
  try {
    raw = JSON.parse(json || "{}");
  } catch {
    return {};
  }
  const out: Partial<Record<UserSettingName, SettingValue>> = {};
  if (!raw || typeof raw !== "object") return out;
  for (const [k, v] of Object.entries(raw)) {
    const spec = (USER_SETTINGS as Record<string, Spec>)[k];
    if (spec && typeof v === (spec.kind === "bool" ? "boolean" : spec.kind === "int" ? "number" : "string")) out[k as UserSettingName] = v as SettingValue;
  }
  return out;
}

/** Zulip's defaults overlaid by `stored` (the organization's defaults, or a user's own settings). */
export function settingsOver(stored: Partial<Record<UserSettingName, SettingValue>>): Record<UserSettingName, SettingValue> {
  return { ...USER_SETTING_DEFAULTS, ...stored };
}

/** A user's effective personal settings (stored values over Zulip's defaults) and their timezone. */
export function userSettings(user: Pick<UserRow, "settings" | "timezone">): UserSettings {
  return { ...settingsOver(parseStoredSettings(user.settings)), timezone: user.timezone } as UserSettings;
}

/**
 * Zulip's checks beyond the type (which the route's schema already enforces): the error message for
 * a value of `name` it refuses, or null.
 */
export function settingProblem(name: UserSettingName, value: SettingValue): string | null {
  const spec = USER_SETTING_SPECS[name];
  if (spec.kind !== "bool" && spec.choices && !(spec.choices as readonly SettingValue[]).includes(value)) return `Invalid ${name}`;
  switch (name) {
    case "default_language":
      return typeof value === "string" && Object.hasOwn(LANGUAGES, value) ? null : "Invalid default_language";
    case "notification_sound":
      return value === "none" || (NOTIFICATION_SOUNDS as readonly string[]).includes(value as string) ? null : `Invalid notification sound '${value}'`;
    case "email_notifications_batching_period_seconds": {
      const n = value as number;
      return n <= 0 || n > MAX_EMAIL_BATCHING_SECONDS ? `Invalid email batching period: ${n} seconds` : null;
    }
  }
  return null;
}

/** Whether `tz` is an IANA time zone name this runtime knows. */
export function isValidTimezone(tz: string): boolean {
  if (!tz) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The stored JSON for `current` (one user's or the organization's own values) with `changes` applied; defaults are left out. */
export function storedSettingsJson(current: Partial<Record<UserSettingName, SettingValue>>, changes: Partial<Record<UserSettingName, SettingValue>>): string {
  const next: Record<string, SettingValue> = {};
  for (const [k, v] of Object.entries({ ...current, ...changes })) if (v !== USER_SETTING_DEFAULTS[k as UserSettingName]) next[k] = v!;
  return JSON.stringify(next);
}

/** emojiset_choices as the API shows them. */
export const emojisetChoices = () => EMOJISET_CHOICES.map((e) => ({ key: e.key, text: e.text }));
