import type { GroupSettingConfig } from "./group-setting";
import type { SystemGroupName } from "./roles";

/**
 * Organization settings with Zulip's defaults. Group settings name a system group here; at creation
 * they are stored as that group's id (src/actions/organization.ts).
 */
export const REALM_GROUP_SETTING_DEFAULTS: Record<string, SystemGroupName> = {
  can_access_all_users_group: "role:everyone",
  can_add_custom_emoji_group: "role:members",
  can_add_subscribers_group: "role:members",
  can_create_bots_group: "role:members",
  can_create_groups: "role:members",
  can_create_private_channel_group: "role:members",
  can_create_public_channel_group: "role:members",
  can_create_web_public_channel_group: "role:owners",
  can_create_write_only_bots_group: "role:members",
  can_delete_any_message_group: "role:administrators",
  can_delete_own_message_group: "role:everyone",
  can_invite_users_group: "role:members",
  can_manage_all_groups: "role:owners",
  can_manage_billing_group: "role:administrators",
  can_mention_many_users_group: "role:administrators",
  can_move_messages_between_channels_group: "role:members",
  can_move_messages_between_topics_group: "role:everyone",
  can_resolve_topics_group: "role:everyone",
  can_set_delete_message_policy_group: "role:moderators",
  can_set_topics_policy_group: "role:moderators",
  can_summarize_topics_group: "role:everyone",
  create_multiuse_invite_group: "role:administrators",
  direct_message_initiator_group: "role:everyone",
  direct_message_permission_group: "role:everyone",
};

export const REALM_PROPERTY_DEFAULTS = {
  allow_edit_history: true,
  allow_message_editing: true,
  avatar_changes_disabled: false,
  bot_creation_policy: 1,
  default_code_block_language: "",
  default_language: "en",
  digest_emails_enabled: false,
  email_address_visibility: 1,
  emails_restricted_to_domains: false,
  enable_guest_user_indicator: true,
  enable_read_receipts: false,
  enable_spectator_access: false,
  giphy_rating: 2,
  icon_source: "G",
  // an uploaded icon's and logos' versions (their URLs' ?version=); not /register fields
  icon_version: 1,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  invite_required: true,
  jitsi_server_url: null as string | null,
  logo_source: "D",
  logo_version: 1,
  night_logo_source: "D",
  night_logo_version: 1,
  mandatory_topics: false,
  message_content_allowed_in_email_notifications: true,
  message_content_delete_limit_seconds: null as number | null,
  message_content_edit_limit_seconds: 600 as number | null,
  message_retention_days: -1,
  move_messages_between_streams_limit_seconds: 604800 as number | null,
  move_messages_within_stream_limit_seconds: 604800 as number | null,
  name_changes_disabled: false,
  new_stream_announcements_stream_id: -1,
  org_type: 0,
  plan_type: 1,
  presence_disabled: false,
  require_unique_names: false,
  send_welcome_emails: true,
  signup_announcements_stream_id: -1,
  topics_policy: "allow_empty_topic",
  upload_quota_mib: null as number | null,
  video_chat_provider: 1,
  waiting_period_threshold: 0,
  want_advertise_in_communities_directory: false,
  zulip_update_announcements_stream_id: -1,
  empty_topic_display_name: "general chat",
  // public access: unauthenticated GET /users etc. (spec: "public-access option")
  allow_public_access: false,
  web_public_streams_enabled: true,
  default_invite_expires_in_minutes: 14400,
  welcome_message_custom_text: "",
  disallow_disposable_email_addresses: true,
  email_changes_disabled: false,
  enable_guest_user_dm_warning: true,
  digest_weekday: 1,
  moderation_request_channel_id: -1,
  message_edit_history_visibility_policy: "all",
};

export type RealmSettings = typeof REALM_PROPERTY_DEFAULTS & Record<keyof typeof REALM_GROUP_SETTING_DEFAULTS, number | { direct_members: number[]; direct_subgroups: number[] }> & Record<string, unknown>;

