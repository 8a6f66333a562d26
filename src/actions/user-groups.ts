import { nowSecs, realmOf, reloadGroups, type App } from "../app";
import { CHANNEL_GROUP_SETTINGS } from "../domain/channel-permissions";
import type { GroupSettingUpdate, GroupSettingValue } from "../domain/group-setting";
import { REALM_GROUP_SETTING_DEFAULTS } from "../domain/realm-settings";
import { isGuest } from "../domain/roles";
import {
  checkUserGroupName,
  SYSTEM_GROUP_SETTING_DEFAULT,
  USER_GROUP_SETTING_NAMES,
  USER_GROUP_SETTINGS,
  type StoredGroupSettings,
  type UserGroupSettingName,
} from "../domain/user-groups";
import { badRequest, ZulipError } from "../errors";
import type { Sql } from "../store/db";
import {
  addMembers,
  addSubgroups,
  findGroup,
  findGroupByName,
  insertGroup,
  listGroupsByIds,
  listNamedGroups,
  listStreamsUsingGroups,
  listSupergroups,
  removeMembers,
  removeSubgroups,
  updateGroup,
  type GroupRow,
} from "../store/groups";
import { listActiveUserIds, type UserRow } from "../store/users";
import { groupSettingApiValues, storeGroupSetting, systemGroupId, updateGroupSetting, userHasGroupPermission } from "./group-settings";
import { accessUserById } from "./user-access";
import { usersByIds } from "./users";

/** Zulip's require_member_or_admin: guests and bots may not use the user-group endpoints. */
export function checkMemberOrAdmin(user: UserRow) {
  if (isGuest(user.role)) throw badRequest("Not allowed for guest users");
  if (user.is_bot) throw badRequest("This endpoint does not accept bot requests.");
}

const settingsOf = (g: GroupRow): StoredGroupSettings => JSON.parse(g.settings || "{}");

/** A group's stored setting, with the system-group and default fallbacks. */
function storedSetting(app: App, g: GroupRow, name: UserGroupSettingName): number {
  const stored = settingsOf(g)[name];
  if (stored !== undefined) return stored;
  const fallback = g.is_system_group || USER_GROUP_SETTINGS[name].defaultGroup === "group_creator" ? SYSTEM_GROUP_SETTING_DEFAULT : USER_GROUP_SETTINGS[name].defaultGroup;
  return systemGroupId(app, fallback);
}

/** The API objects of named groups (GET /user_groups, user_group add events, /register). */
export async function serializeGroups(app: App, groups: GroupRow[]) {
  const settingIds = groups.flatMap((g) => USER_GROUP_SETTING_NAMES.map((n) => storedSetting(app, g, n)));
  const api = await groupSettingApiValues(app.db, settingIds);
  return groups.map((g) => {
    const out: Record<string, unknown> = {
      id: g.id,
      name: g.name,
      description: g.description,
      creator_id: g.creator_id,
      date_created: g.date_created === null ? null : Math.floor(g.date_created),
      members: app.groups.directMembers(g.id),
      direct_subgroup_ids: app.groups.directSubgroups(g.id),
      is_system_group: Boolean(g.is_system_group),
    };
    for (const n of USER_GROUP_SETTING_NAMES) out[n] = api.get(storedSetting(app, g, n));
    out.deactivated = Boolean(g.deactivated);
    return out;
  });
}

/** GET /user_groups. */
export async function listUserGroups(app: App, actor: UserRow, includeDeactivated: boolean) {
  checkMemberOrAdmin(actor);
  return serializeGroups(app, await listNamedGroups(app.db, realmOf(app).id, includeDeactivated));
}

/** A named group of the organization, for reading ("Invalid user group", "User group is deactivated."). */
async function readGroup(app: App, groupId: number, allowDeactivated = false): Promise<GroupRow> {
  const g = await findGroup(app.db, groupId);
  if (!g || g.realm_id !== realmOf(app).id || g.name === null) throw badRequest("Invalid user group");
  if (g.deactivated && !allowDeactivated) throw badRequest("User group is deactivated.");
  return g;
}

export const canManageAllGroups = (app: App, user: UserRow) =>
  userHasGroupPermission(app, user, realmOf(app).settings.can_manage_all_groups, { allowEveryone: false });

/** Whether `user` holds one of the group's own permissions (guests never hold those that refuse role:everyone). */
function holdsGroupPermission(app: App, user: UserRow, g: GroupRow, name: UserGroupSettingName): boolean {
  return userHasGroupPermission(app, user, storedSetting(app, g, name), USER_GROUP_SETTINGS[name]);
}

