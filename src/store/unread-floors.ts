import type { InValue } from "@libsql/client";
import type { Sql } from "./db";
import { chunked } from "./chunks";

/**
 * A user's unread messages are the unread rows from their unread floor on (the tail, scanned through
 * the primary key) and the unread rows inside their unread ranges, all below the floor (migrations
 * 0002 and 0003). Tail ids are all at or above the floor and range ids below it, and ranges never
 * overlap: walking the ranges in order, then the tail, gives the unread rows in order.
 */

const FLOOR = "coalesce((SELECT message_id FROM unread_floors WHERE user_id = ?), 0)";
/** FROM and WHERE for the user's unread rows inside their ranges (as r and um; one argument: the user). */
export const IN_RANGES = "unread_ranges r JOIN user_messages um ON um.user_id = r.user_id AND um.message_id BETWEEN r.first_id AND r.last_id";
export const IN_RANGES_WHERE = "r.user_id = ? AND (um.flags & 1) = 0";

/** A raise makes a range per this many rows it passes, so a range spans at most this many of the user's rows. */
const RANGE_ROWS = 1_000;

/** SQL for the set of the user's unread message ids (for `message_id IN (…)`); pushes its arguments. */
export function unreadIdsSql(userId: number, args: InValue[]): string {
  args.push(userId, userId, userId);
  return `SELECT um.message_id FROM ${IN_RANGES} WHERE ${IN_RANGES_WHERE}
    UNION ALL SELECT message_id FROM user_messages WHERE user_id = ? AND message_id >= ${FLOOR} AND (flags & 1) = 0`;
}

export const findUnreadFloor = async (sql: Sql, userId: number) =>
  (await sql.get<{ f: number }>(`SELECT ${FLOOR} AS f`, [userId]))!.f;

/** Whether the user has any row at or above their floor, read or not. */
export const hasRowsAboveFloor = async (sql: Sql, userId: number) =>
  (await sql.get(`SELECT 1 AS x FROM user_messages WHERE user_id = ? AND message_id >= ${FLOOR} LIMIT 1`, [userId, userId])) !== undefined;

/**
 * Rows just inserted for messages that may be below their user's floor (old messages: flags set on
 * a message never received, messages moved into a channel): an unread one outside every range gets a
 * range of its own. A new message's rows need nothing, since its id is above every floor.
 */
export async function coverUnreadBelowFloor(sql: Sql, rows: { userId: number; messageId: number; flags: number }[]) {
  for (const r of rows) {
    if ((r.flags & 1) !== 0) continue;
    await sql.run(
      `INSERT OR IGNORE INTO unread_ranges (user_id, first_id, last_id)
       SELECT um.user_id, um.message_id, um.message_id FROM user_messages um
       WHERE um.user_id = ? AND um.message_id = ? AND (um.flags & 1) = 0 AND um.message_id < ${FLOOR}
         AND coalesce((SELECT last_id FROM unread_ranges WHERE user_id = um.user_id AND first_id <= um.message_id ORDER BY first_id DESC LIMIT 1), 0) < um.message_id`,
      [r.userId, r.messageId, r.userId],
    );
  }
}

/** A range left with at most this many unread rows becomes one range per row (exact, nothing to skip). */
const FEW_UNREAD = 16;

/**
 * After some of the user's rows were marked read: tightens each range that holds one of them. A range
 * with no unread row left goes, one with a few becomes a range per unread row, and a larger one
 * shrinks to its first and last unread row. A range spans at most RANGE_ROWS rows when made and
 * never grows, so each costs one bounded scan; without this, a channel the user never reads would
 * keep ranges over everything else they read.
 */
export async function tightenRanges(sql: Sql, userId: number, readIds: number[]) {
  const ranges = new Map<number, number>();
  for (const part of chunked(readIds)) {
    const rows = await sql.all<{ first_id: number; last_id: number }>(
      `SELECT DISTINCT r.first_id, r.last_id FROM (VALUES ${part.map(() => "(?)").join(",")}) v
       JOIN unread_ranges r ON r.user_id = ? AND r.first_id = (SELECT first_id FROM unread_ranges WHERE user_id = ? AND first_id <= v.column1 ORDER BY first_id DESC LIMIT 1)
       WHERE r.last_id >= v.column1`,
      [...part, userId, userId],
    );
    for (const r of rows) ranges.set(r.first_id, r.last_id);
  }
  for (const [first, last] of ranges) {
    const unread = (
      await sql.all<{ message_id: number }>(
        "SELECT message_id FROM user_messages WHERE user_id = ? AND message_id BETWEEN ? AND ? AND (flags & 1) = 0 ORDER BY message_id LIMIT ?",
        [userId, first, last, FEW_UNREAD + 1],
      )
    ).map((r) => r.message_id);
    let spans: [number, number][];
    if (unread.length <= FEW_UNREAD) spans = unread.map((id) => [id, id]);
    else {
      const hi = (await sql.get<{ m: number }>("SELECT max(message_id) AS m FROM user_messages WHERE user_id = ? AND message_id BETWEEN ? AND ? AND (flags & 1) = 0", [userId, first, last]))!.m;
      if (unread[0] === first && hi === last) continue;
      spans = [[unread[0]!, hi]];
    }
    await sql.run("DELETE FROM unread_ranges WHERE user_id = ? AND first_id = ?", [userId, first]);
    for (const [lo, hi] of spans) await sql.run("INSERT INTO unread_ranges (user_id, first_id, last_id) VALUES (?, ?, ?)", [userId, lo, hi]);
  }
}

/**
 * Moves the user's floor up past at most `maxRows` of their tail, adding a range per RANGE_ROWS rows
 * passed that hold an unread one (two scans of the rows, no write per row). Answers how many rows it
 * passed; fewer than `maxRows`: the tail is empty.
 */
export async function raiseUnreadFloor(sql: Sql, userId: number, maxRows: number): Promise<number> {
  let floor = await findUnreadFloor(sql, userId);
  let passed = 0;
  while (passed < maxRows) {
    const limit = Math.min(RANGE_ROWS, maxRows - passed);
    const r = await sql.get<{ upto: number | null; n: number }>(
      "SELECT max(message_id) AS upto, count(*) AS n FROM (SELECT message_id FROM user_messages WHERE user_id = ? AND message_id >= ? ORDER BY message_id LIMIT ?)",
      [userId, floor, limit],
    );
    if (!r || r.upto === null) break;
    await sql.run(
      `INSERT INTO unread_ranges (user_id, first_id, last_id)
       SELECT ?1, lo, hi FROM (SELECT min(message_id) AS lo, max(message_id) AS hi FROM user_messages
         WHERE user_id = ?1 AND message_id >= ?2 AND message_id <= ?3 AND (flags & 1) = 0) WHERE lo IS NOT NULL`,
      [userId, floor, r.upto],
    );
    passed += r.n;
    floor = r.upto + 1;
    if (r.n < limit) break;
  }
  if (passed) await sql.run("INSERT INTO unread_floors (user_id, message_id) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET message_id = excluded.message_id", [userId, floor]);
  return passed;
}
