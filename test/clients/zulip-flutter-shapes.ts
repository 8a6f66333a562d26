/**
 * What zulip-flutter (the Zulip mobile app) decodes, transcribed from its generated decoders
 * (lib/api/model/*.g.dart, lib/api/route/*.g.dart) and the hand-written readers beside them
 * (lib/api/model/model.dart, events.dart, reaction.dart). Object names are the app's classes;
 * a field is required when the app reads it as `json['x'] as T` with no default.
 */
import { absoluteUrl, anyValue, bool, color, either, int, list, map, num, obj, oneOf, optional, str, type Shape } from "./shape";

const ids = list(int);

// --- model.dart -------------------------------------------------------------------------------

/** GroupSettingValue.fromJson: a group id, or {direct_members, direct_subgroups} (GroupSettingValueNameless). */
export const GroupSettingValue: Shape = either("GroupSettingValue", (v) =>
  typeof v === "number" ? int : obj("GroupSettingValueNameless", { direct_members: ids, direct_subgroups: ids }),
);

export const CustomProfileField = obj("CustomProfileField", {
  id: int,
  type: anyValue, // unknownValue: CustomProfileFieldType.unknown
  order: int,
  name: str,
  hint: str,
  field_data: str,
  display_in_profile_summary: optional(bool),
});

export const MutedUserItem = obj("MutedUserItem", { id: int });

export const RealmEmojiItem = obj("RealmEmojiItem", {
  id: str, // emojiCode
  name: str,
  source_url: str,
  still_url: optional(str),
  deactivated: bool,
  author_id: optional(int),
});

/** UserStatusChange.fromJson: every part optional; a set emoji needs a known reaction_type (ReactionType.fromApiValue). */
export const UserStatusChange = obj(
  "UserStatusChange",
  { status_text: optional(str), emoji_name: optional(str), emoji_code: optional(str), reaction_type: optional(str) },
  (v, at, out) => {
    const set = [v.emoji_name, v.emoji_code, v.reaction_type].every((x) => typeof x === "string" && x !== "");
    if (set && !["unicode_emoji", "realm_emoji", "zulip_extra_emoji"].includes(v.reaction_type)) out.push(`${at}.reaction_type: unknown ${v.reaction_type}`);
  },
);

export const ClientDevice = obj("ClientDevice", {
  push_key_id: optional(int),
  push_token_id: optional(str),
  pending_push_token_id: optional(str),
  push_token_last_updated_timestamp: optional(int),
  push_registration_error_code: optional(str),
});

export const UserGroup = obj("UserGroup", {
  id: int,
  members: ids,
  direct_subgroup_ids: ids,
  name: str,
  description: str,
  is_system_group: bool,
  deactivated: optional(bool),
});

const ProfileFieldUserData = obj("ProfileFieldUserData", { value: str, rendered_value: optional(str) });

/**
 * User.fromJson. In the /register lists InitialSnapshot fills a missing is_active in first
 * (`_readUsersIsActiveFallback*`); a realm_user add event's person has no such fallback.
 */
export const userShape = (isActiveRequired: boolean) =>
  obj("User", {
    user_id: int,
    delivery_email: optional(str),
    email: str,
    full_name: str,
    date_joined: str,
    is_active: isActiveRequired ? bool : optional(bool),
    is_bot: bool,
    bot_type: optional(int),
    bot_owner_id: optional(int),
    role: anyValue, // unknownValue: UserRole.unknown
    timezone: str,
    avatar_url: optional(str),
    avatar_version: int,
    profile_data: optional(map(ProfileFieldUserData, { intKeys: true })),
    is_system_bot: optional(bool),
  });
export const User = userShape(true);

export const PerUserPresence = obj("PerUserPresence", { active_timestamp: int, idle_timestamp: int });

export const SavedSnippet = obj("SavedSnippet", { id: int, title: str, content: str, date_created: int });

