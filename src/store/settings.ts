import type { Sql } from "./db";

/** A user's personal settings row parts (users.settings JSON and the timezone column). */
export const findUserSettings = (sql: Sql, userId: number) =>
  sql.get<{ settings: string; timezone: string; password_hash: string | null }>("SELECT settings, timezone, password_hash FROM users WHERE id = ?", [userId]);

export const updateUserSettings = (sql: Sql, userId: number, json: string) => sql.run("UPDATE users SET settings = ? WHERE id = ?", [json, userId]);

export const updateUserTimezone = (sql: Sql, userId: number, timezone: string) => sql.run("UPDATE users SET timezone = ? WHERE id = ?", [timezone, userId]);

export const updatePasswordHash = (sql: Sql, userId: number, hash: string) => sql.run("UPDATE users SET password_hash = ? WHERE id = ?", [hash, userId]);

/** The organization's stored defaults for personal settings (JSON; '{}' when none were set). */
export async function findRealmUserDefaults(sql: Sql, realmId: number): Promise<string> {
  return (await sql.get<{ settings: string }>("SELECT settings FROM realm_user_defaults WHERE realm_id = ?", [realmId]))?.settings ?? "{}";
}

export const saveRealmUserDefaults = (sql: Sql, realmId: number, json: string) =>
  sql.run("INSERT INTO realm_user_defaults (realm_id, settings) VALUES (?, ?) ON CONFLICT (realm_id) DO UPDATE SET settings = excluded.settings", [realmId, json]);
