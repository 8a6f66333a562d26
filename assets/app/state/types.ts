/**
 * The client's state: what POST /register gave (kept current by events) and the messages it has
 * fetched. Plain data only (records and arrays, no DOM, no classes), so it can be compared with a
 * fresh /register in tests and replaced wholesale when the event queue is lost.
 */
import type { Bot, ChannelFolder, ProfileField, ProfileValue } from "./org-types";

import type { OrgState } from "./org";

/**
 * One term of a search (Zulip's narrow terms). Operands are kept in a canonical form: a channel by its
 * id, people (sender, dm) by their ids, comma-separated; free text under the "search" operator.
 */
export interface Term {
  operator: string;
  operand: string;
  negated?: boolean;
}

/** The message views the app shows (state/narrow.ts asks the server for each and matches messages to it). */
export type Narrow =
  /** the combined feed: every message except muted channels and topics */
  | { kind: "feed" }
  /** every message, muted or not (the recent conversations view reads this one) */
  | { kind: "all" }
  | { kind: "mentioned" }
  | { kind: "starred" }
  | { kind: "dms" }
  | { kind: "channel"; stream_id: number }
  | { kind: "topic"; stream_id: number; topic: string }
  | { kind: "dm"; key: string }
  /** anything else a search asks for: operators and free text */
  | { kind: "search"; terms: Term[] };

export interface User {
  user_id: number;
  full_name: string;
  email: string;
  is_bot: boolean;
  is_active: boolean;
  role: number;
  /** "" when unknown */
  timezone: string;
  avatar_url: string | null;
  /** for people's profile cards and the administrators' lists */
  date_joined?: string;
  bot_type?: number | null;
  bot_owner_id?: number | null;
  /** the real address, when the organization's email visibility lets the person see it */
  delivery_email?: string | null;
  /** custom profile field id → value */
  profile_data?: Record<string, ProfileValue>;
}

