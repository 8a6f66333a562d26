import { realmOf, reloadGroups, reloadRealm, type App } from "../app";
import type { GroupSettingUpdate, GroupSettingValue } from "../domain/group-setting";
import {
  ANNOUNCEMENT_SETTINGS,
  MAX_REALM_DESCRIPTION_LENGTH,
  MAX_REALM_NAME_LENGTH,
  OWNER_ONLY_REALM_SETTINGS,
  REALM_GROUP_SETTING_CONFIGS,
  REALM_GROUP_SETTING_DEFAULTS,
  UPDATE_DICT_PROPERTIES,
} from "../domain/realm-settings";
import { isAdmin, isOwner } from "../domain/roles";
import { adminRequired, badRequest, ownerRequired, ZulipError } from "../errors";
import { findRealm, updateRealm } from "../store/realm";
import { listActiveUserIds, type UserRow } from "../store/users";
import { accessChannelById } from "./channel-access";
import { groupSettingApiValues, updateGroupSetting } from "./group-settings";
import { syncFullMembers } from "./user-updates";
import { watchUserAccess } from "./user-access";

export const REALM_GROUP_SETTING_NAMES = Object.keys(REALM_GROUP_SETTING_DEFAULTS) as (keyof typeof REALM_GROUP_SETTING_DEFAULTS)[];

/** Settings whose value is seconds or "unlimited" (stored as null). */
export const LIMIT_SETTINGS = [
  "message_content_edit_limit_seconds",
  "message_content_delete_limit_seconds",
  "move_messages_within_stream_limit_seconds",
  "move_messages_between_streams_limit_seconds",
] as const;

const VIDEO_CHAT_PROVIDERS = new Set([0, 1, 3, 4, 5, 6]);
const GIPHY_RATINGS = new Set([0, 1, 2, 3]);
const ORG_TYPES = new Set([0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000]);

const badValue = (name: string, value: unknown) =>
  new ZulipError("REQUEST_VARIABLE_INVALID", `Bad value for '${name}': ${typeof value === "string" ? value : JSON.stringify(value)}`, 400, { var_name: name });

/** Parses "unlimited" (null) or a positive number of seconds. */
function parseLimit(name: string, value: number | string): number | null {
  if (value === "unlimited") return null;
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  throw badValue(name, value);
}

/** Zulip's parse_message_retention_days: "unlimited" is -1, otherwise a positive number of days. */
function parseRetentionDays(value: number | string): number {
  if (value === "unlimited") return -1;
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  throw badValue("message_retention_days", value);
}

/**
 * The values PATCH /realm may change, already decoded by the route (wire names). Group settings
 * are `{new, old}` updates.
 */
export type RealmChanges = Record<string, unknown>;

/**
 * PATCH /realm (administrators; some settings owners only). Validates every value first, writes
 * them in one transaction, then sends one realm event per changed setting to every active user.
 * Returns what changed, the way Zulip reports it (strings as "updated").
 */
