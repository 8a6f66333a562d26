// Parley's rows as Zulip's organization export writes them (zerver/lib/export.py): one JSON object per
// model row, foreign keys as plain ids under the field's name, timestamps as UNIX seconds, so that
// Zulip's `manage.py import` and Parley's own `import zulip` read them.
import { createHash } from "node:crypto";
import { REALM_GROUP_SETTING_DEFAULTS, REALM_PROPERTY_DEFAULTS } from "../domain/realm-settings";
import { parseStoredSettings, settingsOver } from "../domain/user-settings";
import { CHANNEL_TOPICS_POLICY, EDIT_HISTORY_POLICY, TOPICS_POLICY } from "../domain/zulip-export";

export type Row = Record<string, any>;
export type Tables = Record<string, Row[]>;

const bool = (v: unknown) => Boolean(v);
const nullableBool = (v: unknown) => (v === null || v === undefined ? null : Boolean(v));
const json = (s: string | null | undefined): Row => {
  try {
    const v = JSON.parse(s || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
};

/** Zulip's foreign keys are named without `_id` (model_to_dict): the realm's announcement channels. */
const ANNOUNCEMENTS = ["new_stream_announcements_stream", "signup_announcements_stream", "zulip_update_announcements_stream"];

/**
 * The organization settings Zulip's Realm model has (its property_types, Zulip 10): only these go into
 * zerver_realm, since Zulip's importer builds the row with Realm(**fields) and refuses unknown names.
 * Parley's other settings travel beside it, in realm.json's `parley_realm_settings`.
 */
const ZULIP_REALM_PROPERTIES = new Set([
  "allow_message_editing", "avatar_changes_disabled", "default_code_block_language", "default_language", "digest_emails_enabled",
  "digest_weekday", "disallow_disposable_email_addresses", "email_changes_disabled", "emails_restricted_to_domains",
  "enable_guest_user_dm_warning", "enable_guest_user_indicator", "enable_read_receipts", "enable_spectator_access", "giphy_rating",
  "inline_image_preview", "inline_url_embed_preview", "invite_required", "jitsi_server_url", "message_content_allowed_in_email_notifications",
  "message_content_edit_limit_seconds", "message_content_delete_limit_seconds", "move_messages_between_streams_limit_seconds",
  "move_messages_within_stream_limit_seconds", "message_retention_days", "name_changes_disabled", "require_unique_names",
  "send_channel_events_messages", "send_welcome_emails", "video_chat_provider", "waiting_period_threshold",
  "want_advertise_in_communities_directory", "welcome_message_custom_text", "icon_source", "logo_source",
]);

/** zerver_realm's row, and Parley's settings Zulip has no field for. */
export function realmRow(r: Row): { row: Row; parley: Row } {
  const settings = { ...REALM_PROPERTY_DEFAULTS, ...json(r.settings) } as Row;
  const row: Row = { id: r.id, string_id: r.string_id, name: r.name, description: r.description, date_created: r.date_created, deactivated: bool(r.deactivated) };
  const parley: Row = {};
  for (const [k, v] of Object.entries(settings)) {
    const bare = k.replace(/_id$/, "");
    if (ANNOUNCEMENTS.includes(bare)) row[bare] = v === -1 ? null : v;
    else if (k === "message_edit_history_visibility_policy" && typeof v === "string" && v in EDIT_HISTORY_POLICY) row[k] = EDIT_HISTORY_POLICY[v];
    else if (k === "topics_policy" && typeof v === "string" && v in TOPICS_POLICY) row[k] = TOPICS_POLICY[v];
    else if (ZULIP_REALM_PROPERTIES.has(k)) row[k] = v;
    else if (!(k in REALM_GROUP_SETTING_DEFAULTS)) parley[k] = v;
  }
  for (const k of Object.keys(REALM_GROUP_SETTING_DEFAULTS)) if (typeof settings[k] === "number") row[k] = settings[k];
  return { row, parley };
}

export function userRow(u: Row): Row {
  return {
    ...settingsOver(parseStoredSettings(u.settings)),
    id: u.id,
    realm: u.realm_id,
    email: u.email,
    delivery_email: u.delivery_email,
    full_name: u.full_name,
    role: u.role,
    is_active: bool(u.is_active),
    is_bot: bool(u.is_bot),
    bot_type: u.bot_type,
    bot_owner: u.bot_owner_id,
    date_joined: u.date_joined,
    timezone: u.timezone,
    avatar_source: u.avatar_source,
    avatar_version: u.avatar_version,
    is_mirror_dummy: false,
    can_create_users: bool(u.can_create_users),
    recipient: u.recipient_id,
    default_sending_stream: u.default_sending_stream_id,
    default_events_register_stream: u.default_events_register_stream_id,
    default_all_public_streams: bool(u.default_all_public_streams),
    tos_version: null,
    // Zulip's importer deletes these two Django fields from every row, so they must be present
    user_permissions: [],
    groups: [],
  };
}

export function streamRow(s: Row): Row {
  const out: Row = {
    id: s.id,
    realm: s.realm_id,
    name: s.name,
    description: s.description,
    rendered_description: s.rendered_description,
    invite_only: bool(s.invite_only),
    is_web_public: bool(s.is_web_public),
    history_public_to_subscribers: bool(s.history_public_to_subscribers),
    date_created: s.date_created,
    creator: s.creator_id,
    message_retention_days: s.message_retention_days,
    deactivated: bool(s.is_archived),
    recipient: s.recipient_id,
    first_message_id: s.first_message_id,
    topics_policy: CHANNEL_TOPICS_POLICY[s.topics_policy] ?? CHANNEL_TOPICS_POLICY.inherit,
  };
  for (const [k, v] of Object.entries(s)) if (k.startsWith("can_") && k.endsWith("_group")) out[k] = v;
  return out;
}

/** Subscriptions as Zulip keeps them: channels' (with settings), plus each person's own and direct-message groups'. */
export function subscriptionRows(t: Tables): Row[] {
  const out: Row[] = [];
  const active = new Map(t.users!.map((u) => [u.id as number, bool(u.is_active)]));
  const streamRecipient = new Map(t.streams!.map((s) => [s.id as number, s.recipient_id as number]));
  const base = (userId: number, recipient: number) => ({
    id: out.length + 1,
    user_profile: userId,
    recipient,
    active: true,
    is_user_active: active.get(userId) ?? true,
    color: "#c2c2c2",
    is_muted: false,
    pin_to_top: false,
    desktop_notifications: null,
    audible_notifications: null,
    push_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
  });
  for (const u of t.users!) if (u.recipient_id) out.push(base(u.id, u.recipient_id));
  for (const s of t.subscriptions!) {
    const recipient = streamRecipient.get(s.stream_id);
    if (!recipient) continue;
    out.push({
      ...base(s.user_id, recipient),
      active: bool(s.active),
      color: s.color,
      is_muted: bool(s.is_muted),
      pin_to_top: bool(s.pin_to_top),
      desktop_notifications: nullableBool(s.desktop_notifications),
      audible_notifications: nullableBool(s.audible_notifications),
      push_notifications: nullableBool(s.push_notifications),
      email_notifications: nullableBool(s.email_notifications),
      wildcard_mentions_notify: nullableBool(s.wildcard_mentions_notify),
    });
  }
  for (const g of t.direct_message_groups!) {
    for (const id of String(g.user_ids).split(",").map(Number)) if (g.recipient_id) out.push(base(id, g.recipient_id));
  }
  return out;
}

/** Zulip's huddle hash: SHA-1 of the sorted ids joined by commas. */
export const huddleRow = (g: Row): Row => ({
  id: g.id,
  huddle_hash: createHash("sha1").update(String(g.user_ids)).digest("hex"),
  group_size: String(g.user_ids).split(",").length,
  recipient: g.recipient_id,
});

/** User groups: every group a row of zerver_usergroup; named ones also in zerver_namedusergroup. */
export function groupTables(t: Tables): Tables {
  const usergroup = t.user_groups!.map((g) => ({ id: g.id, realm: g.realm_id }));
  const named = t.user_groups!.filter((g) => g.name !== null).map((g) => ({
    ...json(g.settings),
    usergroup_ptr: g.id,
    realm_for_sharding: g.realm_id,
    name: g.name,
    description: g.description,
    is_system_group: bool(g.is_system_group),
    deactivated: bool(g.deactivated),
    creator: g.creator_id,
    date_created: g.date_created,
  }));
  const members = t.user_group_members!.map((m, i) => ({ id: i + 1, user_group: m.group_id, user_profile: m.user_id }));
  const subgroups = t.user_group_subgroups!.map((m, i) => ({ id: i + 1, supergroup: m.group_id, subgroup: m.subgroup_id }));
  return { zerver_usergroup: usergroup, zerver_namedusergroup: named, zerver_usergroupmembership: members, zerver_groupgroupmembership: subgroups };
}

export function messageRow(m: Row, clientId: number): Row {
  return {
    id: m.id,
    sender: m.sender_id,
    recipient: m.recipient_id,
    realm: m.realm_id,
    subject: m.topic,
    content: m.content,
    rendered_content: m.rendered_content,
    rendered_content_version: 1,
    date_sent: m.date_sent,
    last_edit_time: m.last_edit_time,
    last_moved_time: m.last_moved_time,
    edit_history: m.edit_history,
    has_attachment: bool(m.has_attachment),
    has_image: bool(m.has_image),
    has_link: bool(m.has_link),
    is_channel_message: m.stream_id !== null,
    type: 1,
    sending_client: clientId,
  };
}

export const reactionRow = (r: Row): Row => ({
  id: r.id,
  user_profile: r.user_id,
  message: r.message_id,
  emoji_name: r.emoji_name,
  emoji_code: r.emoji_code,
  reaction_type: r.reaction_type,
});

export function realmTables(t: Tables): Tables {
  const realmId = t.realm![0]!.id;
  return {
    zerver_realmemoji: t.realm_emoji!.map((e) => ({ id: e.id, realm: e.realm_id, author: e.author_id, name: e.name, file_name: e.file_name, deactivated: bool(e.deactivated), is_animated: bool(e.is_animated) })),
    zerver_realmfilter: t.linkifiers!.map((l) => ({ id: l.id, realm: l.realm_id, pattern: l.pattern, url_template: l.url_template, order: l.order })),
    zerver_customprofilefield: t.custom_profile_fields!.map((f) => ({
      id: f.id, realm: f.realm_id, name: f.name, hint: f.hint, order: f.order, field_type: f.field_type, field_data: f.field_data,
      display_in_profile_summary: bool(f.display_in_profile_summary), required: bool(f.required), editable_by_user: bool(f.editable_by_user),
    })),
    zerver_customprofilefieldvalue: t.custom_profile_values!.map((v, i) => ({ id: i + 1, user_profile: v.user_id, field: v.field_id, value: v.value, rendered_value: v.rendered_value })),
    zerver_defaultstream: t.default_streams!.map((d, i) => ({ id: i + 1, realm: d.realm_id, stream: d.stream_id })),
    zerver_realmuserdefault: [{ id: 1, realm: realmId, ...settingsOver(parseStoredSettings(t.realm_user_defaults![0]?.settings)) }],
    zerver_reaction: t.reactions!.map(reactionRow),
  };
}
