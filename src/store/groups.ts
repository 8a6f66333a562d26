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

export async function addMembers(sql: Sql, groupId: number, userIds: number[]) {
  for (const u of userIds) await sql.run("INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?, ?)", [groupId, u]);
}
export async function removeMembers(sql: Sql, groupId: number, userIds: number[]) {
  for (const u of userIds) await sql.run("DELETE FROM user_group_members WHERE group_id = ? AND user_id = ?", [groupId, u]);
}
export async function addSubgroups(sql: Sql, groupId: number, subgroupIds: number[]) {
  for (const s of subgroupIds) await sql.run("INSERT OR IGNORE INTO user_group_subgroups (group_id, subgroup_id) VALUES (?, ?)", [groupId, s]);
}
export async function removeSubgroups(sql: Sql, groupId: number, subgroupIds: number[]) {
  for (const s of subgroupIds) await sql.run("DELETE FROM user_group_subgroups WHERE group_id = ? AND subgroup_id = ?", [groupId, s]);
}

export const listMemberships = (sql: Sql) => sql.all<{ group_id: number; user_id: number }>("SELECT group_id, user_id FROM user_group_members");
export const listSubgroupEdges = (sql: Sql) => sql.all<{ group_id: number; subgroup_id: number }>("SELECT group_id, subgroup_id FROM user_group_subgroups");
export const listGroups = (sql: Sql, realmId: number) => sql.all<GroupRow>("SELECT * FROM user_groups WHERE realm_id = ? ORDER BY id", [realmId]);