export async function updateRealmSettings(app: App, actor: UserRow, changes: RealmChanges): Promise<Record<string, unknown>> {
  if (!isAdmin(actor.role)) throw adminRequired();
  for (const key of Object.keys(changes)) if (OWNER_ONLY_REALM_SETTINGS.has(key) && !isOwner(actor.role)) throw ownerRequired();
  const realm = realmOf(app);
  const values: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(changes)) {
    if (raw === undefined || REALM_GROUP_SETTING_NAMES.includes(key as never)) continue;
    values[key] = validate(key, raw);
  }
  // Zulip's access_stream_by_id: an announcement channel is one the administrator can read; -1 turns it off.
  for (const key of ANNOUNCEMENT_SETTINGS) {
    const id = values[key];
    if (id === undefined) continue;
    if ((id as number) <= 0) values[key] = -1;
    else await accessChannelById(app, actor, id as number);
  }
  const groupUpdates = REALM_GROUP_SETTING_NAMES.filter((k) => changes[k] !== undefined);
  // The legacy boolean and the topics policy describe the same rule: keep them in step.
  if (values.topics_policy !== undefined && values.mandatory_topics === undefined) values.mandatory_topics = values.topics_policy === "disable_empty_topic";
  if (values.mandatory_topics !== undefined && values.topics_policy === undefined) values.topics_policy = values.mandatory_topics ? "disable_empty_topic" : "allow_empty_topic";
  // Likewise the edit-history policy and its legacy boolean (feature level 358).
  const history = values.message_edit_history_visibility_policy;
  if (history !== undefined && values.allow_edit_history === undefined) values.allow_edit_history = history !== "none";
  if (values.allow_edit_history !== undefined && history === undefined) values.message_edit_history_visibility_policy = values.allow_edit_history ? "all" : "none";

  // Guests' view of users follows can_access_all_users_group.
  const access = changes.can_access_all_users_group !== undefined ? await watchUserAccess(app, "all") : null;
  const result = await app.db.tx(async (sql) => {
    const row = (await findRealm(sql))!;
    const stored = JSON.parse(row.settings || "{}") as Record<string, unknown>;
    const current: Record<string, unknown> = { ...realm.settings, ...stored, name: row.name, description: row.description };
    const changed: [string, unknown][] = [];
    for (const [k, v] of Object.entries(values)) {
      if (current[k] === v) continue;
      changed.push([k, v]);
      if (k !== "name" && k !== "description") stored[k] = v;
    }
    const groupChanged: [string, GroupSettingValue][] = [];
    let created = false;
    for (const k of groupUpdates) {
      const currentId = current[k];
      if (typeof currentId !== "number") throw new Error(`organization setting ${k} is not a group id`);
      const r = await updateGroupSetting(app, sql, currentId, changes[k] as GroupSettingUpdate, k, REALM_GROUP_SETTING_CONFIGS[k]);
      if (!r) continue;
      stored[k] = r.groupId;
      created ||= r.created;
      groupChanged.push([k, r.value]);
    }
    const name = changed.find(([k]) => k === "name")?.[1] as string | undefined;
    const description = changed.find(([k]) => k === "description")?.[1] as string | undefined;
    await updateRealm(sql, row.id, {
      ...(name !== undefined ? { name } : {}),
      ...(description !== undefined ? { description } : {}),
      settings: JSON.stringify(stored),
    });
    return { changed, groupChanged, created };
  });
  await reloadRealm(app);
  if (result.created) await reloadGroups(app);
  if (result.changed.some(([k]) => k === "waiting_period_threshold")) await syncFullMembers(app);

  const everyone = await listActiveUserIds(app.db, realm.id);
  const data: Record<string, unknown> = {};
  for (const [k, v] of result.changed) {
    data[k] = typeof v === "string" ? "updated" : v;
    const event = UPDATE_DICT_PROPERTIES.has(k)
      ? { type: "realm", op: "update_dict", property: "default", data: { [k]: v } }
      : { type: "realm", op: "update", property: k, value: v };
    app.events.publish(event, everyone);
  }
  for (const [k, v] of result.groupChanged) {
    data[k] = v;
    app.events.publish({ type: "realm", op: "update_dict", property: "default", data: { [k]: v } }, everyone);
  }
  if (access && result.groupChanged.some(([k]) => k === "can_access_all_users_group")) await access.publish();
  return data;
}

/** Checks one decoded value and returns what is stored. */
function validate(key: string, value: unknown): unknown {
  switch (key) {
    case "name": {
      const name = (value as string).trim();
      if (!name) throw badRequest("Organization name can't be empty.");
      if (name.length > MAX_REALM_NAME_LENGTH) throw badRequest(`name is too long (limit: ${MAX_REALM_NAME_LENGTH} characters)`);
      return name;
    }
    case "description":
      if ((value as string).length > MAX_REALM_DESCRIPTION_LENGTH) throw badRequest(`description is too long (limit: ${MAX_REALM_DESCRIPTION_LENGTH} characters)`);
      return value;
    case "message_retention_days":
      return parseRetentionDays(value as number | string);
    case "empty_topic_display_name": {
      const v = (value as string).trim();
      if (!v) throw badRequest("empty_topic_display_name cannot be blank");
      if (v.length > 60) throw badRequest("empty_topic_display_name is too long (limit: 60 characters)");
      return v;
    }
    case "default_language":
      if (!/^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(value as string)) throw badRequest(`Invalid language '${value}'`);
      return value;
    case "video_chat_provider":
      if (!VIDEO_CHAT_PROVIDERS.has(value as number)) throw badRequest(`Invalid video_chat_provider ${value}`);
      return value;
    case "giphy_rating":
      if (!GIPHY_RATINGS.has(value as number)) throw badRequest(`Invalid giphy_rating ${value}`);
      return value;
    case "org_type":
      if (!ORG_TYPES.has(value as number)) throw badRequest("Invalid org_type");
      return value;
  }
  if ((LIMIT_SETTINGS as readonly string[]).includes(key)) return parseLimit(key, value as number | string);
  return value;
}

/**
 * Organization group settings in their API form (an id, or {direct_members, direct_subgroups} for
 * anonymous groups): what `realm_*` group settings in /register must show.
 */
export async function realmGroupSettingsForApi(app: App): Promise<Record<string, GroupSettingValue>> {
  const s = realmOf(app).settings;
  const ids = REALM_GROUP_SETTING_NAMES.map((k) => s[k]).filter((v): v is number => typeof v === "number");
  const api = await groupSettingApiValues(app.db, ids);
  return Object.fromEntries(REALM_GROUP_SETTING_NAMES.map((k) => [k, typeof s[k] === "number" ? api.get(s[k] as number)! : (s[k] as GroupSettingValue)]));
}
