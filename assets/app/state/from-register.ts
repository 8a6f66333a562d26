/** The state from a POST /register answer (REGISTER_PARAMS): the one place the app reads it. */
import { dmKey } from "./people";
import { placeKey } from "./user-topics";
import { orgOf } from "./org";
import { toGroupSetting } from "./group-setting";
import {
  CHANNEL_PERMISSIONS,
  type Channel,
  type GroupSetting,
  type Place,
  type SavedSnippet,
  type Presence,
  type Realm,
  type RealmEmoji,
  type ScheduledMessage,
  type ServerDraft,
  type Settings,
  type State,
  type Subscription,
  type User,
  type UserGroup,
  type UserStatus,
  USER_GROUP_PERMISSIONS,
} from "./types";
import type { Bot, ChannelFolder, ProfileField } from "./org-types";

/* eslint-disable @typescript-eslint/no-explicit-any -- the answer is JSON, read field by field here */
type Json = any;

export const toUser = (u: Json, isActive = u.is_active ?? true): User => ({
  user_id: u.user_id,
  full_name: u.full_name,
  email: u.email,
  is_bot: !!u.is_bot,
  is_active: isActive,
  role: u.role ?? 400,
  timezone: u.timezone ?? "",
  avatar_url: u.avatar_url ?? null,
  ...personExtras(u),
});

/** The fields only the profile cards and the settings screens read, when the server sent them. */
function personExtras(u: Json): Partial<User> {
  const out: Partial<User> = {};
  if (u.date_joined !== undefined) out.date_joined = u.date_joined;
  if (u.is_bot) {
    out.bot_type = u.bot_type ?? null;
    out.bot_owner_id = u.bot_owner_id ?? null;
  }
  if (u.delivery_email !== undefined) out.delivery_email = u.delivery_email;
  if (u.profile_data) out.profile_data = { ...u.profile_data };
  return out;
}

export const toSnippet = (s: Json): SavedSnippet => ({ id: s.id, title: s.title, content: s.content, date_created: s.date_created });

export { toGroupSetting } from "./group-setting";

/** A list of subscribers as the app keeps it: sorted, no duplicates. */
export const sortedIds = (ids: readonly number[] | undefined): number[] => [...new Set(ids ?? [])].sort((a, b) => a - b);

export function toChannel(s: Json): Channel {
  const c: Channel = {
    stream_id: s.stream_id,
    name: s.name,
    description: s.description ?? "",
    invite_only: !!s.invite_only,
    is_web_public: !!s.is_web_public,
    is_archived: !!s.is_archived,
  };
  for (const k of CHANNEL_PERMISSIONS) if (s[k] !== undefined && s[k] !== null) c[k] = toGroupSetting(s[k]);
  if (s.history_public_to_subscribers !== undefined) c.history_public_to_subscribers = !!s.history_public_to_subscribers;
  if (s.folder_id !== undefined) c.folder_id = s.folder_id;
  if (s.message_retention_days !== undefined) c.message_retention_days = s.message_retention_days;
  return c;
}

/** A per-channel notification choice: true, false, or null (the person's general setting). */
const choice = (v: unknown) => (typeof v === "boolean" ? v : null);

export const toSubscription = (s: Json): Subscription => ({
  ...toChannel(s),
  color: s.color,
  is_muted: !!s.is_muted,
  pin_to_top: !!s.pin_to_top,
  desktop_notifications: choice(s.desktop_notifications),
  audible_notifications: choice(s.audible_notifications),
  wildcard_mentions_notify: choice(s.wildcard_mentions_notify),
  push_notifications: choice(s.push_notifications),
  email_notifications: choice(s.email_notifications),
});

export function toGroup(g: Json): UserGroup {
  const out: UserGroup = { id: g.id, name: g.name, is_system_group: !!g.is_system_group, members: [...g.members].sort((a, b) => a - b), direct_subgroup_ids: [...g.direct_subgroup_ids].sort((a, b) => a - b) };
  if (g.description !== undefined) out.description = g.description;
  if (g.creator_id !== undefined) out.creator_id = g.creator_id;
  const settings: UserGroup["settings"] = {};
  for (const k of USER_GROUP_PERMISSIONS) if (g[k] !== undefined && g[k] !== null) settings[k] = toGroupSetting(g[k]);
  if (Object.keys(settings).length) out.settings = settings;
  return out;
}

