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
  default_sending_stream_id: number | null;
  default_events_register_stream_id: number | null;
  default_all_public_streams: number;
}

export const findUserById = (sql: Sql, id: number) => sql.get<UserRow>("SELECT * FROM users WHERE id = ?", [id]);
/** Every authenticated request asks this: remembered until a write to users commits (treat as read-only). */
export const findUserByApiKey = (sql: Sql, key: string) =>
  sql.memo(["users"], `users:api_key:${key}`, () => sql.get<UserRow>("SELECT * FROM users WHERE api_key = ?", [key]));
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
  defaultSendingStreamId?: number | null;
  defaultEventsRegisterStreamId?: number | null;
  defaultAllPublicStreams?: boolean;
}

export async function insertUser(sql: Sql, u: NewUser): Promise<number> {
  const { lastId } = await sql.run(
    `INSERT INTO users (realm_id, email, delivery_email, full_name, role, api_key, password_hash, can_create_users,
       is_bot, bot_type, bot_owner_id, date_joined, timezone,
       default_sending_stream_id, default_events_register_stream_id, default_all_public_streams)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [u.realmId, u.email, u.deliveryEmail ?? u.email, u.fullName, u.role, u.apiKey, u.passwordHash, u.canCreateUsers ? 1 : 0,
      u.isBot ? 1 : 0, u.botType ?? null, u.botOwnerId ?? null, u.dateJoined, u.timezone ?? "",
      u.defaultSendingStreamId ?? null, u.defaultEventsRegisterStreamId ?? null, u.defaultAllPublicStreams ? 1 : 0],
  );
  return lastId;
}

export async function updateUser(sql: Sql, id: number, fields: Partial<Omit<UserRow, "id">>) {
  const keys = Object.keys(fields);
  if (!keys.length) return;
  await sql.run(`UPDATE users SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE id = ?`, [...keys.map((k) => (fields as any)[k]), id]);
}

/** Ids of the organization's active users (humans and bots): the audience of organization-wide events. */
/** Every user id of every organization, deactivated users and bots included. */
export const listAllUserIds = async (sql: Sql) => (await sql.all<{ id: number }>("SELECT id FROM users ORDER BY id")).map((r) => r.id);

export const listActiveUserIds = async (sql: Sql, realmId: number) =>
  (await sql.all<{ id: number }>("SELECT id FROM users WHERE realm_id = ? AND is_active = 1 ORDER BY id", [realmId])).map((r) => r.id);

/** Active users holding one of `roles` (e.g. the administrators who receive realm_bot events). */
export const listActiveUserIdsWithRoles = async (sql: Sql, realmId: number, roles: number[]) =>
  (await sql.all<{ id: number }>(
    `SELECT id FROM users WHERE realm_id = ? AND is_active = 1 AND role IN (${roles.map(() => "?").join(",")}) ORDER BY id`,
    [realmId, ...roles],
  )).map((r) => r.id);

export const countActiveUsers = async (sql: Sql, realmId: number, opts: { role?: number; humansOnly?: boolean } = {}) =>
  (await sql.get<{ n: number }>(
    `SELECT count(*) AS n FROM users WHERE realm_id = ? AND is_active = 1${opts.role !== undefined ? " AND role = ?" : ""}${opts.humansOnly ? " AND is_bot = 0" : ""}`,
    opts.role !== undefined ? [realmId, opts.role] : [realmId],
  ))!.n;

export const listBotsOwnedBy = (sql: Sql, ownerId: number, activeOnly: boolean) =>
  sql.all<UserRow>(`SELECT * FROM users WHERE bot_owner_id = ? AND is_bot = 1${activeOnly ? " AND is_active = 1" : ""} ORDER BY id`, [ownerId]);

export const listBots = (sql: Sql, realmId: number) => sql.all<UserRow>("SELECT * FROM users WHERE realm_id = ? AND is_bot = 1 ORDER BY id", [realmId]);

/** An active user (other than `exceptId`) already named `fullName`: bot names and require_unique_names. */
export const findActiveUserByFullName = (sql: Sql, realmId: number, fullName: string, exceptId = 0) =>
  sql.get<UserRow>("SELECT * FROM users WHERE realm_id = ? AND is_active = 1 AND full_name = ? COLLATE NOCASE AND id != ? LIMIT 1", [realmId, fullName, exceptId]);

export const deleteSessionsOf = (sql: Sql, userId: number) => sql.run("DELETE FROM sessions WHERE user_id = ?", [userId]);

/** The newest message id a user received, or -1 (GET /users/me max_message_id). */
export const maxMessageIdOf = async (sql: Sql, userId: number) =>
  (await sql.get<{ m: number | null }>("SELECT max(message_id) AS m FROM user_messages WHERE user_id = ?", [userId]))?.m ?? -1;

/**
 * The users a guest with limited access can see (Zulip's get_accessible_user_ids): everyone
 * subscribed to a channel the guest is subscribed to, everyone they exchanged direct messages with,
 * and the system bots.
 */
export async function listAccessibleUserIds(sql: Sql, userId: number): Promise<Set<number>> {
  const [peers, dms, bots] = await Promise.all([
    sql.all<{ user_id: number }>(
      `SELECT DISTINCT s2.user_id FROM subscriptions s1 JOIN subscriptions s2 ON s2.stream_id = s1.stream_id AND s2.active = 1
       WHERE s1.user_id = ? AND s1.active = 1`,
      [userId],
    ),
    sql.all<{ dm_key: string }>(
      `SELECT DISTINCT m.dm_key FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND m.dm_key IS NOT NULL`,
      [userId],
    ),
    // bots are everyone's to see, whoever owns them (Zulip's user_access_restricted_in_realm)
    sql.all<{ id: number }>("SELECT id FROM users WHERE is_bot = 1 AND realm_id = (SELECT realm_id FROM users WHERE id = ?)", [userId]),
  ]);
  const out = new Set<number>([userId]);
  for (const b of bots) out.add(b.id);
  for (const p of peers) out.add(p.user_id);
  for (const d of dms) for (const id of d.dm_key.split(",")) if (id) out.add(Number(id));
  return out;
}

/** Channel names by id (bots' default channels are shown by name). */
export const listStreamNames = (sql: Sql, ids: number[]) =>
  ids.length ? sql.all<{ id: number; name: string }>(`SELECT id, name FROM streams WHERE id IN (${ids.map(() => "?").join(",")})`, ids) : Promise.resolve([]);

/** A channel by name, for bots' default channels (with whether `userId` is subscribed). */
export const findStreamForUser = (sql: Sql, realmId: number, name: string, userId: number) =>
  sql.get<{ id: number; name: string; invite_only: number; subscribed: number }>(
    `SELECT s.id, s.name, s.invite_only,
       EXISTS (SELECT 1 FROM subscriptions x WHERE x.stream_id = s.id AND x.user_id = ? AND x.active = 1) AS subscribed
     FROM streams s WHERE s.realm_id = ? AND s.name = ? COLLATE NOCASE AND s.is_archived = 0`,
    [userId, realmId, name],
  );