/** A saved snippet: text the person inserts into messages. */
export interface SavedSnippet {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

/**
 * Who holds a permission: a user group's id, or an anonymous group of people and groups (Zulip's
 * group-setting value).
 */
export type GroupSetting = number | { direct_members: number[]; direct_subgroups: number[] };

/** The channel's permission settings the app reads to offer only what the server will allow. */
export const CHANNEL_PERMISSIONS = [
  "can_administer_channel_group",
  "can_delete_any_message_group",
  "can_delete_own_message_group",
  "can_move_messages_out_of_channel_group",
  "can_move_messages_within_channel_group",
  "can_resolve_topics_group",
  // who may join the channel by themselves (a private one too), or add others
  "can_subscribe_group",
  "can_add_subscribers_group",
  // who may post, and remove others from the channel (its settings page offers them all)
  "can_send_message_group",
  "can_remove_subscribers_group",
  "can_create_topic_group",
] as const;
export type ChannelPermission = (typeof CHANNEL_PERMISSIONS)[number];

export interface Channel extends Partial<Record<ChannelPermission, GroupSetting>> {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
  is_web_public: boolean;
  is_archived: boolean;
  /** a private channel's older messages are readable by new subscribers (settings page) */
  history_public_to_subscribers?: boolean;
  folder_id?: number | null;
  /** null: the organization's policy; -1: forever */
  message_retention_days?: number | null;
}

/** A channel the person is subscribed to, with their own settings for it. */
export interface Subscription extends Channel {
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  /** the person's own notification choices for the channel; null follows their general setting */
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  push_notifications?: boolean | null;
  email_notifications?: boolean | null;
}

/** Where an unread message sits: a channel topic or a direct-message conversation (see dmKey). */
export type Place = { kind: "channel"; stream_id: number; topic: string } | { kind: "dm"; key: string };

export interface Unread {
  /** message id → where it is */
  messages: Record<number, Place>;
  /** unread messages that mention the person (directly, through a group, or a wildcard) */
  mentions: number[];
}

export interface Presence {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface UserStatus {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

export interface UserGroup {
  id: number;
  name: string;
  /** role groups (role:members, role:everyone …), which are not mentioned by name */
  is_system_group: boolean;
  members: number[];
  direct_subgroup_ids: number[];
  description?: string;
  creator_id?: number | null;
  /** who may manage the group, add, remove, join, leave, mention (the settings page's pickers) */
  settings?: Partial<Record<UserGroupPermission, GroupSetting>>;
}

export const USER_GROUP_PERMISSIONS = ["can_manage_group", "can_add_members_group", "can_remove_members_group", "can_join_group", "can_leave_group", "can_mention_group"] as const;
export type UserGroupPermission = (typeof USER_GROUP_PERMISSIONS)[number];

/** The person's settings the app reads; everything else /register sends is left out. */
export interface Settings {
  twenty_four_hour_time: boolean;
  /** 1 automatic (follow the system), 2 dark, 3 light */
  color_scheme: number;
  enter_sends: boolean;
  /** 1 always, 2 only in conversation views, 3 never */
  web_mark_read_on_scroll_policy: number;
  web_home_view: string;
  starred_message_counts: boolean;
  presence_enabled: boolean;
  /** drafts are kept on the server (and follow the person across devices) rather than in this browser */
  enable_drafts_synchronization: boolean;
  send_private_typing_notifications: boolean;
  send_stream_typing_notifications: boolean;
  /** desktop notifications for direct messages and mentions */
  enable_desktop_notifications: boolean;
  /** a sound for direct messages and mentions */
  enable_sounds: boolean;
  /** "none" turns every sound off */
  notification_sound: string;
  /** whether @all and @topic count as mentions for notifications */
  wildcard_mentions_notify: boolean;
  enable_followed_topic_desktop_notifications: boolean;
  enable_followed_topic_audible_notifications: boolean;
  enable_followed_topic_wildcard_mentions_notify: boolean;
  /** every message in channels (each channel's own setting may say otherwise) */
  enable_stream_desktop_notifications: boolean;
  enable_stream_audible_notifications: boolean;
  pm_content_in_desktop_notifications: boolean;
  // the rest of the settings screen's (stored with the account; Zulip's other clients read them too)
  fluid_layout_width: boolean;
  emojiset: string;
  display_emoji_reaction_users: boolean;
  web_escape_navigates_to_home_view: boolean;
  enable_offline_email_notifications: boolean;
  enable_offline_push_notifications: boolean;
  enable_online_push_notifications: boolean;
  enable_followed_topic_email_notifications: boolean;
  enable_followed_topic_push_notifications: boolean;
  enable_stream_email_notifications: boolean;
  enable_stream_push_notifications: boolean;
  email_notifications_batching_period_seconds: number;
  message_content_in_email_notifications: boolean;
  enable_digest_emails: boolean;
  enable_login_emails: boolean;
  enable_marketing_emails: boolean;
  realm_name_in_email_notifications_policy: number;
  automatically_follow_topics_policy: number;
  automatically_unmute_topics_in_muted_streams_policy: number;
  automatically_follow_topics_where_mentioned: boolean;
  desktop_icon_count_display: number;
  send_read_receipts: boolean;
  email_address_visibility: number;
  allow_private_data_export: boolean;
}

export interface Realm {
  name: string;
  description: string;
  icon_url: string;
  max_message_length: number;
  max_topic_length: number;
  mandatory_topics: boolean;
  empty_topic_display_name: string;
  presence_disabled: boolean;
  ping_interval_seconds: number;
  offline_threshold_seconds: number;
  enable_guest_user_indicator: boolean;
  max_file_upload_size_mib: number;
  /** where Zulip's emoji names are served (server_emoji_data_url) */
  emoji_data_url: string;
  /** Zulip's typing notification timing, from the server */
  typing_started_wait_ms: number;
  typing_stopped_wait_ms: number;
  typing_expiry_ms: number;
  allow_message_editing: boolean;
  /** null: no limit */
  message_content_edit_limit_seconds: number | null;
  message_content_delete_limit_seconds: number | null;
  move_messages_within_stream_limit_seconds: number | null;
  move_messages_between_streams_limit_seconds: number | null;
  /** "all" edits and moves, only "moves", or "none" */
  message_edit_history_visibility_policy: string;
  can_delete_any_message_group: GroupSetting;
  can_delete_own_message_group: GroupSetting;
  can_move_messages_between_channels_group: GroupSetting;
  can_move_messages_between_topics_group: GroupSetting;
  can_resolve_topics_group: GroupSetting;
  /** who may create invitation links (Zulip's create_multiuse_invite_group) */
  create_multiuse_invite_group: GroupSetting;
  /** who may invite people by email (Zulip's can_invite_users_group) */
  can_invite_users_group: GroupSetting;
  /** people, groups and bots: who may add others to channels, create bots and groups, manage every group */
  can_add_subscribers_group?: GroupSetting;
  can_create_bots_group?: GroupSetting;
  can_create_write_only_bots_group?: GroupSetting;
  can_create_groups?: GroupSetting;
  can_manage_all_groups?: GroupSetting;
  /** the sounds the server offers for notifications */
  notification_sounds: string[];
  /** who may create channels of each kind */
  can_create_public_channel_group: GroupSetting;
  can_create_private_channel_group: GroupSetting;
  can_create_web_public_channel_group: GroupSetting;
  /** web-public channels exist only where the server and the organization allow spectators */
  web_public_channels_enabled: boolean;
  enable_spectator_access: boolean;
  max_stream_name_length: number;
  max_stream_description_length: number;
  /** where new channels are announced (-1: nowhere) */
  new_stream_announcements_stream_id: number;
  /** members may not change their own names, emails or avatars (administrators still may) */
  name_changes_disabled: boolean;
  email_changes_disabled: boolean;
  avatar_changes_disabled: boolean;
  max_avatar_file_size_mib: number;
  /** whether people may choose to send read receipts */
  enable_read_receipts: boolean;
}

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

/** A widget's data (poll, to-do list): the first submessage declares it, the others are its events. */
export interface Submessage {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  /** JSON */
  content: string;
}

/** An organization's custom emoji (realm_emoji), by id. */
export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
  /** who uploaded it (null: unknown) */
  author_id?: number | null;
}

/** A draft kept by the server (when the person synchronizes drafts). */
export interface ServerDraft {
  id: number;
  /** "" for a draft with no recipient yet */
  type: "" | "stream" | "private";
  /** the channel id, or the people of a direct message */
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** A message waiting to be sent later (Zulip's scheduled_messages). */
export interface ScheduledMessage {
  scheduled_message_id: number;
  type: "stream" | "private";
  /** the channel id, or the people of a direct message */
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

export interface DisplayRecipient {
  id: number;
  email: string;
  full_name: string;
}

/** A message as GET /messages and message events give it (apply_markdown: content is HTML). */
export interface Message {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  timestamp: number;
  type: "stream" | "private";
  stream_id?: number;
  subject: string;
  display_recipient: string | DisplayRecipient[];
  content: string;
  flags: string[];
  reactions: Reaction[];
  submessages: Submessage[];
  is_me_message: boolean;
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  /** set on a message the app shows before the server has it (local echo) */
  local_id?: string;
}

/** A search result's content and topic with the matches marked (the server's match_content, match_subject). */
export interface Highlight {
  content: string;
  subject: string;
}

/** The messages of one view, contiguous: from `ids[0]` to the last, with whether the ends are reached. */
export interface MessageList {
  narrow: Narrow;
  ids: number[];
  found_oldest: boolean;
  found_newest: boolean;
  /** search results: the server's highlighted forms, by message id (dropped when the message changes) */
  highlights?: Record<number, Highlight>;
}

export interface State {
  me: number;
  realm: Realm;
  users: Record<number, User>;
  /** every channel the person can see, subscribed or not */
  channels: Record<number, Channel>;
  /** each channel's subscribers (active people), sorted; Zulip's web app keeps them as its peer data */
  subscribers: Record<number, number[]>;
  subscriptions: Record<number, Subscription>;
  unread: Unread;
  starred: number[];
  /** direct-message conversations (dmKey) → their newest message id */
  recent_dms: Record<string, number>;
  /** "stream_id:topic in lower case" → visibility policy (1 muted, 2 unmuted, 3 followed) */
  user_topics: Record<string, { topic: string; stream_id: number; policy: number }>;
  presence: Record<number, Presence>;
  user_status: Record<number, UserStatus>;
  muted_users: number[];
  groups: Record<number, UserGroup>;
  settings: Settings;
  /** fetched messages by id, and the lists of the views that fetched them (by narrow key) */
  messages: Record<number, Message>;
  lists: Record<string, MessageList>;
  /** the topics of channels whose topic list was fetched, newest first */
  topics: Record<number, { name: string; max_id: number }[]>;
  /**
   * how many times a channel's fetched topic list went out of date (a topic's newest message was deleted
   * or moved away, so the topic may be empty or older now, which only the server knows): each time, the
   * list is fetched again
   */
  topics_outdated: Record<number, number>;
  realm_emoji: Record<string, RealmEmoji>;
  /** the person's drafts on the server, by id (empty when they keep drafts in the browser) */
  drafts: Record<number, ServerDraft>;
  /** messages the person scheduled, not yet sent, by id */
  scheduled: Record<number, ScheduledMessage>;
  /** the person's own email address (users[me].email may be a stand-in the organization shows) */
  delivery_email: string;
  /** "U" an uploaded avatar, "G" the default (Gravatar or a generated one) */
  avatar_source: string;
  alert_words: string[];
  saved_snippets: Record<number, SavedSnippet>;
  /** the settings screens' data (optional: a state made for a test of the conversation may leave it out) */
  bots?: Record<number, Bot>;
  default_channels?: number[];
  channel_folders?: Record<number, ChannelFolder>;
  profile_fields?: ProfileField[];
  /** the organization's settings and lists for the administration screens (optional like the above) */
  org?: OrgState;
}