export const toBot = (b: Json): Bot => ({
  user_id: b.user_id,
  full_name: b.full_name,
  email: b.email,
  bot_type: b.bot_type ?? 1,
  is_active: b.is_active !== false,
  api_key: b.api_key ?? "",
  owner_id: b.owner_id ?? null,
  avatar_url: b.avatar_url ?? null,
});

export const toFolder = (f: Json): ChannelFolder => ({ id: f.id, name: f.name, description: f.description ?? "", is_archived: !!f.is_archived, ...(typeof f.order === "number" && { order: f.order }) });

export const toProfileField = (f: Json): ProfileField => ({
  id: f.id,
  name: f.name,
  type: f.type,
  hint: f.hint ?? "",
  field_data: f.field_data ?? "",
  order: f.order ?? 0,
  required: !!f.required,
  editable_by_user: f.editable_by_user !== false,
});

const byOrder = (a: ProfileField, b: ProfileField) => a.order - b.order || a.id - b.id;
export const profileFieldsOf = (fields: Json[] | undefined): ProfileField[] => (fields ?? []).map(toProfileField).sort(byOrder);

export const SETTING_NAMES = [
  "twenty_four_hour_time",
  "color_scheme",
  "enter_sends",
  "web_mark_read_on_scroll_policy",
  "web_home_view",
  "starred_message_counts",
  "presence_enabled",
  "enable_drafts_synchronization",
  "send_private_typing_notifications",
  "send_stream_typing_notifications",
  "enable_desktop_notifications",
  "enable_sounds",
  "notification_sound",
  "wildcard_mentions_notify",
  "enable_followed_topic_desktop_notifications",
  "enable_followed_topic_audible_notifications",
  "enable_followed_topic_wildcard_mentions_notify",
  "enable_stream_desktop_notifications",
  "enable_stream_audible_notifications",
  "pm_content_in_desktop_notifications",
  "fluid_layout_width",
  "emojiset",
  "display_emoji_reaction_users",
  "web_escape_navigates_to_home_view",
  "enable_offline_email_notifications",
  "enable_offline_push_notifications",
  "enable_online_push_notifications",
  "enable_followed_topic_email_notifications",
  "enable_followed_topic_push_notifications",
  "enable_stream_email_notifications",
  "enable_stream_push_notifications",
  "email_notifications_batching_period_seconds",
  "message_content_in_email_notifications",
  "enable_digest_emails",
  "enable_login_emails",
  "enable_marketing_emails",
  "realm_name_in_email_notifications_policy",
  "automatically_follow_topics_policy",
  "automatically_unmute_topics_in_muted_streams_policy",
  "automatically_follow_topics_where_mentioned",
  "desktop_icon_count_display",
  "send_read_receipts",
  "email_address_visibility",
  "allow_private_data_export",
] as const;

export const toStatus = (s: Json): UserStatus => {
  const out: UserStatus = {};
  if (s.status_text) out.status_text = s.status_text;
  if (s.emoji_name) {
    out.emoji_name = s.emoji_name;
    out.emoji_code = s.emoji_code;
    out.reaction_type = s.reaction_type;
  }
  if (s.away) out.away = true;
  return out;
};

/** Zulip's edit-history policy, or the older boolean it replaced. */
const historyPolicy = (r: Json): string => r.realm_message_edit_history_visibility_policy ?? (r.realm_allow_edit_history === false ? "none" : "all");
const limit = (v: unknown) => (typeof v === "number" ? v : null);

