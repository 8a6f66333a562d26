import type { InValue } from "@libsql/client";
import type { Sql } from "./db";
import { chunked } from "./messages";

/**
 * A user's unread messages are their rows from their unread floor on (the tail, scanned through the
 * primary key) that are unread, and the rows listed in unread_before_floor (see migration 0002).
 * Tail ids are all at or above the floor, listed ids all below it: the two parts never overlap
 * and are already in order one after the other.
 */

const FLOOR = "coalesce((SELECT message_id FROM unread_floors WHERE user_id = ?), 0)";

/** SQL for the set of the user's unread message ids (for `message_id IN (…)`); pushes its arguments. */
export function unreadIdsSql(userId: number, args: InValue[]): string {
  args.push(userId, userId, userId);
  return `SELECT message_id FROM unread_before_floor WHERE user_id = ?
    UNION ALL SELECT message_id FROM user_messages WHERE user_id = ? AND message_id >= ${FLOOR} AND (flags & 1) = 0`;
}

export const findUnreadFloor = async (sql: Sql, userId: number) =>
  (await sql.get<{ f: number }>(`SELECT ${FLOOR} AS f`, [userId]))!.f;

/** Whether the user has any row at or above their floor. */
export const hasRowsAboveFloor = async (sql: Sql, userId: number) =>
  (await sql.get(`SELECT 1 AS x FROM user_messages WHERE user_id = ? AND message_id >= ${FLOOR} LIMIT 1`, [userId, userId])) !== undefined;

/**
 * Rows just inserted for messages that may be below their user's floor (old messages: flags set on
 * a message never received, messages moved into a channel): the unread ones are listed. A new
 * message's rows need nothing, since its id is above every floor.
 */
export async function listUnreadBelowFloor(sql: Sql, rows: { userId: number; messageId: number; flags: number }[]) {
  const unread = rows.filter((r) => (r.flags & 1) === 0);
  for (const part of chunked(unread, 200)) {
    await sql.run(
      `INSERT OR IGNORE INTO unread_before_floor (user_id, message_id)
       SELECT um.user_id, um.message_id FROM user_messages um
       WHERE (um.user_id, um.message_id) IN (VALUES ${part.map(() => "(?,?)").join(",")}) AND (um.flags & 1) = 0
         AND um.message_id < coalesce((SELECT message_id FROM unread_floors f WHERE f.user_id = um.user_id), 0)`,
      part.flatMap((r) => [r.userId, r.messageId]),
    );
  }
}

/**
 * Moves the user's floor up past at most `maxRows` of their tail, listing the unread rows it passes
 * (one sequential insert). Answers how many rows it passed; fewer than `maxRows`: the tail is empty.
 */
export async function raiseUnreadFloor(sql: Sql, userId: number, maxRows: number): Promise<number> {
  const floor = await findUnreadFloor(sql, userId);
  const r = await sql.get<{ upto: number | null; n: number }>(
    "SELECT max(message_id) AS upto, count(*) AS n FROM (SELECT message_id FROM user_messages WHERE user_id = ? AND message_id >= ? ORDER BY message_id LIMIT ?)",
    [userId, floor, maxRows],
  );
  if (!r || r.upto === null) return 0;
  await sql.run(
    "INSERT OR IGNORE INTO unread_before_floor (user_id, message_id) SELECT user_id, message_id FROM user_messages WHERE user_id = ? AND message_id >= ? AND message_id <= ? AND (flags & 1) = 0",
    [userId, floor, r.upto],
  );
  await sql.run("INSERT INTO unread_floors (user_id, message_id) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET message_id = excluded.message_id", [userId, r.upto + 1]);
  return r.n;
}