const channelFields = {
  stream_id: int,
  name: str,
  is_archived: optional(bool),
  description: str,
  rendered_description: str,
  date_created: int,
  first_message_id: optional(int),
  invite_only: bool,
  is_web_public: bool,
  history_public_to_subscribers: bool,
  message_retention_days: optional(int),
  topics_policy: optional(str), // unknownValue: ChannelTopicsPolicy.unknown
  stream_post_policy: optional(oneOf(1, 2, 3, 4)), // $enumDecodeNullable(_$ChannelPostPolicyEnumMap) has no fallback
  folder_id: optional(int),
  can_add_subscribers_group: optional(GroupSettingValue),
  can_delete_any_message_group: optional(GroupSettingValue),
  can_delete_own_message_group: optional(GroupSettingValue),
  can_send_message_group: optional(GroupSettingValue),
  can_subscribe_group: optional(GroupSettingValue),
  is_recently_active: optional(bool),
  stream_weekly_traffic: optional(int),
};
export const ZulipStream = obj("ZulipStream", channelFields);

export const Subscription = obj("Subscription", {
  ...channelFields,
  desktop_notifications: optional(bool),
  email_notifications: optional(bool),
  wildcard_mentions_notify: optional(bool),
  push_notifications: optional(bool),
  audible_notifications: optional(bool),
  pin_to_top: bool,
  is_muted: bool,
  color, // Subscription._readColor: int.parse(str.substring(1), radix: 16)
});

export const ChannelFolder = obj("ChannelFolder", {
  id: int,
  name: str,
  order: optional(int),
  date_created: optional(int),
  creator_id: optional(int),
  description: str,
  rendered_description: str,
  is_archived: bool,
});

/** reaction.dart Reaction: reaction_type has no unknown fallback. */
export const Reaction = obj("Reaction", {
  emoji_name: str,
  emoji_code: str,
  reaction_type: oneOf("unicode_emoji", "realm_emoji", "zulip_extra_emoji"),
  user_id: int,
});

/** MessageEditState._readFromMessage reads edit_history entries. */
const EditHistoryEntry = obj("MessageEditState._readFromMessage", { prev_content: optional(str), prev_stream: optional(int), prev_topic: optional(str) }, (v, at, out) => {
  if (typeof v.prev_topic === "string" && typeof v.topic !== "string") out.push(`${at}.topic: missing beside prev_topic`);
});

// --- submessage.dart ---------------------------------------------------------------------------

export const Submessage = obj("Submessage", { sender_id: int, msg_type: anyValue, content: str });

/** PollEventSubmessage.fromJson on the JSON of a poll event (new_option, question, vote). */
export function pollEventProblems(content: string, at: string, out: string[]) {
  let e: any;
  try {
    e = JSON.parse(content);
  } catch {
    return void out.push(`${at}: not JSON (PollEventSubmessage.fromJson)`);
  }
  if (typeof e?.type !== "string") return void out.push(`${at}.type: not a String (PollEventSubmessage.fromJson)`);
  if (e.type === "new_option") obj("PollNewOptionEventSubmessage", { option: str, idx: int }).check(e, at, out);
  if (e.type === "question") obj("PollQuestionEventSubmessage", { question: str }).check(e, at, out);
  if (e.type === "vote") {
    obj("PollVoteEventSubmessage", { key: str, vote: anyValue }).check(e, at, out);
    // "crunchy-shell validation": "<sender id or canned>,<idx>"
    const [sender, idx] = String(e.key).split(",");
    if (!(sender === "canned" || /^\d+$/.test(sender ?? "")) || !/^\d+$/.test(idx ?? "")) out.push(`${at}.key: ${JSON.stringify(e.key)} is not "<sender>,<idx>"`);
  }
}