function realmOf(r: Json): Realm {
  return {
    name: r.realm_name,
    description: r.realm_description ?? "",
    icon_url: r.realm_icon_url ?? "",
    max_message_length: r.max_message_length ?? 10000,
    max_topic_length: r.max_topic_length ?? 60,
    mandatory_topics: !!r.realm_mandatory_topics,
    empty_topic_display_name: r.realm_empty_topic_display_name ?? "general chat",
    presence_disabled: !!r.realm_presence_disabled,
    ping_interval_seconds: r.server_presence_ping_interval_seconds ?? 60,
    offline_threshold_seconds: r.server_presence_offline_threshold_seconds ?? 140,
    enable_guest_user_indicator: !!r.realm_enable_guest_user_indicator,
    max_file_upload_size_mib: r.max_file_upload_size_mib ?? 25,
    emoji_data_url: r.server_emoji_data_url ?? "/static/generated/emoji/emoji_api.json",
    // Zulip's defaults, for a server that does not say
    typing_started_wait_ms: r.server_typing_started_wait_period_milliseconds ?? 10_000,
    typing_stopped_wait_ms: r.server_typing_stopped_wait_period_milliseconds ?? 5_000,
    typing_expiry_ms: r.server_typing_started_expiry_period_milliseconds ?? 15_000,
    allow_message_editing: r.realm_allow_message_editing !== false,
    message_content_edit_limit_seconds: limit(r.realm_message_content_edit_limit_seconds),
    message_content_delete_limit_seconds: limit(r.realm_message_content_delete_limit_seconds),
    move_messages_within_stream_limit_seconds: limit(r.realm_move_messages_within_stream_limit_seconds),
    move_messages_between_streams_limit_seconds: limit(r.realm_move_messages_between_streams_limit_seconds),
    message_edit_history_visibility_policy: historyPolicy(r),
    can_delete_any_message_group: toGroupSetting(r.realm_can_delete_any_message_group),
    can_delete_own_message_group: toGroupSetting(r.realm_can_delete_own_message_group),
    can_move_messages_between_channels_group: toGroupSetting(r.realm_can_move_messages_between_channels_group),
    can_move_messages_between_topics_group: toGroupSetting(r.realm_can_move_messages_between_topics_group),
    can_resolve_topics_group: toGroupSetting(r.realm_can_resolve_topics_group),
    create_multiuse_invite_group: toGroupSetting(r.realm_create_multiuse_invite_group),
    can_invite_users_group: toGroupSetting(r.realm_can_invite_users_group),
    notification_sounds: r.user_settings?.available_notification_sounds ?? [],
    can_create_public_channel_group: toGroupSetting(r.realm_can_create_public_channel_group),
    can_create_private_channel_group: toGroupSetting(r.realm_can_create_private_channel_group),
    can_create_web_public_channel_group: toGroupSetting(r.realm_can_create_web_public_channel_group),
    web_public_channels_enabled: !!r.server_web_public_streams_enabled,
    enable_spectator_access: !!r.realm_enable_spectator_access,
    max_stream_name_length: r.max_stream_name_length ?? 60,
    max_stream_description_length: r.max_stream_description_length ?? 1024,
    new_stream_announcements_stream_id: r.realm_new_stream_announcements_stream_id ?? -1,
    name_changes_disabled: !!r.realm_name_changes_disabled,
    email_changes_disabled: !!r.realm_email_changes_disabled,
    avatar_changes_disabled: !!r.realm_avatar_changes_disabled,
    max_avatar_file_size_mib: r.max_avatar_file_size_mib ?? 5,
    enable_read_receipts: !!r.realm_enable_read_receipts,
    ...optionalGroups(r),
  };
}

/** The organization's people-and-bots permissions, when the server sent them. */
export const OPTIONAL_REALM_GROUPS = ["can_add_subscribers_group", "can_create_bots_group", "can_create_write_only_bots_group", "can_create_groups", "can_manage_all_groups"] as const;
function optionalGroups(r: Json): Partial<Realm> {
  const out: Partial<Realm> = {};
  for (const k of OPTIONAL_REALM_GROUPS) if (r[`realm_${k}`] !== undefined) out[k] = toGroupSetting(r[`realm_${k}`]);
  return out;
}

/** Default channels as ids (Zulip sent channel objects before feature level 330). */
export const defaultChannelIds = (list: Json[] | undefined): number[] => sortedIds((list ?? []).map((d: Json) => (typeof d === "number" ? d : d.stream_id)));

export const toRealmEmoji = (e: Json): RealmEmoji => ({ id: String(e.id), name: e.name, source_url: e.source_url, deactivated: !!e.deactivated, author_id: e.author_id ?? null });

export function realmEmojiOf(dict: Json): Record<string, RealmEmoji> {
  const out: Record<string, RealmEmoji> = {};
  for (const e of Object.values<Json>(dict ?? {})) out[String(e.id)] = toRealmEmoji(e);
  return out;
}

export const toDraft = (d: Json): ServerDraft => ({ id: d.id, type: d.type, to: [...d.to], topic: d.topic ?? "", content: d.content, timestamp: d.timestamp });

export const toScheduled = (m: Json): ScheduledMessage => {
  const out: ScheduledMessage = {
    scheduled_message_id: m.scheduled_message_id,
    type: m.type,
    to: m.to,
    content: m.content,
    rendered_content: m.rendered_content,
    scheduled_delivery_timestamp: m.scheduled_delivery_timestamp,
    failed: !!m.failed,
  };
  if (m.type === "stream") out.topic = m.topic;
  return out;
};

