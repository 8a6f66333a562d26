import { realmOf, reloadGroups, type App } from "../app";
import type { UserGroupSettingName } from "../domain/user-groups";
import { badRequest } from "../errors";
import type { Sql } from "../store/db";
import { addMembers, addSubgroups, removeMembers, removeSubgroups } from "../store/groups";
import { listActiveUserIds, type UserRow } from "../store/users";
import { accessGroupForUpdate, checkMemberOrAdmin, potentialSubgroups, readGroup } from "./user-group-access";
import { accessUserById } from "./user-access";
import { usersByIds } from "./users";

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