/** Message._readPoll → Submessage.parseSubmessagesJson: the first submessage is the widget, by the sender; a poll's others are poll events. */
function readPoll(v: Record<string, any>, at: string, out: string[]) {
  const subs = v.submessages ?? [];
  if (!Array.isArray(subs) || subs.length === 0) return;
  if (subs[0]?.sender_id !== v.sender_id) out.push(`${at}.submessages[0].sender_id: not the message's sender`);
  let widget: any;
  try {
    widget = JSON.parse(subs[0]?.content);
  } catch {
    return void out.push(`${at}.submessages[0].content: not JSON (WidgetData.fromJson)`);
  }
  if (typeof widget?.widget_type !== "string") return void out.push(`${at}.submessages[0].content: widget_type is not a String (WidgetData.fromJson)`);
  if (widget.widget_type !== "poll") return; // UnsupportedWidgetData
  obj("PollWidgetData", { extra_data: obj("PollWidgetExtraData", { question: optional(str), options: optional(list(str)) }) }).check(widget, `${at}.submessages[0].content`, out);
  subs.slice(1).forEach((sub: any, i: number) => pollEventProblems(sub?.content, `${at}.submessages[${i + 1}].content`, out));
}

const messageFields = {
  client: str,
  content: str,
  content_type: str,
  edit_history: optional(list(EditHistoryEntry)),
  id: int,
  is_me_message: bool,
  last_edit_timestamp: optional(int),
  reactions: list(Reaction), // Message._reactionsFromJson: `json as List<Object?>`
  sender_email: str,
  sender_full_name: str,
  sender_id: int,
  sender_realm_str: str,
  timestamp: int,
  flags: list(str), // Message._flagsFromJson; unknown flags become MessageFlag.unknown
  match_content: optional(str),
  match_subject: optional(str),
  submessages: optional(list(Submessage)), // Message._readPoll
};

/** StreamMessage (StreamConversation: $checkKeys requires display_recipient, non-null). */
export const StreamMessage = obj("StreamMessage", { ...messageFields, stream_id: int, subject: str, display_recipient: str }, readPoll);
/** DmMessage._conversationFromJson: display_recipient is a list of {id}. */
export const DmMessage = obj("DmMessage", { ...messageFields, display_recipient: list(obj("DmMessage._conversationFromJson", { id: int })) }, readPoll);

/** Message.fromJson: switches on `type`, anything else throws. */
export const Message: Shape = either("Message", (v: any) =>
  v?.type === "stream" ? StreamMessage : v?.type === "private" ? DmMessage : `Message.fromJson: unexpected message type ${JSON.stringify(v?.type)}`,
);

// --- initial_snapshot.dart ----------------------------------------------------------------------

const sortedIds = list(int, { sorted: true }); // the Unread*Snapshot constructors assert isSortedWithoutDuplicates

export const UnreadMessagesSnapshot = obj("UnreadMessagesSnapshot", {
  count: int,
  pms: list(obj("UnreadDmSnapshot", { other_user_id: int, unread_message_ids: sortedIds })),
  streams: list(obj("UnreadChannelSnapshot", { topic: str, stream_id: int, unread_message_ids: sortedIds })),
  huddles: list(obj("UnreadHuddleSnapshot", { user_ids_string: str, unread_message_ids: sortedIds })),
  mentions: ids,
  old_unreads_missing: bool,
});

export const UserSettings = obj("UserSettings", {
  twenty_four_hour_time: optional(bool), // TwentyFourHourTimeMode.fromApiValue(bool?)
  starred_message_counts: bool,
  display_emoji_reaction_users: bool,
  emojiset: anyValue, // unknownValue: Emojiset.unknown
  web_inbox_show_channel_folders: optional(bool),
  presence_enabled: bool,
});

export const UserTopicItem = obj("UserTopicItem", { stream_id: int, topic_name: str, last_updated: int, visibility_policy: anyValue });

