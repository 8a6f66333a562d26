import type { Sql } from "./db";

export interface DefaultStreamGroupRow {
  id: number;
  realm_id: number;
  name: string;
  description: string;
}

/** Every group of the organization by name, with its channels' ids (sorted). */
export async function listDefaultStreamGroups(sql: Sql, realmId: number): Promise<(DefaultStreamGroupRow & { streams: number[] })[]> {
  const groups = await sql.all<DefaultStreamGroupRow>("SELECT id, realm_id, name, description FROM default_stream_groups WHERE realm_id = ? ORDER BY name, id", [realmId]);
  const members = await sql.all<{ group_id: number; stream_id: number }>(
    "SELECT g.group_id, g.stream_id FROM default_stream_group_streams g JOIN default_stream_groups d ON d.id = g.group_id WHERE d.realm_id = ? ORDER BY g.stream_id",
    [realmId],
  );
  return groups.map((g) => ({ ...g, streams: members.filter((m) => m.group_id === g.id).map((m) => m.stream_id) }));
}

export const findDefaultStreamGroup = (sql: Sql, realmId: number, id: number) =>
  sql.get<DefaultStreamGroupRow>("SELECT id, realm_id, name, description FROM default_stream_groups WHERE realm_id = ? AND id = ?", [realmId, id]);

export const findDefaultStreamGroupByName = (sql: Sql, realmId: number, name: string) =>
  sql.get<DefaultStreamGroupRow>("SELECT id, realm_id, name, description FROM default_stream_groups WHERE realm_id = ? AND name = ?", [realmId, name]);

export async function insertDefaultStreamGroup(sql: Sql, realmId: number, name: string, description: string): Promise<number> {
  const r = await sql.run("INSERT INTO default_stream_groups (realm_id, name, description) VALUES (?, ?, ?)", [realmId, name, description]);
  return r.lastId;
}

export const updateDefaultStreamGroup = (sql: Sql, id: number, changes: { name?: string; description?: string }) =>
  sql.run("UPDATE default_stream_groups SET name = coalesce(?, name), description = coalesce(?, description) WHERE id = ?", [changes.name ?? null, changes.description ?? null, id]);

export const deleteDefaultStreamGroup = (sql: Sql, id: number) => sql.run("DELETE FROM default_stream_groups WHERE id = ?", [id]);

export const groupStreamIds = async (sql: Sql, groupId: number) =>
  (await sql.all<{ stream_id: number }>("SELECT stream_id FROM default_stream_group_streams WHERE group_id = ? ORDER BY stream_id", [groupId])).map((r) => r.stream_id);

export const addGroupStream = (sql: Sql, groupId: number, streamId: number) =>
  sql.run("INSERT OR IGNORE INTO default_stream_group_streams (group_id, stream_id) VALUES (?, ?)", [groupId, streamId]);

export const removeGroupStream = (sql: Sql, groupId: number, streamId: number) =>
  sql.run("DELETE FROM default_stream_group_streams WHERE group_id = ? AND stream_id = ?", [groupId, streamId]);

/** Takes a channel out of every group (an archived channel); returns how many groups held it. */
export async function removeStreamFromGroups(sql: Sql, streamId: number): Promise<number> {
  const r = await sql.run("DELETE FROM default_stream_group_streams WHERE stream_id = ?", [streamId]);
  return r.changes;
}
