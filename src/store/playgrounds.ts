import type { Sql } from "./db";

export interface PlaygroundRow {
  id: number;
  realm_id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export const listPlaygrounds = (sql: Sql, realmId: number) =>
  sql.all<PlaygroundRow>("SELECT * FROM playgrounds WHERE realm_id = ? ORDER BY id", [realmId]);

export const findPlayground = (sql: Sql, realmId: number, id: number) =>
  sql.get<PlaygroundRow>("SELECT * FROM playgrounds WHERE realm_id = ? AND id = ?", [realmId, id]);

export const findPlaygroundByName = (sql: Sql, realmId: number, pygmentsLanguage: string, name: string) =>
  sql.get<PlaygroundRow>("SELECT * FROM playgrounds WHERE realm_id = ? AND pygments_language = ? AND name = ?", [realmId, pygmentsLanguage, name]);

export async function insertPlayground(sql: Sql, p: Omit<PlaygroundRow, "id">): Promise<number> {
  const { lastId } = await sql.run("INSERT INTO playgrounds (realm_id, name, pygments_language, url_template) VALUES (?, ?, ?, ?)", [
    p.realm_id,
    p.name,
    p.pygments_language,
    p.url_template,
  ]);
  return lastId;
}

export const deletePlayground = (sql: Sql, id: number) => sql.run("DELETE FROM playgrounds WHERE id = ?", [id]);
