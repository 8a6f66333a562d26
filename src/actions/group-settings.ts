import { realmOf, type App } from "../app";
import {
  checkGroupForSetting,
  groupSettingChanges,
  normalizeGroupSettingValue,
  systemGroupRequired,
  type GroupSettingConfig,
  type GroupSettingUpdate,
  type GroupSettingValue,
} from "../domain/group-setting";
import { isGuest } from "../domain/roles";
import { badRequest } from "../errors";
import type { Sql } from "../store/db";
import { findGroup } from "../store/groups";
import { findEqualAnonymousGroup, insertAnonymousGroup, listActiveUserIdsIn, listAnonymousGroupContents, listGroupsByIds } from "../store/group-settings";

/**
 * The one place group-setting values (realm, channel and group settings) are validated, stored
 * and read back. A value is stored as a user_groups id: a named group's own id, or an anonymous
 * group (name NULL) holding {direct_members, direct_subgroups}. Anonymous groups are shared by equal
 * values and never edited in place.
 *
 * Callers write inside their own transaction (`sql`), and call reloadGroups(app) after it commits
 * whenever a value may have created an anonymous group (storeGroupSetting returns `created`).
 */

function nobodyGroupId(app: App): number {
  const id = app.systemGroups.get("role:nobody");
  if (id === undefined) throw new Error("role:nobody group missing");
  return id;
}

/** The id of a system group by name ("role:everyone", ...). */
export function systemGroupId(app: App, name: string): number {
  const id = app.systemGroups.get(name as never);
  if (id === undefined) throw new Error(`system group ${name} missing`);
  return id;
}

/**
 * Validates a requested value against the setting's rules and stores it: a named group id is
 * returned as is; an anonymous value reuses an equal anonymous group or creates one.
 * Errors: "Invalid user group", "Invalid user ID: N", "Invalid user group ID: N",
 * "'setting' setting cannot be set to 'role:x' group.", SYSTEM_GROUP_REQUIRED.
 */
export async function storeGroupSetting(
  app: App,
  sql: Sql,
  value: GroupSettingValue,
  settingName: string,
  config: GroupSettingConfig = {},
): Promise<{ groupId: number; created: boolean }> {
  const realm = realmOf(app);
  const v = normalizeGroupSettingValue(value, nobodyGroupId(app));
  if (typeof v === "number") {
    const group = await findGroup(sql, v);
    checkGroupForSetting(group && group.realm_id === realm.id ? group : undefined, settingName, config);
    return { groupId: v, created: false };
  }
  if (config.requireSystemGroup) throw systemGroupRequired(settingName);
  const active = new Set(await listActiveUserIdsIn(sql, realm.id, v.direct_members));
  const badUser = v.direct_members.find((u) => !active.has(u));
  if (badUser !== undefined) throw badRequest(`Invalid user ID: ${badUser}`);
  const groups = new Map((await listGroupsByIds(sql, v.direct_subgroups)).map((g) => [g.id, g]));
  for (const id of v.direct_subgroups) {
    const g = groups.get(id);
    if (!g || g.realm_id !== realm.id || g.name === null) throw badRequest(`Invalid user group ID: ${id}`);
    if (g.deactivated) throw badRequest("User group is deactivated.");
  }
  const existing = await findEqualAnonymousGroup(sql, realm.id, v.direct_members, v.direct_subgroups);
  if (existing !== undefined) return { groupId: existing, created: false };
  return { groupId: await insertAnonymousGroup(sql, realm.id, v.direct_members, v.direct_subgroups), created: true };
}

/**
 * Applies a `{new, old}` update to a setting currently stored as `currentGroupId`. Refuses a stale
 * `old` (EXPECTATION_MISMATCH); returns null when `new` equals the current value, else the stored
 * new value and its API form.
 */
export async function updateGroupSetting(
  app: App,
  sql: Sql,
  currentGroupId: number,
  update: GroupSettingUpdate,
  settingName: string,
  config: GroupSettingConfig = {},
): Promise<{ groupId: number; created: boolean; value: GroupSettingValue } | null> {
  const nobody = nobodyGroupId(app);
  const current = await groupSettingApiValue(sql, currentGroupId);
  const normalized: GroupSettingUpdate = {
    new: normalizeGroupSettingValue(update.new, nobody),
    ...(update.old !== undefined ? { old: normalizeGroupSettingValue(update.old, nobody) } : {}),
  };
  if (!groupSettingChanges(current, normalized)) return null;
  const stored = await storeGroupSetting(app, sql, normalized.new, settingName, config);
  return { ...stored, value: await groupSettingApiValue(sql, stored.groupId) };
}

/** Zulip's API form of stored values: a named group → its id; anonymous → {direct_members, direct_subgroups}. */
export async function groupSettingApiValues(sql: Sql, groupIds: number[]): Promise<Map<number, GroupSettingValue>> {
  const anon = await listAnonymousGroupContents(sql, groupIds);
  return new Map(groupIds.map((id) => [id, anon.get(id) ?? id]));
}

export async function groupSettingApiValue(sql: Sql, groupId: number): Promise<GroupSettingValue> {
  return (await groupSettingApiValues(sql, [groupId])).get(groupId)!;
}

/**
 * Whether the user holds a group-setting permission: a member of the group (through subgroups
 * too) or of the anonymous value. Settings that refuse role:everyone (allowEveryone: false)
 * never include guests.
 */
export function userHasGroupPermission(
  app: App,
  user: { id: number; role: number },
  settingValueOrGroupId: GroupSettingValue,
  config: GroupSettingConfig = {},
): boolean {
  if (config.allowEveryone === false && isGuest(user.role)) return false;
  return app.groups.settingIncludes(settingValueOrGroupId, user.id);
}