/** What each organization group setting accepts (Zulip's Realm.REALM_PERMISSION_GROUP_SETTINGS). */
export const REALM_GROUP_SETTING_CONFIGS: Record<keyof typeof REALM_GROUP_SETTING_DEFAULTS, GroupSettingConfig> = {
  can_access_all_users_group: { requireSystemGroup: true, allowNobody: false, allowEveryone: true, allowedSystemGroups: ["role:everyone", "role:members"] },
  can_add_custom_emoji_group: { allowEveryone: false },
  can_add_subscribers_group: { allowEveryone: false },
  can_create_bots_group: { allowEveryone: false },
  can_create_groups: { allowEveryone: false },
  can_create_private_channel_group: { allowEveryone: false },
  can_create_public_channel_group: { allowEveryone: false },
  can_create_web_public_channel_group: {
    requireSystemGroup: true,
    allowEveryone: false,
    allowedSystemGroups: ["role:moderators", "role:administrators", "role:owners", "role:nobody"],
  },
  can_create_write_only_bots_group: { allowEveryone: false },
  can_delete_any_message_group: { allowEveryone: false },
  can_delete_own_message_group: { allowEveryone: true },
  can_invite_users_group: { allowEveryone: false },
  can_manage_all_groups: { allowNobody: false, allowEveryone: false },
  can_manage_billing_group: { allowNobody: false, allowEveryone: false },
  can_mention_many_users_group: { allowEveryone: true },
  can_move_messages_between_channels_group: { allowEveryone: false },
  can_move_messages_between_topics_group: { allowEveryone: true },
  can_resolve_topics_group: { allowEveryone: true },
  can_set_delete_message_policy_group: { allowEveryone: false },
  can_set_topics_policy_group: { allowEveryone: true },
  can_summarize_topics_group: { allowEveryone: true },
  create_multiuse_invite_group: { allowEveryone: false },
  direct_message_initiator_group: { allowEveryone: true },
  direct_message_permission_group: { allowEveryone: true },
};

/** Settings only organization owners may change (Zulip's update_realm). */
export const OWNER_ONLY_REALM_SETTINGS = new Set([
  "invite_required",
  "create_multiuse_invite_group",
  "can_create_groups",
  "can_invite_users_group",
  "can_manage_all_groups",
  "emails_restricted_to_domains",
  "disallow_disposable_email_addresses",
  "waiting_period_threshold",
  "message_retention_days",
]);

/** Topic policies an organization may have (channels add "inherit" and "empty_topic_only"). */
export const REALM_TOPICS_POLICIES = ["allow_empty_topic", "disable_empty_topic"] as const;

export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/** Settings sent as realm update_dict events rather than realm update (Zulip's message edit settings). */
export const UPDATE_DICT_PROPERTIES = new Set(["allow_message_editing", "message_content_edit_limit_seconds"]);

/** Zulip's SYSTEM_GROUPS_ENUM_MAP limited to CommonPolicyEnum (members, administrators, full members, moderators). */
const COMMON_POLICY: Partial<Record<SystemGroupName, number>> = { "role:members": 1, "role:administrators": 2, "role:fullmembers": 3, "role:moderators": 4 };
/** ... limited to CreateWebPublicStreamPolicyEnum. */
const WEB_PUBLIC_CHANNEL_POLICY: Partial<Record<SystemGroupName, number>> = { "role:administrators": 2, "role:moderators": 4, "role:nobody": 6, "role:owners": 7 };
/** Zulip's SYSTEM_GROUPS_TO_WILDCARD_MENTION_POLICY_MAP. */
const WILDCARD_MENTION_POLICY: Partial<Record<SystemGroupName, number>> = {
  "role:everyone": 1,
  "role:members": 2,
  "role:fullmembers": 3,
  "role:administrators": 5,
  "role:nobody": 6,
  "role:moderators": 7,
};

/**
 * The deprecated *_policy fields /register still carries (Zulip 10 sends them; zulip-flutter's
 * InitialSnapshot requires realm_wildcard_mention_policy): Zulip's
 * get_corresponding_policy_value_for_group_setting, i.e. the old enum value of the group setting's
 * system group, or the value for the largest group when the setting is any other group.
 * `systemGroupOf` names the system group a setting holds (undefined: not a system group).
 */
export function legacyRealmPolicies(systemGroupOf: (setting: keyof typeof REALM_GROUP_SETTING_DEFAULTS) => SystemGroupName | undefined) {
  const pick = (setting: keyof typeof REALM_GROUP_SETTING_DEFAULTS, map: Partial<Record<SystemGroupName, number>>, fallback: number) => {
    const name = systemGroupOf(setting);
    return (name && map[name]) ?? fallback;
  };
  return {
    realm_create_public_stream_policy: pick("can_create_public_channel_group", COMMON_POLICY, 1),
    realm_create_private_stream_policy: pick("can_create_private_channel_group", COMMON_POLICY, 1),
    realm_create_web_public_stream_policy: pick("can_create_web_public_channel_group", WEB_PUBLIC_CHANNEL_POLICY, 4),
    realm_wildcard_mention_policy: pick("can_mention_many_users_group", WILDCARD_MENTION_POLICY, 1),
  };
}

/** The organization's announcement channels (a channel id, or -1 for none). */
export const ANNOUNCEMENT_SETTINGS = ["new_stream_announcements_stream_id", "signup_announcements_stream_id", "zulip_update_announcements_stream_id"] as const;
