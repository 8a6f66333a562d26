import type { Sql } from "./db";

export interface GroupRow {
  id: number;
  realm_id: number;
  name: string | null;
  description: string;
  is_system_group: number;
  deactivated: number;
  creator_id: number | null;
  date_created: number | null;
  settings: string;
}

export async function insertGroup(sql: Sql, g: { realmId: number; name: string | null; description?: string; isSystem?: boolean; creatorId?: number | null; dateCreated?: number | null; settings?: Record<string, unknown> }) {
  const { lastId } = await sql.run(
    "INSERT INTO user_groups (realm_id, name, description, is_system_group, creator_id, date_created, settings) VALUES (?, ?, ?, ?, ?, ?, ?)",
    [g.realmId, g.name, g.description ?? "", g.isSystem ? 1 : 0, g.creatorId ?? null, g.dateCreated ?? null, JSON.stringify(g.settings ?? {})],
  );
  return lastId;
}

export const findGroup = (sql: Sql, id: number) => sql.get<GroupRow>("SELECT * FROM user_groups WHERE id = ?", [id]);
export const findGroupByName = (sql: Sql, realmId: number, name: string) =>
  sql.get<GroupRow>("SELECT * FROM user_groups WHERE realm_id = ? AND name = ?", [realmId, name]);
export const listSystemGroups = (sql: Sql, realmId: number) =>
  sql.all<GroupRow>("SELECT * FROM user_groups WHERE realm_id = ? AND is_system_group = 1", [realmId]);

const pairs = (n: number) => Array.from({ length: n }, () => "(?, ?)").join(", ");

export async function addMembers(sql: Sql, groupId: number, userIds: number[]) {
  if (!userIds.length) return;
  await sql.run(`INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES ${pairs(userIds.length)}`, userIds.flatMap((u) => [groupId, u]));
}
export async function removeMembers(sql: Sql, groupId: number, userIds: number[]) {
  if (!userIds.length) return;
  await sql.run(`DELETE FROM user_group_members WHERE group_id = ? AND user_id IN (${userIds.map(() => "?").join(",")})`, [groupId, ...userIds]);
}
export async function addSubgroups(sql: Sql, groupId: number, subgroupIds: number[]) {
  if (!subgroupIds.length) return;
  await sql.run(`INSERT OR IGNORE INTO user_group_subgroups (group_id, subgroup_id) VALUES ${pairs(subgroupIds.length)}`, subgroupIds.flatMap((s) => [groupId, s]));
}
export async function removeSubgroups(sql: Sql, groupId: number, subgroupIds: number[]) {
  if (!subgroupIds.length) return;
  await sql.run(`DELETE FROM user_group_subgroups WHERE group_id = ? AND subgroup_id IN (${subgroupIds.map(() => "?").join(",")})`, [groupId, ...subgroupIds]);
}
/** Replaces a group's direct members and subgroups (anonymous group-setting values). */
export async function setGroupContents(sql: Sql, groupId: number, members: number[], subgroups: number[]) {
  await sql.run("DELETE FROM user_group_members WHERE group_id = ?", [groupId]);
  await sql.run("DELETE FROM user_group_subgroups WHERE group_id = ?", [groupId]);
  await addMembers(sql, groupId, members);
  await addSubgroups(sql, groupId, subgroups);
}

/**
 * Memberships of active users only: a deactivated user keeps their rows (reactivation restores
 * them) but is no member of anything meanwhile, as in Zulip 10.
 */
export const listMemberships = (sql: Sql) =>
  sql.all<{ group_id: number; user_id: number }>(
    "SELECT m.group_id, m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id WHERE u.is_active = 1",
  );
export const listSubgroupEdges = (sql: Sql) => sql.all<{ group_id: number; subgroup_id: number }>("SELECT group_id, subgroup_id FROM user_group_subgroups");
export const listGroups = (sql: Sql, realmId: number) => sql.all<GroupRow>("SELECT * FROM user_groups WHERE realm_id = ? ORDER BY id", [realmId]);

/** Named groups (not the anonymous ones behind group-setting values), by id. */
export const listNamedGroups = (sql: Sql, realmId: number, includeDeactivated: boolean) =>
  sql.all<GroupRow>(`SELECT * FROM user_groups WHERE realm_id = ? AND name IS NOT NULL${includeDeactivated ? "" : " AND deactivated = 0"} ORDER BY id`, [realmId]);

/** The anonymous groups (setting values) naming a user directly. */
export const listAnonymousGroupsOf = async (sql: Sql, userId: number) =>
  (await sql.all<{ id: number }>("SELECT g.id FROM user_group_members m JOIN user_groups g ON g.id = m.group_id WHERE m.user_id = ? AND g.name IS NULL", [userId])).map(
    (r) => r.id,
  );

/** The named groups a user is a direct member of (whether or not the user is active). */
export const listDirectGroupsOf = async (sql: Sql, userId: number) =>
  (await sql.all<{ id: number }>(
    "SELECT g.id FROM user_group_members m JOIN user_groups g ON g.id = m.group_id WHERE m.user_id = ? AND g.name IS NOT NULL ORDER BY g.id",
    [userId],
  )).map((r) => r.id);

/** Groups that have `groupId` as a direct subgroup. */
export const listSupergroups = (sql: Sql, groupId: number) =>
  sql.all<GroupRow>("SELECT g.* FROM user_group_subgroups e JOIN user_groups g ON g.id = e.group_id WHERE e.subgroup_id = ? ORDER BY g.id", [groupId]);

export async function updateGroup(sql: Sql, id: number, fields: Partial<Pick<GroupRow, "name" | "description" | "deactivated" | "settings">>) {
  const keys = Object.keys(fields);
  if (!keys.length) return;
  await sql.run(`UPDATE user_groups SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE id = ?`, [...keys.map((k) => (fields as any)[k]), id]);
}

/** Channels whose group-setting columns hold any of `groupIds` (user-group deactivation objections). */
export async function listStreamsUsingGroups(sql: Sql, realmId: number, columns: string[], groupIds: number[]) {
  if (!groupIds.length || !columns.length) return [];
  const inList = groupIds.map(() => "?").join(",");
  const where = columns.map((c) => `${c} IN (${inList})`).join(" OR ");
  return sql.all<Record<string, number>>(
    `SELECT id, ${columns.join(", ")} FROM streams WHERE realm_id = ? AND is_archived = 0 AND (${where})`,
    [realmId, ...columns.flatMap(() => groupIds)],
  );
}

/** Direct members of a group, active or not. */
export const listDirectMemberIds = async (sql: Sql, groupId: number) =>
  (await sql.all<{ user_id: number }>("SELECT user_id FROM user_group_members WHERE group_id = ? ORDER BY user_id", [groupId])).map((r) => r.user_id);
