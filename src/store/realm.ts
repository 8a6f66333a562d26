import type { Sql } from "./db";

export interface RealmRow {
  id: number;
  string_id: string;
  name: string;
  description: string;
  date_created: number;
  deactivated: number;
  settings: string;
  presence_sequence: number;
}

export const findRealm = (sql: Sql) => sql.get<RealmRow>("SELECT * FROM realm ORDER BY id LIMIT 1");

export async function insertRealm(sql: Sql, r: { name: string; description: string; dateCreated: number }) {
  const { lastId } = await sql.run("INSERT INTO realm (name, description, date_created) VALUES (?, ?, ?)", [r.name, r.description, r.dateCreated]);
  return lastId;
}

export async function updateRealm(sql: Sql, id: number, fields: Partial<Pick<RealmRow, "name" | "description" | "deactivated" | "settings">>) {
  const keys = Object.keys(fields);
  if (!keys.length) return;
  await sql.run(`UPDATE realm SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE id = ?`, [...keys.map((k) => (fields as any)[k]), id]);
}

export async function insertRecipient(sql: Sql, type: 1 | 2 | 3, typeId: number): Promise<number> {
  const { lastId } = await sql.run("INSERT INTO recipients (type, type_id) VALUES (?, ?)", [type, typeId]);
  return lastId;
}
