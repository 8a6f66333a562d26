import type { FieldRow } from "../domain/profile-fields";
import type { Sql } from "./db";

export type { FieldRow } from "../domain/profile-fields";

export interface ValueRow {
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

export const listFields = (sql: Sql, realmId: number) =>
  sql.all<FieldRow>(`SELECT * FROM custom_profile_fields WHERE realm_id = ? ORDER BY "order", id`, [realmId]);

export const findField = (sql: Sql, realmId: number, id: number) =>
  sql.get<FieldRow>("SELECT * FROM custom_profile_fields WHERE realm_id = ? AND id = ?", [realmId, id]);

export const findFieldByName = (sql: Sql, realmId: number, name: string) =>
  sql.get<FieldRow>("SELECT * FROM custom_profile_fields WHERE realm_id = ? AND name = ? COLLATE NOCASE", [realmId, name]);

export const countSummaryFields = async (sql: Sql, realmId: number) =>
  (await sql.get<{ n: number }>("SELECT count(*) AS n FROM custom_profile_fields WHERE realm_id = ? AND display_in_profile_summary = 1", [realmId]))!.n;

export async function insertField(sql: Sql, f: Omit<FieldRow, "id" | "order">): Promise<number> {
  const { lastId } = await sql.run(
    `INSERT INTO custom_profile_fields (realm_id, name, hint, field_type, field_data, "order", display_in_profile_summary, required, editable_by_user)
     VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max("order"), 0) + 1 FROM custom_profile_fields WHERE realm_id = ?), ?, ?, ?)`,
    [f.realm_id, f.name, f.hint, f.field_type, f.field_data, f.realm_id, f.display_in_profile_summary, f.required, f.editable_by_user],
  );
  return lastId;
}

/** Every value of these users (one query), for user dicts' profile_data. */
export function listValuesOf(sql: Sql, userIds: number[] | "all", realmId: number) {
  if (userIds === "all") {
    return sql.all<ValueRow>(
      "SELECT v.* FROM custom_profile_values v JOIN custom_profile_fields f ON f.id = v.field_id WHERE f.realm_id = ? ORDER BY v.user_id, v.field_id",
      [realmId],
    );
  }
  if (!userIds.length) return Promise.resolve([] as ValueRow[]);
  return sql.all<ValueRow>(`SELECT * FROM custom_profile_values WHERE user_id IN (${userIds.map(() => "?").join(",")}) ORDER BY user_id, field_id`, userIds);
}

export const setValue = (sql: Sql, v: ValueRow) =>
  sql.run(
    `INSERT INTO custom_profile_values (user_id, field_id, value, rendered_value) VALUES (?, ?, ?, ?)
     ON CONFLICT (user_id, field_id) DO UPDATE SET value = excluded.value, rendered_value = excluded.rendered_value`,
    [v.user_id, v.field_id, v.value, v.rendered_value],
  );

export const deleteValue = (sql: Sql, userId: number, fieldId: number) =>
  sql.run("DELETE FROM custom_profile_values WHERE user_id = ? AND field_id = ?", [userId, fieldId]);

export const deleteValuesOf = (sql: Sql, userId: number) => sql.run("DELETE FROM custom_profile_values WHERE user_id = ?", [userId]);

export async function updateField(sql: Sql, id: number, fields: Partial<Omit<FieldRow, "id" | "realm_id">>) {
  const keys = Object.keys(fields);
  if (!keys.length) return;
  await sql.run(`UPDATE custom_profile_fields SET ${keys.map((k) => `"${k}" = ?`).join(", ")} WHERE id = ?`, [...keys.map((k) => (fields as any)[k]), id]);
}

export const deleteField = (sql: Sql, id: number) => sql.run("DELETE FROM custom_profile_fields WHERE id = ?", [id]);

/**
 * The full names of the realm's active users whose external-account field of this subtype ("github")
 * holds `name`; remembered until one of the three tables is written (every webhook request asks).
 */
export const listExternalAccountHolders = (sql: Sql, realmId: number, subtype: string, name: string) =>
  sql.memo(["custom_profile_fields", "custom_profile_values", "users"], `external-account\u0000${realmId}\u0000${subtype}\u0000${name}`, () =>
    sql.all<{ full_name: string }>(
      `SELECT u.full_name FROM custom_profile_fields f
       JOIN custom_profile_values v ON v.field_id = f.id
       JOIN users u ON u.id = v.user_id
       WHERE f.realm_id = ? AND f.field_type = 7 AND json_valid(f.field_data) AND f.field_data ->> '$.subtype' = ? AND v.value = ? AND u.is_active = 1`,
      [realmId, subtype, name],
    ),
  );
