/** Channel and subscription objects as Zulip's API shows them, and channel-name rules. Pure. */
import type { GroupSettingValue } from "./group-setting";
import { CHANNEL_GROUP_SETTING_NAMES, type StreamRow } from "../store/streams";
import type { SubscriptionRow } from "../store/subscriptions";

/** stream_post_policy (deprecated) derived from can_send_message_group's system group. */
const POST_POLICY_BY_GROUP: Record<string, number> = {
  "role:administrators": 2,
  "role:fullmembers": 3,
  "role:moderators": 4,
};

export interface FormatContext {
  /** API values of the group-setting groups (named → id, anonymous → members/subgroups) */
  groupValues: Map<number, GroupSettingValue>;
  /** name of a system group by id ("role:administrators", ...) */
  systemGroupName: (groupId: number) => string | undefined;
  subscriberCounts: Map<number, number>;
}

/** The channel object (Zulip's stream_to_dict): BasicChannel plus the newer fields. */
export function streamDict(s: StreamRow, ctx: FormatContext): Record<string, unknown> {
  const postPolicy = POST_POLICY_BY_GROUP[ctx.systemGroupName(s.can_send_message_group) ?? ""] ?? 1;
  const out: Record<string, unknown> = {
    stream_id: s.id,
    name: s.name,
    is_archived: Boolean(s.is_archived),
    description: s.description,
    rendered_description: s.rendered_description,
    date_created: Math.floor(s.date_created),
    creator_id: s.creator_id,
    invite_only: Boolean(s.invite_only),
    is_web_public: Boolean(s.is_web_public),
    history_public_to_subscribers: Boolean(s.history_public_to_subscribers),
    message_retention_days: s.message_retention_days,
    first_message_id: s.first_message_id,
    folder_id: s.folder_id,
    topics_policy: s.topics_policy,
    is_recently_active: true,
    stream_weekly_traffic: null,
    subscriber_count: ctx.subscriberCounts.get(s.id) ?? 0,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === 2,
  };
  for (const name of CHANNEL_GROUP_SETTING_NAMES) out[name] = ctx.groupValues.get(s[name]) ?? s[name];
  return out;
}

/** A subscription object: the channel's fields and the user's own settings. */
export function subscriptionDict(s: StreamRow, sub: SubscriptionRow, ctx: FormatContext, subscribers?: number[]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...streamDict(s, ctx),
    color: sub.color,
    is_muted: Boolean(sub.is_muted),
    in_home_view: !sub.is_muted,
    pin_to_top: Boolean(sub.pin_to_top),
    desktop_notifications: nullableBool(sub.desktop_notifications),
    audible_notifications: nullableBool(sub.audible_notifications),
    push_notifications: nullableBool(sub.push_notifications),
    email_notifications: nullableBool(sub.email_notifications),
    wildcard_mentions_notify: nullableBool(sub.wildcard_mentions_notify),
  };
  if (subscribers) out.subscribers = subscribers;
  return out;
}

const nullableBool = (v: number | null) => (v === null ? null : Boolean(v));

/** A subscription's notification settings, and the user's global setting each one inherits when unset. */
const INHERITED_FROM = {
  desktop_notifications: "enable_stream_desktop_notifications",
  audible_notifications: "enable_stream_audible_notifications",
  push_notifications: "enable_stream_push_notifications",
  email_notifications: "enable_stream_email_notifications",
  wildcard_mentions_notify: "wildcard_mentions_notify",
} as const;

/**
 * For a client without the notification_settings_null capability (the API before Zulip 2.1, and any
 * client that declares no capabilities), unset (null) notification settings are given as the user's
 * global values, as Zulip's build_stream_dict_for_sub does.
 */
export function withInheritedNotifications(dict: Record<string, unknown>, globals: Record<string, unknown>): Record<string, unknown> {
  for (const [own, global] of Object.entries(INHERITED_FROM)) if (dict[own] === null) dict[own] = globals[global];
  return dict;
}

/** Unicode noncharacters (U+FDD0..U+FDEF and the last two of every plane). */
function isNoncharacter(cp: number): boolean {
  return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
}

/** 1-based position of the first unprintable character (Cc, Cs, noncharacter), or null. */
export function unprintablePosition(text: string): number | null {
  let i = 0;
  for (const ch of text) {
    i++;
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0xd800 && cp <= 0xdfff) || isNoncharacter(cp)) return i;
  }
  return null;
}

/** Zulip's check_stream_name: the problem with a channel name, or null. */
export function channelNameProblem(name: string, maxLength: number): string | null {
  if (name.trim() === "") return "Channel name can't be empty.";
  if ([...name].length > maxLength) return `Channel name too long (limit: ${maxLength} characters).`;
  const pos = unprintablePosition(name);
  if (pos !== null) return `Invalid character in channel name, at position ${pos}.`;
  return null;
}

export const TOPICS_POLICIES = ["inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"] as const;
export type TopicsPolicy = (typeof TOPICS_POLICIES)[number];

/** message_retention_days as sent: an integer, "realm_default" (null) or "unlimited" (-1). */
export function parseRetentionDays(value: string | number): number | null | undefined {
  if (value === "realm_default") return null;
  if (value === "unlimited") return -1;
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  return undefined;
}
