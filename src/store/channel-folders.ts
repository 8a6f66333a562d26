import type { Sql } from "./db";

export interface ChannelFolderRow {
  id: number;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  order: number;
  creator_id: number | null;
  date_created: number;
  is_archived: number;
}

export const findChannelFolder = (sql: Sql, id: number) => sql.get<ChannelFolderRow>("SELECT * FROM channel_folders WHERE id = ?", [id]);

export const findChannelFolderByName = (sql: Sql, realmId: number, name: string) =>
  sql.get<ChannelFolderRow>("SELECT * FROM channel_folders WHERE realm_id = ? AND name = ? COLLATE NOCASE", [realmId, name]);

export const listChannelFolders = (sql: Sql, realmId: number, includeArchived: boolean) =>
  sql.all<ChannelFolderRow>(`SELECT * FROM channel_folders WHERE realm_id = ? ${includeArchived ? "" : "AND is_archived = 0"} ORDER BY "order", id`, [realmId]);

export async function insertChannelFolder(sql: Sql, f: Omit<ChannelFolderRow, "id" | "order" | "is_archived">): Promise<number> {
  const { lastId } = await sql.run(
    `INSERT INTO channel_folders (realm_id, name, description, rendered_description, creator_id, date_created) VALUES (?, ?, ?, ?, ?, ?)`,
    [f.realm_id, f.name, f.description, f.rendered_description, f.creator_id, f.date_created],
  );
  await sql.run(`UPDATE channel_folders SET "order" = id WHERE id = ?`, [lastId]);
  return lastId;
}

export async function updateChannelFolder(sql: Sql, id: number, fields: Partial<Pick<ChannelFolderRow, "name" | "description" | "rendered_description" | "is_archived" | "order">>) {
  const keys = Object.keys(fields);
  if (!keys.length) return;
  await sql.run(`UPDATE channel_folders SET ${keys.map((k) => `"${k}" = ?`).join(", ")} WHERE id = ?`, [...keys.map((k) => (fields as any)[k]), id]);
}

/** Whether any channel that is not archived is in the folder. */
export const folderInUse = async (sql: Sql, id: number) =>
  (await sql.get("SELECT 1 AS x FROM streams WHERE folder_id = ? AND is_archived = 0 LIMIT 1", [id])) !== undefined;
