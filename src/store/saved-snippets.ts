import type { Sql } from "./db";

export interface SavedSnippetRow {
  id: number;
  user_id: number;
  title: string;
  content: string;
  date_created: number;
}

export const listSavedSnippets = (sql: Sql, userId: number) => sql.all<SavedSnippetRow>("SELECT * FROM saved_snippets WHERE user_id = ? ORDER BY id", [userId]);

export const findSavedSnippet = (sql: Sql, userId: number, id: number) =>
  sql.get<SavedSnippetRow>("SELECT * FROM saved_snippets WHERE user_id = ? AND id = ?", [userId, id]);

export async function insertSavedSnippet(sql: Sql, s: Omit<SavedSnippetRow, "id">): Promise<number> {
  const { lastId } = await sql.run("INSERT INTO saved_snippets (user_id, title, content, date_created) VALUES (?, ?, ?, ?)", [s.user_id, s.title, s.content, s.date_created]);
  return lastId;
}

export const updateSavedSnippet = (sql: Sql, id: number, title: string, content: string) =>
  sql.run("UPDATE saved_snippets SET title = ?, content = ? WHERE id = ?", [title, content, id]);

export const deleteSavedSnippet = (sql: Sql, id: number) => sql.run("DELETE FROM saved_snippets WHERE id = ?", [id]);