function unreadOf(me: number, u: Json): State["unread"] {
  const messages: Record<number, Place> = {};
  for (const s of u.streams) for (const id of s.unread_message_ids) messages[id] = { kind: "channel", stream_id: s.stream_id, topic: s.topic };
  for (const p of u.pms) for (const id of p.unread_message_ids) messages[id] = { kind: "dm", key: dmKey(me, [p.other_user_id]) };
  for (const h of u.huddles) for (const id of h.unread_message_ids) messages[id] = { kind: "dm", key: dmKey(me, h.user_ids_string.split(",").map(Number)) };
  return { messages, mentions: [...u.mentions].sort((a: number, b: number) => a - b) };
}

export function fromRegister(r: Json): State {
  const me: number = r.user_id;
  const users: Record<number, User> = {};
  for (const u of r.realm_users) users[u.user_id] = toUser(u, true);
  for (const u of r.realm_non_active_users ?? []) users[u.user_id] = toUser(u, false);
  for (const u of r.cross_realm_bots ?? []) users[u.user_id] = toUser(u, true);
  const channels: Record<number, Channel> = {};
  const subscriptions: Record<number, Subscription> = {};
  const subscribers: Record<number, number[]> = {};
  for (const s of [...r.unsubscribed, ...r.never_subscribed]) channels[s.stream_id] = toChannel(s);
  for (const s of r.subscriptions) {
    channels[s.stream_id] = toChannel(s);
    subscriptions[s.stream_id] = toSubscription(s);
  }
  for (const s of [...r.subscriptions, ...r.unsubscribed, ...r.never_subscribed]) subscribers[s.stream_id] = sortedIds(s.subscribers);
  const recent_dms: Record<string, number> = {};
  for (const c of r.recent_private_conversations) recent_dms[dmKey(me, c.user_ids)] = c.max_message_id;
  const user_topics: State["user_topics"] = {};
  for (const t of r.user_topics) if (t.visibility_policy) user_topics[placeKey(t.stream_id, t.topic_name)] = { stream_id: t.stream_id, topic: t.topic_name, policy: t.visibility_policy };
  const presence: Record<number, Presence> = {};
  for (const [id, p] of Object.entries<Json>(r.presences ?? {})) presence[Number(id)] = { active_timestamp: p.active_timestamp, idle_timestamp: p.idle_timestamp };
  const user_status: Record<number, UserStatus> = {};
  for (const [id, s] of Object.entries<Json>(r.user_status ?? {})) {
    const st = toStatus(s);
    if (Object.keys(st).length) user_status[Number(id)] = st;
  }
  const groups: Record<number, UserGroup> = {};
  for (const g of r.realm_user_groups ?? []) if (!g.deactivated) groups[g.id] = toGroup(g);
  const settings = Object.fromEntries(SETTING_NAMES.map((k) => [k, r.user_settings[k]])) as unknown as Settings;
  return {
    me,
    realm: realmOf(r),
    users,
    channels,
    subscribers,
    subscriptions,
    unread: unreadOf(me, r.unread_msgs),
    starred: [...r.starred_messages].sort((a: number, b: number) => a - b),
    recent_dms,
    user_topics,
    presence,
    user_status,
    muted_users: (r.muted_users ?? []).map((m: Json) => m.id).sort((a: number, b: number) => a - b),
    groups,
    settings,
    messages: {},
    lists: {},
    topics: {},
    topics_outdated: {},
    realm_emoji: realmEmojiOf(r.realm_emoji),
    drafts: Object.fromEntries((r.drafts ?? []).map((d: Json) => [d.id, toDraft(d)])),
    scheduled: Object.fromEntries((r.scheduled_messages ?? []).map((m: Json) => [m.scheduled_message_id, toScheduled(m)])),
    delivery_email: r.delivery_email ?? users[me]?.email ?? "",
    avatar_source: r.avatar_source ?? "G",
    alert_words: [...(r.alert_words ?? [])],
    saved_snippets: Object.fromEntries((r.saved_snippets ?? []).map((x: Json) => [x.id, toSnippet(x)])),
    bots: Object.fromEntries((r.realm_bots ?? []).map((b: Json) => [b.user_id, toBot(b)])),
    default_channels: defaultChannelIds(r.realm_default_streams),
    channel_folders: Object.fromEntries((r.channel_folders ?? []).map((f: Json) => [f.id, toFolder(f)])),
    profile_fields: profileFieldsOf(r.custom_profile_fields),
    org: orgOf(r),
  };
}