export const InitialSnapshot = obj("InitialSnapshot", {
  queue_id: optional(str),
  last_event_id: int,
  zulip_feature_level: int,
  zulip_version: str,
  zulip_merge_base: str,
  alert_words: list(str),
  custom_profile_fields: list(CustomProfileField),
  max_stream_name_length: int,
  max_topic_length: int,
  server_presence_ping_interval_seconds: int,
  server_presence_offline_threshold_seconds: int,
  server_typing_started_expiry_period_milliseconds: optional(int),
  server_typing_stopped_wait_period_milliseconds: optional(int),
  server_typing_started_wait_period_milliseconds: optional(int),
  muted_users: list(MutedUserItem),
  presences: map(PerUserPresence, { intKeys: true }), // the modern format, since it sends slim_presence
  realm_emoji: map(RealmEmojiItem),
  realm_user_groups: list(UserGroup),
  recent_private_conversations: list(obj("RecentDmConversation", { max_message_id: int, user_ids: ids })),
  saved_snippets: optional(list(SavedSnippet)),
  subscriptions: list(Subscription),
  channel_folders: optional(list(ChannelFolder)),
  unread_msgs: UnreadMessagesSnapshot,
  starred_messages: ids,
  streams: list(ZulipStream),
  user_status: map(UserStatusChange, { intKeys: true }),
  user_settings: UserSettings,
  user_topics: list(UserTopicItem),
  devices: optional(map(ClientDevice, { intKeys: true })),
  realm_can_delete_any_message_group: optional(GroupSettingValue),
  realm_can_delete_own_message_group: optional(GroupSettingValue),
  realm_delete_own_message_policy: optional(oneOf(1, 2, 3, 4, 5)),
  // $enumDecode(_$RealmWildcardMentionPolicyEnumMap): required, no fallback (deprecated in Zulip 10, still sent)
  realm_wildcard_mention_policy: oneOf(1, 2, 3, 5, 6, 7),
  realm_topics_policy: optional(str),
  realm_mandatory_topics: optional(bool),
  realm_name: str,
  realm_waiting_period_threshold: int,
  realm_message_content_delete_limit_seconds: optional(int),
  realm_allow_message_editing: bool,
  realm_message_content_edit_limit_seconds: optional(int),
  realm_enable_read_receipts: bool,
  realm_icon_url: str, // Uri.parse
  realm_presence_disabled: bool,
  realm_default_external_accounts: map(obj("RealmDefaultExternalAccount", { name: str, text: str, hint: str, url_pattern: str })),
  max_file_upload_size_mib: int,
  server_thumbnail_formats: optional(list(obj("ThumbnailFormat", { name: str, max_width: int, max_height: int, animated: bool, format: str }))),
  server_emoji_data_url: absoluteUrl, // Uri.parse, then fetchServerEmojiData's http.Request
  event_queue_longpoll_timeout_seconds: int,
  realm_moderation_request_channel_id: optional(int),
  realm_empty_topic_display_name: optional(str),
  realm_users: list(userShape(false)),
  realm_non_active_users: list(userShape(false)),
  cross_realm_bots: list(userShape(false)),
  server_report_message_types: optional(list(obj("ReportMessageType", { key: str, name: str }))),
});

// --- lib/api/route/*.g.dart ----------------------------------------------------------------------

/** realm.dart GetServerSettingsResult (getServerSettings, the first request of the login flow). */
export const GetServerSettingsResult = obj("GetServerSettingsResult", {
  authentication_methods: obj("AuthenticationMethods", { ldap: bool }),
  external_authentication_methods: list(
    obj("ExternalAuthenticationMethod", { name: str, display_name: str, display_icon: optional(str), login_url: str, signup_url: str }),
  ),
  zulip_feature_level: int,
  zulip_version: str,
  zulip_merge_base: str,
  push_notifications_enabled: bool,
  is_incompatible: bool,
  email_auth_enabled: bool,
  require_email_format_usernames: bool,
  realm_uri: str,
  realm_name: str,
  realm_icon: str,
  realm_description: str,
  realm_web_public_access_enabled: bool,
});

