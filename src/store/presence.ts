import type { Sql } from "./db";

export interface PresenceRow {
  user_id: number;
  realm_id: number;
  last_active_time: number | null;
  last_connected_time: number | null;
  last_update_id: number;
}

/** A presence row joined with what formatting and filtering need from its user. */
export interface PresenceEntry extends PresenceRow {
  email: string;
  date_joined: number;
}

export const findPresence = (sql: Sql, userId: number) => sql.get<PresenceRow>("SELECT * FROM presence WHERE user_id = ?", [userId]);

/**
 * Writes a user's presence under the organization's next presence sequence number (the
 * `last_update_id` clients sync from), in two statements of the caller's transaction.
 */
export async function writePresence(sql: Sql, p: Omit<PresenceRow, "last_update_id">): Promise<number> {
  const seq = await sql.get<{ presence_sequence: number }>("UPDATE realm SET presence_sequence = presence_sequence + 1 WHERE id = ? RETURNING presence_sequence", [p.realm_id]);
  const id = seq!.presence_sequence;
  await sql.run(
    `INSERT INTO presence (user_id, realm_id, last_active_time, last_connected_time, last_update_id) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET last_active_time = excluded.last_active_time,
       last_connected_time = excluded.last_connected_time, last_update_id = excluded.last_update_id`,
    [p.user_id, p.realm_id, p.last_active_time, p.last_connected_time, id],
  );
  return id;
}

/** Users whose presence is shared: active humans who have not turned on invisible mode. */
const VISIBLE = `u.is_active = 1 AND u.is_bot = 0 AND COALESCE(json_extract(u.settings, '$.presence_enabled'), 1) != 0`;
const COLUMNS = "p.*, u.email AS email, u.date_joined AS date_joined";

/**
 * Presence rows of visible users changed after `afterUpdateId` (index presence_by_update) and/or
 * connected since `connectedSince` (index presence_by_connected).
 */
export async function listPresence(sql: Sql, realmId: number, filter: { afterUpdateId?: number; connectedSince?: number }): Promise<PresenceEntry[]> {
  const where = ["p.realm_id = ?"];
  const args: number[] = [realmId];
  if (filter.afterUpdateId !== undefined) {
    where.push("p.last_update_id > ?");
    args.push(filter.afterUpdateId);
  }
  if (filter.connectedSince !== undefined) {
    where.push("p.last_connected_time >= ?");
    args.push(filter.connectedSince);
  }
  return sql.all<PresenceEntry>(`SELECT ${COLUMNS} FROM presence p JOIN users u ON u.id = p.user_id WHERE ${where.join(" AND ")} AND ${VISIBLE} ORDER BY p.user_id`, args);
}

/** One visible user's presence (undefined when there is none or the user is invisible). */
export const findVisiblePresence = (sql: Sql, userId: number) =>
  sql.get<PresenceEntry>(`SELECT ${COLUMNS} FROM presence p JOIN users u ON u.id = p.user_id WHERE p.user_id = ? AND ${VISIBLE}`, [userId]);

/** An active user of the organization by id or API email (GET /users/{user_id_or_email}/presence). */
export const findActiveUserByIdOrEmail = (sql: Sql, realmId: number, ref: { id: number } | { email: string }) =>
  "id" in ref
    ? sql.get<{ id: number; email: string; bot_type: number | null; is_bot: number }>("SELECT id, email, bot_type, is_bot FROM users WHERE realm_id = ? AND id = ? AND is_active = 1", [realmId, ref.id])
    : sql.get<{ id: number; email: string; bot_type: number | null; is_bot: number }>(
        "SELECT id, email, bot_type, is_bot FROM users WHERE realm_id = ? AND email = ? COLLATE NOCASE AND is_active = 1",
        [realmId, ref.email],
      );
