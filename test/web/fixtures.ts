/**
 * A small client state for the web app's pure tests: three channels (two subscribed), a few people
 * (4 is the reader; 7 a guest, 8 an administrator, 9 a moderator), Zulip's system groups and default
 * organization permissions.
 */
import type { Message, State } from "../../assets/app/state/types";

export function sampleState(): State {
  const user = (user_id: number, full_name: string) => ({ user_id, full_name, email: `${user_id}@example.com`, is_bot: false, is_active: true, role: 400, timezone: "", avatar_url: null });
  const channel = (stream_id: number, name: string) => ({ stream_id, name, description: "", invite_only: false, is_web_public: false, is_archived: false });
  return {
    me: 4,
    realm: {
      name: "Elsinore",
      description: "",
      icon_url: "",
      max_message_length: 10000,
      max_topic_length: 60,
      mandatory_topics: false,
      empty_topic_display_name: "general chat",
      presence_disabled: false,
      ping_interval_seconds: 60,
      offline_threshold_seconds: 140,
      enable_guest_user_indicator: true,
      max_file_upload_size_mib: 25,
      emoji_data_url: "/static/generated/emoji/emoji_api.json",
      typing_started_wait_ms: 10_000,
      typing_stopped_wait_ms: 12_000,
      typing_expiry_ms: 45_000,
      allow_message_editing: true,
      message_content_edit_limit_seconds: 600,
      message_content_delete_limit_seconds: null,
      move_messages_within_stream_limit_seconds: 604800,
      move_messages_between_streams_limit_seconds: 604800,
      message_edit_history_visibility_policy: "all",
      can_delete_any_message_group: 11,
      can_delete_own_message_group: 2,
      can_move_messages_between_channels_group: 3,
      can_move_messages_between_topics_group: 2,
      can_resolve_topics_group: 2,
      create_multiuse_invite_group: 11,
      notification_sounds: ["chime", "ding", "zulip"],
    },
    users: {
      4: user(4, "King Hamlet"),
      5: user(5, "Othello, the Moor of Venice"),
      6: user(6, "Cordelia"),
      7: { ...user(7, "Polonius"), role: 600 },
      8: { ...user(8, "Iago"), role: 200 },
      9: { ...user(9, "Shiva"), role: 300 },
    },
    channels: { 12: channel(12, "general"), 13: channel(13, "design team"), 14: channel(14, "v1.0 (old)") },
    subscriptions: {
      12: { ...channel(12, "general"), color: "#76ce90", is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null, wildcard_mentions_notify: null },
      13: { ...channel(13, "design team"), color: "#c2726a", is_muted: true, pin_to_top: false, desktop_notifications: null, audible_notifications: null, wildcard_mentions_notify: null },
    },
    unread: { messages: {}, mentions: [] },
    starred: [],
    recent_dms: {},
    user_topics: {},
    presence: {},
    user_status: {},
    muted_users: [],
    groups: {
      2: { id: 2, is_system_group: true, name: "role:everyone", members: [7], direct_subgroup_ids: [3] },
      3: { id: 3, is_system_group: true, name: "role:members", members: [4, 5, 6], direct_subgroup_ids: [10] },
      10: { id: 10, is_system_group: true, name: "role:moderators", members: [9], direct_subgroup_ids: [11] },
      11: { id: 11, is_system_group: true, name: "role:administrators", members: [8], direct_subgroup_ids: [] },
      12: { id: 12, is_system_group: true, name: "role:nobody", members: [], direct_subgroup_ids: [] },
    },
    settings: {
      twenty_four_hour_time: false,
      color_scheme: 1,
      enter_sends: false,
      web_mark_read_on_scroll_policy: 1,
      web_home_view: "inbox",
      starred_message_counts: true,
      presence_enabled: true,
      enable_drafts_synchronization: true,
      send_private_typing_notifications: true,
      send_stream_typing_notifications: true,
      enable_desktop_notifications: true,
      enable_sounds: true,
      notification_sound: "zulip",
      wildcard_mentions_notify: true,
      enable_followed_topic_desktop_notifications: true,
      enable_followed_topic_audible_notifications: true,
      enable_followed_topic_wildcard_mentions_notify: true,
      enable_stream_desktop_notifications: false,
      enable_stream_audible_notifications: false,
      pm_content_in_desktop_notifications: true,
    },
    messages: {},
    lists: {},
    topics: {},
    topics_outdated: {},
    realm_emoji: {},
    drafts: {},
    scheduled: {},
  };
}

/** A channel message from Othello (user 5) in #general (12) › lunch, as the server sends it; `over` changes any field. */
export function sampleMessage(over: Partial<Message> = {}): Message {
  return {
    id: 42,
    sender_id: 5,
    sender_full_name: "Othello, the Moor of Venice",
    sender_email: "5@example.com",
    timestamp: 1_700_000_000,
    type: "stream",
    stream_id: 12,
    subject: "lunch",
    display_recipient: "general",
    content: "<p>hi</p>",
    flags: [],
    reactions: [],
    submessages: [],
    is_me_message: false,
    ...over,
  };
}
