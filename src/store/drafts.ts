import type { Sql } from "./db";

export interface DraftRow {
  id: number;
  user_id: number;
  type: string;
  to_ids: string;
  topic: string;
  content: string;
  last_edit_time: number;
}

export type NewDraft = Omit<DraftRow, "id" | "user_id">;

/** A user's drafts, most recently edited first (at most `limit`). */
export const listDrafts = (sql: Sql, userId: number, limit = -1) =>
  sql.all<DraftRow>("SELECT * FROM drafts WHERE user_id = ? ORDER BY last_edit_time DESC, id DESC LIMIT ?", [userId, limit]);

export const findDraft = (sql: Sql, userId: number, id: number) => sql.get<DraftRow>("SELECT * FROM drafts WHERE user_id = ? AND id = ?", [userId, id]);

export async function insertDrafts(sql: Sql, userId: number, drafts: NewDraft[]): Promise<number[]> {
  const ids: number[] = [];
  for (const d of drafts) {
    const { lastId } = await sql.run("INSERT INTO drafts (user_id, type, to_ids, topic, content, last_edit_time) VALUES (?, ?, ?, ?, ?, ?)", [
      userId,
      d.type,
      d.to_ids,
      d.topic,
      d.content,
      d.last_edit_time,
    ]);
    ids.push(lastId);
  }
  return ids;
}

export const updateDraft = (sql: Sql, id: number, d: NewDraft) =>
  sql.run("UPDATE drafts SET type = ?, to_ids = ?, topic = ?, content = ?, last_edit_time = ? WHERE id = ?", [d.type, d.to_ids, d.topic, d.content, d.last_edit_time, id]);

export const deleteDraft = (sql: Sql, id: number) => sql.run("DELETE FROM drafts WHERE id = ?", [id]);

export const deleteAllDrafts = (sql: Sql, userId: number) => sql.run("DELETE FROM drafts WHERE user_id = ?", [userId]);
