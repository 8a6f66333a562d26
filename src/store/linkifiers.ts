import type { Sql } from "./db";

export interface LinkifierRow {
  id: number;
  realm_id: number;
  pattern: string;
  url_template: string;
  order: number;
}

export const listLinkifiers = (sql: Sql, realmId: number) =>
  sql.all<LinkifierRow>('SELECT * FROM linkifiers WHERE realm_id = ? ORDER BY "order", id', [realmId]);

export const findLinkifier = (sql: Sql, realmId: number, id: number) => sql.get<LinkifierRow>("SELECT * FROM linkifiers WHERE realm_id = ? AND id = ?", [realmId, id]);

export const findLinkifierByPattern = (sql: Sql, realmId: number, pattern: string) =>
  sql.get<LinkifierRow>("SELECT * FROM linkifiers WHERE realm_id = ? AND pattern = ?", [realmId, pattern]);

export async function insertLinkifier(sql: Sql, realmId: number, pattern: string, urlTemplate: string): Promise<number> {
  const { lastId } = await sql.run(
    'INSERT INTO linkifiers (realm_id, pattern, url_template, "order") VALUES (?, ?, ?, (SELECT COALESCE(MAX("order") + 1, 0) FROM linkifiers WHERE realm_id = ?))',
    [realmId, pattern, urlTemplate, realmId],
  );
  return lastId;
}

export const updateLinkifier = (sql: Sql, id: number, pattern: string, urlTemplate: string) =>
  sql.run("UPDATE linkifiers SET pattern = ?, url_template = ? WHERE id = ?", [pattern, urlTemplate, id]);

export const deleteLinkifier = (sql: Sql, id: number) => sql.run("DELETE FROM linkifiers WHERE id = ?", [id]);

/** Sets "order" to each id's position in `orderedIds`. */
export async function reorderLinkifiers(sql: Sql, orderedIds: number[]): Promise<void> {
  if (!orderedIds.length) return;
  await sql.batch(orderedIds.map((id, i) => ({ sql: 'UPDATE linkifiers SET "order" = ? WHERE id = ?', args: [i, id] })));
}