/** realm.dart ServerEmojiData (fetchServerEmojiData, the emoji picker's names). */
export const ServerEmojiData = obj("ServerEmojiData", { code_to_names: map(list(str)) });
/** account.dart FetchApiKeyResult (fetchApiKey). */
export const FetchApiKeyResult = obj("FetchApiKeyResult", { api_key: str, email: str, user_id: optional(int) });
/** users.dart GetOwnUserResult (getOwnUser). */
export const GetOwnUserResult = obj("GetOwnUserResult", { user_id: int });
/** messages.dart GetMessagesResult (getMessages). */
export const GetMessagesResult = obj("GetMessagesResult", {
  anchor: int,
  found_newest: bool,
  found_oldest: bool,
  found_anchor: bool,
  history_limited: bool,
  messages: list(Message),
});
/** messages.dart GetMessageResult (getMessage). */
export const GetMessageResult = obj("GetMessageResult", { message: Message });
/** messages.dart SendMessageResult (sendMessage). */
export const SendMessageResult = obj("SendMessageResult", { id: int });
/** messages.dart UpdateMessageFlagsResult (updateMessageFlags). */
export const UpdateMessageFlagsResult = obj("UpdateMessageFlagsResult", { messages: ids });
/** messages.dart UpdateMessageFlagsForNarrowResult (updateMessageFlagsForNarrow, "mark as read/unread"). */
export const UpdateMessageFlagsForNarrowResult = obj("UpdateMessageFlagsForNarrowResult", {
  processed_count: int,
  updated_count: int,
  first_processed_id: optional(int),
  last_processed_id: optional(int),
  found_oldest: bool,
  found_newest: bool,
});
/** messages.dart GetReadReceiptsResult (getReadReceipts, "View read receipts"). */
export const GetReadReceiptsResult = obj("GetReadReceiptsResult", { user_ids: ids });
/** users.dart UpdatePresenceResult (updatePresence); Presence._maybePingAndRecordResponse reads `presences!` unless ping_only. */
export const updatePresenceResult = (pingOnly: boolean) =>
  obj("UpdatePresenceResult", {
    presence_last_update_id: optional(int),
    server_timestamp: optional(num),
    presences: pingOnly ? optional(map(PerUserPresence, { intKeys: true })) : map(PerUserPresence, { intKeys: true }),
  });
/** channels.dart GetChannelTopicsResult (getChannelTopics). */
export const GetChannelTopicsResult = obj("GetChannelTopicsResult", { topics: list(obj("GetChannelTopicsEntry", { max_id: int, name: str })) });
/** messages.dart UploadFileResult (uploadFile). */
export const UploadFileResult = obj("UploadFileResult", { uri: str });

// --- events.dart ---------------------------------------------------------------------------------

const ev = (name: string, fields: Parameters<typeof obj>[1], refine?: Parameters<typeof obj>[2]) => obj(name, { id: int, ...fields }, refine);
const messageType = oneOf("private", "stream", "direct"); // MessageTypeConverter
const topicOrRecipients = (directKey: string) => (v: Record<string, any>, at: string, out: string[]) => {
  // "crunchy-shell validation": a channel one needs stream_id and topic, a direct one the users
  const type = v.message_type ?? v.type;
  if (type === "stream") {
    if (!Number.isInteger(v.stream_id)) out.push(`${at}.stream_id: needed for a channel message`);
    if (typeof v.topic !== "string") out.push(`${at}.topic: needed for a channel message`);
  } else if (!Array.isArray(v[directKey])) out.push(`${at}.${directKey}: needed for a direct message`);
};

/** UserSettingsUpdateEvent._readValue: the value's type per known property. */
const USER_SETTING_VALUE: Record<string, Shape | null> = {
  twenty_four_hour_time: null, // bool? (null: the locale's default)
  starred_message_counts: bool,
  display_emoji_reaction_users: bool,
  emojiset: str,
  web_inbox_show_channel_folders: bool,
  presence_enabled: bool,
};
/** ChannelUpdateEvent._readValue. */
const CHANNEL_VALUE: Record<string, Shape | "nullable-int"> = {
  name: str,
  is_archived: bool,
  description: str,
  first_message_id: "nullable-int",
  invite_only: bool,
  message_retention_days: "nullable-int",
  topics_policy: str,
  stream_post_policy: oneOf(1, 2, 3, 4),
  folder_id: "nullable-int",
  can_add_subscribers_group: GroupSettingValue,
  can_delete_any_message_group: GroupSettingValue,
  can_delete_own_message_group: GroupSettingValue,
  can_send_message_group: GroupSettingValue,
  can_subscribe_group: GroupSettingValue,
  is_recently_active: bool,
  stream_weekly_traffic: "nullable-int",
};
const SUBSCRIPTION_BOOL = ["is_muted", "pin_to_top", "desktop_notifications", "audible_notifications", "push_notifications", "email_notifications", "wildcard_mentions_notify"];

