/** A small client state for the web app's pure tests: two channels, a few people. */
import type { State } from "../../assets/app/state/types";

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
    },
    users: { 4: user(4, "King Hamlet"), 5: user(5, "Othello, the Moor of Venice"), 6: user(6, "Cordelia") },
    channels: { 12: channel(12, "general"), 13: channel(13, "design team"), 14: channel(14, "v1.0 (old)") },
    subscriptions: {
      12: { ...channel(12, "general"), color: "#76ce90", is_muted: false, pin_to_top: false },
      13: { ...channel(13, "design team"), color: "#c2726a", is_muted: true, pin_to_top: false },
    },
    unread: { messages: {}, mentions: [] },
    starred: [],
    recent_dms: {},
    user_topics: {},
    presence: {},
    user_status: {},
    muted_users: [],
    groups: {},
    settings: { twenty_four_hour_time: false, color_scheme: 1, enter_sends: false, web_mark_read_on_scroll_policy: 1, web_home_view: "inbox", starred_message_counts: true, presence_enabled: true, enable_drafts_synchronization: true, send_private_typing_notifications: true, send_stream_typing_notifications: true },
    messages: {},
    lists: {},
    topics: {},
    realm_emoji: {},
    drafts: {},
    scheduled: {},
  };
}