/**
 * Zulip's access_user_group_for_update: system groups are read-only; can_manage_all_groups and the
 * group's can_manage_group allow everything; otherwise the named permission must be held.
 */
async function accessGroupForUpdate(app: App, actor: UserRow, groupId: number, permission: UserGroupSettingName, allowDeactivated = false): Promise<GroupRow> {
  const g = await readGroup(app, groupId, allowDeactivated);
  if (g.is_system_group) throw badRequest("Insufficient permission");
  if (canManageAllGroups(app, actor)) return g;
  if (holdsGroupPermission(app, actor, g, "can_manage_group")) return g;
  if (permission !== "can_manage_group" && holdsGroupPermission(app, actor, g, permission)) return g;
  throw badRequest("Insufficient permission");
}

/** Named, active groups of the organization that may become subgroups ("Invalid user group ID: N"). */
async function potentialSubgroups(app: App, ids: number[]): Promise<GroupRow[]> {
  const realm = realmOf(app);
  const rows = new Map((await listGroupsByIds(app.db, ids)).map((g) => [g.id, g]));
  return ids.map((id) => {
    const g = rows.get(id);
    if (!g || g.realm_id !== realm.id || g.name === null) throw badRequest(`Invalid user group ID: ${id}`);
    if (g.deactivated) throw badRequest("User group is deactivated.");
    return g;
  });
}

export interface NewUserGroup {
  name: string;
  description: string;
  members: number[];
  subgroups: number[];
  settings: Partial<Record<UserGroupSettingName, GroupSettingValue>>;
}

/** POST /user_groups/create (can_create_groups). Unset permissions take Zulip's defaults; "group_creator" means the creator. */
export async function createUserGroup(app: App, actor: UserRow, input: NewUserGroup): Promise<number> {
  checkMemberOrAdmin(actor);
  const realm = realmOf(app);
  if (!userHasGroupPermission(app, actor, realm.settings.can_create_groups, { allowEveryone: false })) throw badRequest("Insufficient permission");
  const members = await usersByIds(app, [...new Set(input.members)]);
  const name = checkUserGroupName(input.name);
  const subgroups = await potentialSubgroups(app, [...new Set(input.subgroups)]);
  const groupId = await app.db.tx(async (sql) => {
    if (await findGroupByName(sql, realm.id, name)) throw badRequest(`User group '${name}' already exists.`);
    const settings: StoredGroupSettings = {};
    for (const n of USER_GROUP_SETTING_NAMES) {
      const requested = input.settings[n];
      const config = USER_GROUP_SETTINGS[n];
      if (requested !== undefined) settings[n] = (await storeGroupSetting(app, sql, requested, n, config)).groupId;
      else if (config.defaultGroup === "group_creator") {
        settings[n] = (await storeGroupSetting(app, sql, { direct_members: [actor.id], direct_subgroups: [] }, n, config)).groupId;
      } else settings[n] = systemGroupId(app, config.defaultGroup);
    }
    const id = await insertGroup(sql, { realmId: realm.id, name, description: input.description, creatorId: actor.id, dateCreated: Math.floor(nowSecs(app)), settings });
    await addMembers(sql, id, members.map((u) => u.id));
    await addSubgroups(sql, id, subgroups.map((g) => g.id));
    return id;
  });
  await reloadGroups(app);
  const [group] = await serializeGroups(app, [(await findGroup(app.db, groupId))!]);
  app.events.publish({ type: "user_group", op: "add", group }, await listActiveUserIds(app.db, realm.id));
  return groupId;
}

export interface UserGroupUpdate {
  name?: string;
  description?: string;
  settings: Partial<Record<UserGroupSettingName, GroupSettingUpdate>>;
}