function valueFor(table: Record<string, Shape | "nullable-int" | null>) {
  return (v: Record<string, any>, at: string, out: string[]) => {
    if (!(v.property in table)) return;
    const s = table[v.property];
    if (s === null || (s === "nullable-int" && v.value === null)) {
      if (s === null && v.value !== null && typeof v.value !== "boolean") out.push(`${at}.value: expected bool?`);
      return;
    }
    const shape = s === "nullable-int" ? int : s;
    if (v.value === null || v.value === undefined) out.push(`${at}.value: missing for ${v.property}`);
    else shape!.check(v.value, `${at}.value`, out);
  };
}

/** UpdateMessageMoveData.tryParseFromJson: a move needs propagate_mode; a content edit must not carry one. */
function moveData(v: Record<string, any>, at: string, out: string[]) {
  const newStream = v.new_stream_id ?? v.stream_id;
  const newTopic = v.subject ?? v.orig_subject;
  const moved = newStream !== v.stream_id || newTopic !== v.orig_subject;
  if (!moved) {
    if (v.propagate_mode != null) out.push(`${at}.propagate_mode: present but no new channel or topic`);
    return;
  }
  if (!Number.isInteger(v.stream_id)) out.push(`${at}.stream_id: missing on a move`);
  if (typeof v.orig_subject !== "string") out.push(`${at}.orig_subject: missing on a move`);
  if (!["change_one", "change_later", "change_all"].includes(v.propagate_mode)) out.push(`${at}.propagate_mode: missing or unknown on a move`);
}

const MESSAGE_FLAG = oneOf("read", "starred", "collapsed", "mentioned", "topic_wildcard_mentioned", "stream_wildcard_mentioned", "wildcard_mentioned", "has_alert_word", "historical");

