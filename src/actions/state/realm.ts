import { realmOf, type App } from "../../app";
import { emojiDataPath } from "../../domain/emoji";
import type { UserRow } from "../../store/users";
import { serverThumbnailFormats } from "../../uploads/thumbnails";
import { realmGroupSettingsForApi } from "../realm";
import { botDomain } from "../bots";
import { legacyRealmPolicies } from "../../domain/realm-settings";
import { realmImageFields } from "../../domain/realm-images";
import type { SystemGroupName } from "../../domain/roles";
import { vapidKeys } from "../../notify/webpush/vapid";

/** Zulip's DEFAULT_EXTERNAL_ACCOUNTS: the account types an "external account" profile field may name. */
const DEFAULT_EXTERNAL_ACCOUNTS = {
  github: { name: "GitHub", text: "GitHub", hint: "Enter your GitHub username", url_pattern: "https://github.com/%(username)s" },
  twitter: { name: "Twitter", text: "Twitter", hint: "Enter your Twitter username", url_pattern: "https://twitter.com/%(username)s" },
};

/**
 * Settings Parley keeps for itself (or that Zulip 10 no longer reports); clients learn them otherwise
 * (e.g. public access through GET /users answering without credentials).
 */
const NOT_IN_REGISTER = new Set([
  "bot_creation_policy",
  "email_address_visibility",
  "allow_public_access",
  "web_public_streams_enabled",
  "default_invite_expires_in_minutes",
  "icon_version",
  "logo_version",
  "night_logo_version",
]);

/** Zulip's Realm.GIPHY_RATING_OPTIONS (realm_giphy_rating holds one of the ids). */
const GIPHY_RATING_OPTIONS = {
  disabled: { name: "GIPHY integration disabled", id: 0 },
  y: { name: "Allow GIFs rated Y (Very young audience)", id: 1 },
  g: { name: "Allow GIFs rated G (General audience)", id: 2 },
  pg: { name: "Allow GIFs rated PG (Parental guidance)", id: 3 },
  "pg-13": { name: "Allow GIFs rated PG-13 (Parental guidance - under 13)", id: 4 },
  r: { name: "Allow GIFs rated R (Restricted)", id: 5 },
};

/** When this server process started (Zulip's SERVER_GENERATION: clients notice a restart by it). */
const SERVER_GENERATION = Math.floor(Date.now() / 1000);

/** `realm` initial state: every realm_* setting, the server limits and constants. */
export async function realmState(app: App, _me: UserRow) {
  const realm = realmOf(app);
  const groupNames = new Map([...app.systemGroups].map(([name, id]) => [id, name as SystemGroupName]));
  const limits = app.config.limits;
  const settings: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(realm.settings)) if (!NOT_IN_REGISTER.has(k)) settings[`realm_${k}`] = v;
  // group settings as the API shows them: a group id, or {direct_members, direct_subgroups}
  for (const [k, v] of Object.entries(await realmGroupSettingsForApi(app))) settings[`realm_${k}`] = v;
  const url = app.config.server.external_url;
  return {
    ...settings,
    ...legacyRealmPolicies((k) => (typeof realm.settings[k] === "number" ? groupNames.get(realm.settings[k] as number) : undefined)),
    realm_name: realm.name,
    realm_description: realm.description,
    realm_date_created: Math.floor(realm.date_created),
    realm_url: url,
    realm_uri: url,
    ...realmImageFields(realm),
    realm_is_zephyr_mirror_realm: false,
    realm_push_notifications_enabled: Boolean(app.config.push.relay_url),
    realm_push_notifications_enabled_end_timestamp: null,
    web_push_vapid_public_key: vapidKeys(app.config.data_dir).publicKey,
    realm_available_video_chat_providers: {},
    realm_authentication_methods: { Email: { enabled: true, available: true } },
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    realm_bot_domain: botDomain(app),
    settings_send_digest_emails: false,
    server_generation: SERVER_GENERATION,
    giphy_rating_options: GIPHY_RATING_OPTIONS,
    max_message_length: limits.max_message_length,
    max_topic_length: limits.max_topic_length,
    max_stream_name_length: limits.max_stream_name_length,
    max_stream_description_length: limits.max_stream_description_length,
    max_file_upload_size_mib: limits.max_file_upload_size_mib,
    max_avatar_file_size_mib: 5,
    max_icon_file_size_mib: 5,
    max_logo_file_size_mib: 5,
    max_channel_folder_name_length: 60,
    max_channel_folder_description_length: 1024,
    event_queue_longpoll_timeout_seconds: 90,
    server_presence_ping_interval_seconds: 60,
    server_presence_offline_threshold_seconds: 140,
    server_typing_started_expiry_period_milliseconds: 45000,
    server_typing_stopped_wait_period_milliseconds: 12000,
    server_typing_started_wait_period_milliseconds: 10000,
    // Zulip's server-wide WEB_PUBLIC_STREAMS_ENABLED is this organization's web_public_streams_enabled here
    server_web_public_streams_enabled: realm.settings.web_public_streams_enabled !== false,
    server_thumbnail_formats: serverThumbnailFormats(),
    realm_default_external_accounts: DEFAULT_EXTERNAL_ACCOUNTS,
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    // Absolute, as Zulip sends it (its STATIC_URL is absolute): zulip-flutter fetches it as it is.
    server_emoji_data_url: `${url}${emojiDataPath()}`,
    server_jitsi_server_url: null,
    server_can_summarize_topics: false,
    server_min_deactivated_realm_deletion_days: null,
    server_max_deactivated_realm_deletion_days: null,
    server_supported_permission_settings: {},
    server_timestamp: app.clock.now() / 1000,
    password_min_length: 6,
    password_max_length: 100,
    password_min_guesses: 0,
    zulip_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: "",
    realm_upload_quota_mib: realm.settings.upload_quota_mib,
    development_environment: false,
    demo_organization_scheduled_deletion_date: undefined,
  };
}
