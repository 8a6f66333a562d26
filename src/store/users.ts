import type { Sql } from "./db";

export interface UserRow {
  id: number;
  realm_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: number;
  is_active: number;
  is_bot: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  api_key: string;
  password_hash: string | null;
  can_create_users: number;
  date_joined: number;
  timezone: string;
  avatar_source: string;
  avatar_version: number;
  is_imported_stub: number;
  recipient_id: number | null;
  settings: string;
}

export const findUserById = (sql: Sql, id: number) => sql.get<UserRow>("SELECT * FROM users WHERE id = ?", [id]);
export const findUserByApiKey = (sql: Sql, key: string) => sql.get<UserRow>("SELECT * FROM users WHERE api_key = ?", [key]);
export const findUserByEmail = (sql: Sql, realmId: number, email: string) =>
  sql.get<UserRow>("SELECT * FROM users WHERE realm_id = ? AND (email = ? COLLATE NOCASE OR delivery_email = ? COLLATE NOCASE)", [realmId, email, email]);
export const listUsers = (sql: Sql, realmId: number) => sql.all<UserRow>("SELECT * FROM users WHERE realm_id = ? ORDER BY id", [realmId]);
export const listUsersByIds = (sql: Sql, ids: number[]) =>
  ids.length ? sql.all<UserRow>(`SELECT * FROM users WHERE id IN (${ids.map(() => "?").join(",")})`, ids) : Promise.resolve([]);
export const countUsers = async (sql: Sql) => (await sql.get<{ n: number }>("SELECT count(*) AS n FROM users"))!.n;

export interface NewUser {
  realmId: number;
  email: string;
  deliveryEmail?: string;
  fullName: string;
  role: number;
  apiKey: string;
  passwordHash: string | null;
  canCreateUsers?: boolean;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  dateJoined: number;
  timezone?: string;
}

export async function insertUser(sql: Sql, u: NewUser): Promise<number> {
  const { lastId } = await sql.run(
    `INSERT INTO users (realm_id, email, delivery_email, full_name, role, api_key, password_hash, can_create_users,
       is_bot, bot_type, bot_owner_id, date_joined, timezone)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [u.realmId, u.email, u.deliveryEmail ?? u.email, u.fullName, u.role, u.apiKey, u.passwordHash, u.canCreateUsers ? 1 : 0,
      u.isBot ? 1 : 0, u.botType ?? null, u.botOwnerId ?? null, u.dateJoined, u.timezone ?? ""],
  );
  return lastId;
}

export async function updateUser(sql: Sql, id: number, fields: Partial<Omit<UserRow, "id">>) {
  const keys = Object.keys(fields);
  if (!keys.length) return;
  await sql.run(`UPDATE users SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE id = ?`, [...keys.map((k) => (fields as any)[k]), id]);
}
