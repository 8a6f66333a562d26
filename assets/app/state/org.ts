/**
 * The organization as its administration screens read it: every setting PATCH /realm takes, the
 * defaults for new users, linkifiers, code playgrounds and default channel groups (custom profile
 * fields, default channels and channel folders are kept beside it: state/org-types.ts). Taken from /register and kept current by events (state/reduce/org.ts), like the rest
 * of the state, so a change made anywhere shows on every open settings page.
 */
import { toGroupSetting } from "./group-setting";
import type { GroupSettingValue as GroupSetting } from "./group-setting";

/* eslint-disable @typescript-eslint/no-explicit-any -- the answer is JSON, read field by field here */
type Json = any;

/** Organization settings whose value is a group setting (who may do something). */
export const ORG_GROUP_SETTINGS = [
  "can_access_all_users_group",
  "can_add_custom_emoji_group",
  "can_add_subscribers_group",
  "can_create_bots_group",
  "can_create_groups",
  "can_create_private_channel_group",
  "can_create_public_channel_group",
  "can_create_web_public_channel_group",
  "can_create_write_only_bots_group",
  "can_delete_any_message_group",
  "can_delete_own_message_group",
  "can_invite_users_group",
  "can_manage_all_groups",
  "can_manage_billing_group",
  "can_mention_many_users_group",
  "can_move_messages_between_channels_group",
  "can_move_messages_between_topics_group",
  "can_resolve_topics_group",
  "can_set_delete_message_policy_group",
  "can_set_topics_policy_group",
  "can_summarize_topics_group",
  "create_multiuse_invite_group",
  "direct_message_initiator_group",
  "direct_message_permission_group",
] as const;
export type OrgGroupSetting = (typeof ORG_GROUP_SETTINGS)[number];

/** The other settings PATCH /realm takes that /register reports (as `realm_<name>`), and the icon. */
export const ORG_VALUE_SETTINGS = [
  "name",
  "description",
  "icon_url",
  "icon_source",
  "default_language",
  "default_code_block_language",
  "empty_topic_display_name",
  "welcome_message_custom_text",
  "topics_policy",
  "mandatory_topics",
  "message_edit_history_visibility_policy",
  "allow_edit_history",
  "allow_message_editing",
  "message_content_edit_limit_seconds",
  "message_content_delete_limit_seconds",
  "move_messages_within_stream_limit_seconds",
  "move_messages_between_streams_limit_seconds",
  "waiting_period_threshold",
  "message_retention_days",
  "video_chat_provider",
  "giphy_rating",
  "org_type",
  "digest_weekday",
  "digest_emails_enabled",
  "new_stream_announcements_stream_id",
  "signup_announcements_stream_id",
  "zulip_update_announcements_stream_id",
  "avatar_changes_disabled",
  "disallow_disposable_email_addresses",
  "email_changes_disabled",
  "emails_restricted_to_domains",
  "enable_guest_user_dm_warning",
  "enable_guest_user_indicator",
  "enable_read_receipts",
  "enable_spectator_access",
  "inline_image_preview",
  "inline_url_embed_preview",
  "invite_required",
  "message_content_allowed_in_email_notifications",
  "name_changes_disabled",
  "require_unique_names",
  "send_welcome_emails",
  "want_advertise_in_communities_directory",
] as const;

/** by setting name (no `realm_` prefix); group settings hold a GroupSetting */
export type OrgSettings = Record<string, string | number | boolean | null | GroupSetting>;

export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

export interface Playground {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export interface DefaultChannelGroup {
  id: number;
  name: string;
  description: string;
  streams: number[];
}

export interface OrgState {
  settings: OrgSettings;
  /** the settings new users start with (Zulip's realm_user_settings_defaults) */
  user_defaults: Record<string, unknown>;
  linkifiers: Linkifier[];
  playgrounds: Playground[];
  default_channel_groups: DefaultChannelGroup[];
}

export const toLinkifier = (l: Json): Linkifier => ({ id: l.id, pattern: l.pattern, url_template: l.url_template });
export const toPlayground = (p: Json): Playground => ({ id: p.id, name: p.name, pygments_language: p.pygments_language, url_template: p.url_template });
export const toChannelGroup = (g: Json): DefaultChannelGroup => ({
  id: g.id,
  name: g.name,
  description: g.description ?? "",
  streams: (g.streams ?? []).map((s: Json) => (typeof s === "number" ? s : s.stream_id)).sort((a: number, b: number) => a - b),
});
/** The organization's value for one setting, as the app keeps it. */
export const toOrgValue = (name: string, v: Json) => ((ORG_GROUP_SETTINGS as readonly string[]).includes(name) ? toGroupSetting(v) : v);

/** The organization part of a /register answer. Settings the server does not report are left out. */
export function orgOf(r: Json): OrgState {
  const settings: OrgSettings = {};
  for (const k of [...ORG_VALUE_SETTINGS, ...ORG_GROUP_SETTINGS]) if (r[`realm_${k}`] !== undefined) (settings as Json)[k] = toOrgValue(k, r[`realm_${k}`]);
  // the choices lists are the server's offer, not the defaults themselves
  const { emojiset_choices: _e, available_notification_sounds: _s, ...user_defaults } = r.realm_user_settings_defaults ?? {};
  return {
    settings,
    user_defaults,
    linkifiers: (r.realm_linkifiers ?? []).map(toLinkifier),
    playgrounds: (r.realm_playgrounds ?? []).map(toPlayground),
    default_channel_groups: (r.realm_default_stream_groups ?? []).map(toChannelGroup),
  };
}

/** A group setting's value (undefined when the server did not report it). */
export function orgGroup(org: OrgState, name: OrgGroupSetting): GroupSetting | undefined {
  const v = org.settings[name];
  return typeof v === "number" || (typeof v === "object" && v !== null) ? v : undefined;
}

export const EMPTY_ORG: OrgState = { settings: {}, user_defaults: {}, linkifiers: [], playgrounds: [], default_channel_groups: [] };
