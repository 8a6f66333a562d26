import { Elysia, t, type TSchema } from "elysia";
import type { App } from "../app";
import { LIMIT_SETTINGS, REALM_GROUP_SETTING_NAMES, updateRealmSettings } from "../actions/realm";
import { GroupSettingUpdateSchema } from "../domain/group-setting";
import { ANNOUNCEMENT_SETTINGS, REALM_TOPICS_POLICIES } from "../domain/realm-settings";
import { zulip } from "../http/plugin";

/** The on/off settings PATCH /realm takes. */
const BOOLEAN_SETTINGS = [
  "allow_edit_history",
  "allow_message_editing",
  "allow_public_access",
  "avatar_changes_disabled",
  "digest_emails_enabled",
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
  "mandatory_topics",
  "message_content_allowed_in_email_notifications",
  "name_changes_disabled",
  "require_unique_names",
  "send_welcome_emails",
  "want_advertise_in_communities_directory",
  "web_public_streams_enabled",
];

/** Every PATCH /realm parameter and its wire type (exported for the test that keeps the web app's lists in step). */
export const RealmArgs = t.Object({
  name: t.Optional(t.String()),
  description: t.Optional(t.String()),
  default_language: t.Optional(t.String()),
  default_code_block_language: t.Optional(t.String({ maxLength: 50 })),
  empty_topic_display_name: t.Optional(t.String()),
  welcome_message_custom_text: t.Optional(t.String({ maxLength: 8000 })),
  topics_policy: t.Optional(t.Union(REALM_TOPICS_POLICIES.map((p) => t.Literal(p)))),
  message_edit_history_visibility_policy: t.Optional(t.Union([t.Literal("all"), t.Literal("moves"), t.Literal("none")])),
  waiting_period_threshold: t.Optional(t.Integer({ minimum: 0 })),
  message_retention_days: t.Optional(t.Union([t.Integer(), t.String()])),
  video_chat_provider: t.Optional(t.Integer()),
  giphy_rating: t.Optional(t.Integer()),
  org_type: t.Optional(t.Integer()),
  digest_weekday: t.Optional(t.Integer({ minimum: 0, maximum: 6 })),
  ...Object.fromEntries(ANNOUNCEMENT_SETTINGS.map((k) => [k, t.Optional(t.Integer())])),
  ...Object.fromEntries(BOOLEAN_SETTINGS.map((k) => [k, t.Optional(t.Boolean())])),
  ...Object.fromEntries(LIMIT_SETTINGS.map((k) => [k, t.Optional(t.Union([t.Integer(), t.String()]))])),
  ...Object.fromEntries(REALM_GROUP_SETTING_NAMES.map((k) => [k, t.Optional(GroupSettingUpdateSchema)])),
} as Record<string, TSchema>);

export const realmRoutes = (app: App) =>
  new Elysia().use(zulip(app)).patch(
    "/realm",
    async ({ args, me }) => {
      const p = args.read(RealmArgs) as Record<string, unknown>;
      return args.success(await updateRealmSettings(app, me, p));
    },
    { auth: true },
  );
