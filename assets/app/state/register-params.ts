/**
 * What the app asks of POST /register. Every event type is delivered (event_types is left out), so a
 * feature added later only has to handle its events; the initial state fetched is limited to what the
 * app shows, to keep the first load small. A feature that needs more adds its type here.
 */
export const FETCH_EVENT_TYPES = [
  "realm",
  "realm_user",
  "realm_user_groups",
  "subscription",
  "message",
  "update_message_flags",
  "starred_messages",
  "recent_private_conversations",
  "presence",
  "user_status",
  "user_topic",
  "user_settings",
  "muted_users",
  "realm_emoji",
  "drafts",
  "scheduled_messages",
  // the settings screens: bots, default channels, channel folders, custom profile fields
  "realm_bot",
  "default_streams",
  "channel_folders",
  "custom_profile_fields",
  // personal settings: alert words, saved snippets
  "alert_words",
  "saved_snippets",
  // the administration screens (state/org.ts): settings, new users' defaults, linkifiers, playgrounds
  "realm_user_settings_defaults",
  "realm_linkifiers",
  "realm_playgrounds",
  "default_stream_groups",
];

export const CLIENT_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: true,
  user_settings_object: true,
  linkifier_url_template: true,
  include_deactivated_groups: true,
  archived_channels: true,
  empty_topic_name: true,
  simplified_presence_events: true,
};

export const REGISTER_PARAMS = {
  apply_markdown: true,
  // each channel's subscribers (the counts in "Browse channels"), kept current by peer_add / peer_remove
  include_subscribers: true,
  client_gravatar: false,
  slim_presence: true,
  client_capabilities: CLIENT_CAPABILITIES,
  fetch_event_types: FETCH_EVENT_TYPES,
};