/** PATCH /user_groups/{id}: name, description and permissions (can_manage_group). One update event per change. */
export async function updateUserGroup(app: App, actor: UserRow, groupId: number, input: UserGroupUpdate): Promise<void> {
  checkMemberOrAdmin(actor);
  if (input.name === undefined && input.description === undefined && Object.keys(input.settings).length === 0) throw badRequest("No new data supplied");
  const g = await accessGroupForUpdate(app, actor, groupId, "can_manage_group", true);
  const realm = realmOf(app);
  const name = input.name !== undefined && input.name !== g.name ? checkUserGroupName(input.name) : undefined;
  const description = input.description !== undefined && input.description !== g.description ? input.description : undefined;
  const changes = await app.db.tx(async (sql) => {
    if (name !== undefined) {
      const other = await findGroupByName(sql, realm.id, name);
      if (other && other.id !== g.id) throw badRequest(`User group '${name}' already exists.`);
    }
    const settings = settingsOf(g);
    const changed: [UserGroupSettingName, GroupSettingValue][] = [];
    for (const n of USER_GROUP_SETTING_NAMES) {
      const update = input.settings[n];
      if (update === undefined) continue;
      const result = await updateGroupSetting(app, sql, storedSetting(app, g, n), update, n, USER_GROUP_SETTINGS[n]);
      if (!result) continue;
      settings[n] = result.groupId;
      changed.push([n, result.value]);
    }
    await updateGroup(sql, g.id, {
      ...(name !== undefined ? { name } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(changed.length ? { settings: JSON.stringify(settings) } : {}),
    });
    return changed;
  });
  if (changes.length) await reloadGroups(app);
  const everyone = await listActiveUserIds(app.db, realm.id);
  const publish = (data: Record<string, unknown>) => app.events.publish({ type: "user_group", op: "update", group_id: g.id, data }, everyone);
  if (name !== undefined) publish({ name });
  if (description !== undefined) publish({ description });
  for (const [n, value] of changes) publish({ [n]: value });
}

export interface MembershipChange {
  add: number[];
  delete: number[];
  addSubgroups: number[];
  deleteSubgroups: number[];
}

/**
 * POST /user_groups/{id}/members and /subgroups: every change is checked first, then all are
 * written in one transaction. Joining or leaving oneself needs can_join_group / can_leave_group;
 * changing others needs can_add_members_group / can_remove_members_group; subgroups that would
 * close a cycle are refused.
 */
export async function updateGroupMembers(app: App, actor: UserRow, groupId: number, change: MembershipChange): Promise<void> {
  checkMemberOrAdmin(actor);
  if (!change.add.length && !change.delete.length && !change.addSubgroups.length && !change.deleteSubgroups.length) {
    throw badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  }
  await applyMembershipChange(app, actor, groupId, change);
}

/** POST /user_groups/{id}/subgroups. */
export async function updateGroupSubgroups(app: App, actor: UserRow, groupId: number, change: { add: number[]; delete: number[] }): Promise<void> {
  checkMemberOrAdmin(actor);
  if (!change.add.length && !change.delete.length) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  await applyMembershipChange(app, actor, groupId, { add: [], delete: [], addSubgroups: change.add, deleteSubgroups: change.delete });
}

async function applyMembershipChange(app: App, actor: UserRow, groupId: number, change: MembershipChange): Promise<void> {
  const access = (self: boolean, selfPermission: UserGroupSettingName, otherPermission: UserGroupSettingName) =>
    self
      ? accessGroupForUpdate(app, actor, groupId, selfPermission).catch(() => accessGroupForUpdate(app, actor, groupId, otherPermission))
      : accessGroupForUpdate(app, actor, groupId, otherPermission);
  const isSelf = (ids: number[]) => ids.length === 1 && ids[0] === actor.id;

  const add = [...new Set(change.add)];
  const del = [...new Set(change.delete)];
  const addSub = [...new Set(change.addSubgroups)];
  const delSub = [...new Set(change.deleteSubgroups)];
  if (add.length) {
    await access(isSelf(add), "can_join_group", "can_add_members_group");
    const direct = new Set(app.groups.directMembers(groupId));
    for (const u of await usersByIds(app, add)) if (direct.has(u.id)) throw badRequest(`User ${u.id} is already a member of this group`);
  }
  if (del.length) {
    await access(isSelf(del), "can_leave_group", "can_remove_members_group");
    await usersByIds(app, del);
    const direct = new Set(app.groups.directMembers(groupId));
    for (const id of del) if (!direct.has(id)) throw badRequest(`There is no member '${id}' in this user group`);
  }
  if (addSub.length) {
    await potentialSubgroups(app, addSub);
    await accessGroupForUpdate(app, actor, groupId, "can_add_members_group");
    const direct = new Set(app.groups.directSubgroups(groupId));
    for (const id of addSub) if (direct.has(id)) throw badRequest(`User group ${id} is already a subgroup of this group.`);
    if (addSub.some((id) => app.groups.wouldCycle(groupId, id))) {
      throw badRequest(`User group ${groupId} is already a subgroup of one of the passed subgroups.`);
    }
  }
  if (delSub.length) {
    await potentialSubgroups(app, delSub);
    await accessGroupForUpdate(app, actor, groupId, "can_remove_members_group");
    const direct = new Set(app.groups.directSubgroups(groupId));
    for (const id of delSub) if (!direct.has(id)) throw badRequest(`User group ${id} is not a subgroup of this group.`);
  }
  await app.db.tx(async (sql: Sql) => {
    await addMembers(sql, groupId, add);
    await removeMembers(sql, groupId, del);
    await addSubgroups(sql, groupId, addSub);
    await removeSubgroups(sql, groupId, delSub);
  });
  await reloadGroups(app);
  const everyone = await listActiveUserIds(app.db, realmOf(app).id);
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
  if (add.length) app.events.publish({ type: "user_group", op: "add_members", group_id: groupId, user_ids: sorted(add) }, everyone);
  if (del.length) app.events.publish({ type: "user_group", op: "remove_members", group_id: groupId, user_ids: sorted(del) }, everyone);
  if (addSub.length) app.events.publish({ type: "user_group", op: "add_subgroups", group_id: groupId, direct_subgroup_ids: sorted(addSub) }, everyone);
  if (delSub.length) app.events.publish({ type: "user_group", op: "remove_subgroups", group_id: groupId, direct_subgroup_ids: sorted(delSub) }, everyone);
}

/** GET /user_groups/{id}/members: direct members, or everyone through nested subgroups. */
export async function groupMembers(app: App, actor: UserRow, groupId: number, directOnly: boolean): Promise<number[]> {
  checkMemberOrAdmin(actor);
  await readGroup(app, groupId);
  return directOnly ? app.groups.directMembers(groupId) : [...app.groups.allMembers(groupId)].sort((a, b) => a - b);
}

/** GET /user_groups/{id}/subgroups: direct subgroups, or all of them recursively (not the group itself). */
export async function groupSubgroups(app: App, actor: UserRow, groupId: number, directOnly: boolean): Promise<number[]> {
  checkMemberOrAdmin(actor);
  await readGroup(app, groupId);
  if (directOnly) return app.groups.directSubgroups(groupId);
  const seen = new Set<number>();
  const stack = app.groups.directSubgroups(groupId);
  while (stack.length) {
    const g = stack.pop()!;
    if (seen.has(g) || g === groupId) continue;
    seen.add(g);
    stack.push(...app.groups.directSubgroups(g));
  }
  return [...seen].sort((a, b) => a - b);
}

/** GET /user_groups/{id}/members/{user_id}. */
export async function isGroupMember(app: App, actor: UserRow, groupId: number, userId: number, directOnly: boolean): Promise<boolean> {
  checkMemberOrAdmin(actor);
  await readGroup(app, groupId);
  const target = await accessUserById(app, actor, userId, { allowBots: true });
  return app.groups.isMember(groupId, target.id, directOnly);
}

/**
 * POST /user_groups/{id}/deactivate (can_manage_group). Refused with CANNOT_DEACTIVATE_GROUP_IN_USE
 * while the group is a subgroup of an active group or a setting of the organization, a channel or
 * another group uses it (directly or inside an anonymous value).
 */
export async function deactivateUserGroup(app: App, actor: UserRow, groupId: number): Promise<void> {
  checkMemberOrAdmin(actor);
  const g = await accessGroupForUpdate(app, actor, groupId, "can_manage_group");
  const realm = realmOf(app);
  const supergroups = await listSupergroups(app.db, g.id);
  const objections: Record<string, unknown>[] = [];
  const named = supergroups.filter((s) => s.name !== null && !s.deactivated).map((s) => s.id);
  if (named.length) objections.push({ type: "subgroup", supergroup_ids: named });
  const using = new Set([g.id, ...supergroups.filter((s) => s.name === null).map((s) => s.id)]);
  const columns = Object.keys(CHANNEL_GROUP_SETTINGS);
  for (const row of await listStreamsUsingGroups(app.db, realm.id, columns, [...using])) {
    const settings = columns.filter((c) => using.has(row[c]!));
    if (settings.length) objections.push({ type: "channel", channel_id: row.id, settings });
  }
  for (const other of await listNamedGroups(app.db, realm.id, false)) {
    if (other.id === g.id) continue;
    const settings = USER_GROUP_SETTING_NAMES.filter((n) => using.has(storedSetting(app, other, n)));
    if (settings.length) objections.push({ type: "user_group", group_id: other.id, settings });
  }
  const realmSettings = Object.keys(REALM_GROUP_SETTING_DEFAULTS).filter((k) => {
    const v = realm.settings[k] as GroupSettingValue | undefined;
    return typeof v === "number" ? using.has(v) : !!v && v.direct_subgroups.includes(g.id);
  });
  if (realmSettings.length) objections.push({ type: "realm", settings: realmSettings });
  if (objections.length) throw new ZulipError("CANNOT_DEACTIVATE_GROUP_IN_USE", "Cannot deactivate user group in use.", 400, { objections });
  await app.db.tx((sql) => updateGroup(sql, g.id, { deactivated: 1 }));
  app.events.publish({ type: "user_group", op: "update", group_id: g.id, data: { deactivated: true } }, await listActiveUserIds(app.db, realm.id));
}
