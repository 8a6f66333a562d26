import type { Sql } from "./db";

export interface RealmEmojiRow {
  id: number;
  realm_id: number;
  name: string;
  author_id: number | null;
  file_name: string;
  is_animated: number;
  deactivated: number;
}

export const listRealmEmoji = (sql: Sql, realmId: number) => sql.all<RealmEmojiRow>("SELECT * FROM realm_emoji WHERE realm_id = ? ORDER BY id", [realmId]);

export const findActiveRealmEmoji = (sql: Sql, realmId: number, name: string) =>
  sql.get<RealmEmojiRow>("SELECT * FROM realm_emoji WHERE realm_id = ? AND name = ? AND deactivated = 0", [realmId, name]);

export const findRealmEmojiByFile = (sql: Sql, realmId: number, fileName: string) =>
  sql.get<RealmEmojiRow>("SELECT * FROM realm_emoji WHERE realm_id = ? AND file_name = ?", [realmId, fileName]);

/** Inserts a row with a placeholder file name; the id names the file (Zulip: `{id}.{ext}`). */
export async function insertRealmEmoji(sql: Sql, e: { realmId: number; name: string; authorId: number; extension: string; isAnimated: boolean }): Promise<RealmEmojiRow> {
  const { lastId } = await sql.run("INSERT INTO realm_emoji (realm_id, name, author_id, file_name, is_animated) VALUES (?, ?, ?, '', ?)", [e.realmId, e.name, e.authorId, e.isAnimated ? 1 : 0]);
  const fileName = `${lastId}.${e.extension}`;
  await sql.run("UPDATE realm_emoji SET file_name = ? WHERE id = ?", [fileName, lastId]);
  return { id: lastId, realm_id: e.realmId, name: e.name, author_id: e.authorId, file_name: fileName, is_animated: e.isAnimated ? 1 : 0, deactivated: 0 };
}

export const deactivateRealmEmoji = (sql: Sql, id: number) => sql.run("UPDATE realm_emoji SET deactivated = 1 WHERE id = ?", [id]);

export const deleteRealmEmoji = (sql: Sql, id: number) => sql.run("DELETE FROM realm_emoji WHERE id = ?", [id]);