const EVENTS: Record<string, Shape | Record<string, Shape>> = {
  realm_emoji: {
    add: ev("RealmEmojiAddEvent", { emoji: RealmEmojiItem }),
    update_one: ev("RealmEmojiUpdateOneEvent", { emoji_id: str, data: obj("RealmEmojiUpdateData", { deactivated: optional(bool) }) }),
    update: ev("RealmEmojiUpdateEvent", { realm_emoji: map(RealmEmojiItem) }),
  },
  alert_words: ev("AlertWordsEvent", { alert_words: list(str) }),
  user_settings: { update: ev("UserSettingsUpdateEvent", { property: optional(str) }, valueFor(USER_SETTING_VALUE)) },
  custom_profile_fields: ev("CustomProfileFieldsEvent", { fields: list(CustomProfileField) }),
  user_group: {
    add: ev("UserGroupAddEvent", { group: UserGroup }),
    update: ev("UserGroupUpdateEvent", { group_id: int, data: obj("UserGroupUpdateData", { name: optional(str), description: optional(str), deactivated: optional(bool) }) }),
    add_members: ev("UserGroupAddMembersEvent", { group_id: int, user_ids: ids }),
    remove_members: ev("UserGroupRemoveMembersEvent", { group_id: int, user_ids: ids }),
    add_subgroups: ev("UserGroupAddSubgroupsEvent", { group_id: int, direct_subgroup_ids: ids }),
    remove_subgroups: ev("UserGroupRemoveSubgroupsEvent", { group_id: int, direct_subgroup_ids: ids }),
    remove: ev("UserGroupRemoveEvent", { group_id: int }),
  },
  realm_user: {
    add: ev("RealmUserAddEvent", { person: userShape(true) }),
    remove: ev("RealmUserRemoveEvent", { person: obj("RealmUserRemoveEvent.person", { user_id: int }) }),
    update: ev("RealmUserUpdateEvent", {
      person: obj("RealmUserUpdateEvent._readFromPerson", {
        user_id: int,
        full_name: optional(str),
        avatar_url: optional(str),
        avatar_version: optional(int),
        timezone: optional(str),
        bot_owner_id: optional(int),
        role: optional(anyValue),
        delivery_email: optional(str),
        custom_profile_field: optional(obj("RealmUserUpdateCustomProfileField", { id: int, value: optional(str), rendered_value: optional(str) })),
        new_email: optional(str),
        is_active: optional(bool),
      }),
    }),
  },
  saved_snippets: {
    add: ev("SavedSnippetsAddEvent", { saved_snippet: SavedSnippet }),
    update: ev("SavedSnippetsUpdateEvent", { saved_snippet: SavedSnippet }),
    remove: ev("SavedSnippetsRemoveEvent", { saved_snippet_id: int }),
  },
  stream: {
    create: ev("ChannelCreateEvent", { streams: list(ZulipStream) }),
    // ChannelDeleteEvent._readChannelIds: stream_ids, else the stream_id of each of streams
    delete: ev("ChannelDeleteEvent", { stream_ids: optional(ids) }, (v, at, out) => {
      if (!Array.isArray(v.stream_ids) && !(Array.isArray(v.streams) && v.streams.every((s: any) => Number.isInteger(s?.stream_id)))) out.push(`${at}.stream_ids: missing`);
    }),
    update: ev(
      "ChannelUpdateEvent",
      { stream_id: int, name: str, property: optional(str), rendered_description: optional(str), history_public_to_subscribers: optional(bool), is_web_public: optional(bool) },
      valueFor(CHANNEL_VALUE),
    ),
  },
  subscription: {
    add: ev("SubscriptionAddEvent", { subscriptions: list(Subscription) }),
    remove: ev("SubscriptionRemoveEvent", { subscriptions: list(obj("SubscriptionRemoveEvent._readChannelIds", { stream_id: int })) }),
    update: ev("SubscriptionUpdateEvent", { stream_id: int, property: anyValue }, (v, at, out) => {
      if (v.property === "color") color.check(v.value, `${at}.value`, out);
      else if (SUBSCRIPTION_BOOL.includes(v.property)) bool.check(v.value, `${at}.value`, out);
    }),
    peer_add: ev("SubscriptionPeerAddEvent", { stream_ids: ids, user_ids: ids }),
    peer_remove: ev("SubscriptionPeerRemoveEvent", { stream_ids: ids, user_ids: ids }),
  },
  channel_folder: {
    add: ev("ChannelFolderAddEvent", { channel_folder: ChannelFolder }),
    reorder: ev("ChannelFolderReorderEvent", { order: ids }),
    update: ev("ChannelFolderUpdateEvent", {
      channel_folder_id: int,
      data: obj("ChannelFolderChange", { name: optional(str), description: optional(str), rendered_description: optional(str), is_archived: optional(bool) }),
    }),
  },
  user_status: ev("UserStatusEvent", { user_id: int }, (v, at, out) => UserStatusChange.check(v, at, out)),
  user_topic: ev("UserTopicEvent", { stream_id: int, topic_name: str, last_updated: int, visibility_policy: oneOf(0, 1, 2, 3) }),
  muted_users: ev("MutedUsersEvent", { muted_users: list(MutedUserItem) }),
  // MessageEvent._readMessageValue merges the event's flags into the message
  message: ev("MessageEvent", { message: anyValue, flags: list(str), local_message_id: optional(str) }, (v, at, out) => Message.check({ ...v.message, flags: v.flags }, `${at}.message`, out)),
  update_message: ev(
    "UpdateMessageEvent",
    {
      user_id: optional(int),
      rendering_only: bool,
      message_id: int,
      message_ids: ids,
      flags: list(MESSAGE_FLAG), // $enumDecode without an unknown fallback
      edit_timestamp: int,
      stream_id: optional(int),
      new_stream_id: optional(int),
      orig_subject: optional(str),
      subject: optional(str),
      propagate_mode: optional(oneOf("change_one", "change_later", "change_all")),
      orig_content: optional(str),
      orig_rendered_content: optional(str),
      content: optional(str),
      rendered_content: optional(str),
      is_me_message: optional(bool),
    },
    moveData,
  ),
  delete_message: ev("DeleteMessageEvent", { message_ids: ids, message_type: messageType, stream_id: optional(int), topic: optional(str) }, (v, at, out) => {
    if (v.message_type === "stream") topicOrRecipients("")(v, at, out);
  }),
  update_message_flags: {
    add: ev("UpdateMessageFlagsAddEvent", { flag: anyValue, messages: ids, all: bool }),
    remove: ev(
      "UpdateMessageFlagsRemoveEvent",
      {
        flag: anyValue,
        messages: ids,
        message_details: optional(
          map(
            obj("UpdateMessageFlagsMessageDetail", { type: messageType, mentioned: optional(bool), user_ids: optional(ids), stream_id: optional(int), topic: optional(str) }, topicOrRecipients("user_ids")),
            { intKeys: true },
          ),
        ),
      },
      (v, at, out) => {
        if (v.flag === "read" && (v.message_details === null || typeof v.message_details !== "object")) out.push(`${at}.message_details: needed when flag is read`);
      },
    ),
  },
  // Poll.handleSubmessageEvent parses the content as a poll event (a bad one is logged and skipped)
  submessage: ev("SubmessageEvent", { msg_type: anyValue, content: str, message_id: int, sender_id: int, submessage_id: int }),
  typing: ev(
    "TypingEvent",
    {
      op: oneOf("start", "stop"),
      message_type: messageType,
      sender: obj("TypingEvent._readSenderId", { user_id: int }),
      recipients: optional(list(obj("TypingEvent._recipientIdsFromJson", { user_id: int }))),
      stream_id: optional(int),
      topic: optional(str),
    },
    topicOrRecipients("recipients"),
  ),
  presence: ev("PresenceEvent", {
    user_id: int,
    server_timestamp: num,
    presence: map(obj("PerClientPresence", { client: str, status: oneOf("active", "idle"), timestamp: int, pushable: bool })),
  }),
  reaction: ev("ReactionEvent", {
    op: oneOf("add", "remove"),
    emoji_name: str,
    emoji_code: str,
    reaction_type: oneOf("unicode_emoji", "realm_emoji", "zulip_extra_emoji"),
    user_id: int,
    message_id: int,
  }),
  heartbeat: ev("HeartbeatEvent", {}),
};

/** Event.fromJson: `type` (and `op` where it switches on it); types it does not know become UnexpectedEvent (`id` as int). */
export const Event: Shape = either("Event", (v: any) => {
  if (typeof v?.type !== "string") return "Event.fromJson: type is not a String";
  const entry = EVENTS[v.type];
  if (!entry) return obj("UnexpectedEvent", { id: int });
  if ("check" in entry) return entry as Shape;
  if (typeof v.op !== "string") return `Event.fromJson: ${v.type} op is not a String`;
  return (entry as Record<string, Shape>)[v.op] ?? obj("UnexpectedEvent", { id: int });
});

/** events.dart GetEventsResult (getEvents). */
export const GetEventsResult = obj("GetEventsResult", { events: list(Event), queue_id: optional(str) });

/** The event types (and ops) the app decodes, to check a test covers them. */
export const DECODED_EVENTS = Object.entries(EVENTS).flatMap(([type, e]) => ("check" in e ? [type] : Object.keys(e).map((op) => `${type}/${op}`)));
