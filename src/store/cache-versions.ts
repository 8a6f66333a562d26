import type { Sql } from "./db";
import type { UserRow } from "./users";

/** Table name → version, bumped by triggers on every write (see cache_versions in the schema). */
export async function readCacheVersions(sql: Sql): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const r of await sql.all<{ name: string; version: number }>("SELECT name, version FROM cache_versions")) out[r.name] = r.version;
  return out;
}

/** The user fields messages show and check (no secrets). */
export type DirectoryUserRow = Pick<
  UserRow,
  "id" | "realm_id" | "email" | "delivery_email" | "full_name" | "role" | "is_active" | "is_bot" | "bot_type" | "bot_owner_id" | "recipient_id" | "avatar_source" | "avatar_version" | "settings"
>;

/** Every user of the organization with the fields messages show and check (no secrets). */
export const listDirectoryUsers = (sql: Sql, realmId: number) =>
  sql.all<DirectoryUserRow>(
    `SELECT id, realm_id, email, delivery_email, full_name, role, is_active, is_bot, bot_type, bot_owner_id, recipient_id,
       avatar_source, avatar_version, settings FROM users WHERE realm_id = ?`,
    [realmId],
  );

/** Named, active user groups (mentions by name). */
export const listNamedGroups = (sql: Sql, realmId: number) =>
  sql.all<{ id: number; name: string; settings: string }>("SELECT id, name, settings FROM user_groups WHERE realm_id = ? AND name IS NOT NULL AND deactivated = 0", [realmId]);
