import { nowSecs, realmOf, reloadGroups, type App } from "../app";
import { CHANNEL_GROUP_SETTINGS } from "../domain/channel-permissions";
import type { GroupSettingUpdate, GroupSettingValue } from "../domain/group-setting";
import { REALM_GROUP_SETTING_DEFAULTS } from "../domain/realm-settings";
import { checkUserGroupName, USER_GROUP_SETTING_NAMES, USER_GROUP_SETTINGS, type StoredGroupSettings, type UserGroupSettingName } from "../domain/user-groups";
import { badRequest, ZulipError } from "../errors";
import { addMembers, addSubgroups, findGroup, findGroupByName, insertGroup, listNamedGroups, listStreamsUsingGroups, listSupergroups, updateGroup, type GroupRow } from "../store/groups";
import { listActiveUserIds, type UserRow } from "../store/users";
import { groupSettingApiValues, storeGroupSetting, systemGroupId, updateGroupSetting, userHasGroupPermission } from "./group-settings";
import { accessGroupForUpdate, checkMemberOrAdmin, potentialSubgroups, settingsOf, storedSetting } from "./user-group-access";
import { usersByIds } from "./users";

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
  // clients without include_deactivated_groups were told the group was removed (events/format.ts)
  const marker = g.deactivated ? { for_deactivated_group: true } : {};
  const publish = (data: Record<string, unknown>) => app.events.publish({ type: "user_group", op: "update", group_id: g.id, data, ...marker }, everyone);
  if (name !== undefined) publish({ name });
  if (description !== undefined) publish({ description });
  for (const [n, value] of changes) publish({ [n]: value });
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
