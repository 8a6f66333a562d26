import type { Sql } from "./db";

/**
 * The deferred full-text index: messages_fts holds every message with id <= last_id
 * (messages_fts_indexed); newer ones wait for indexPendingMessages. Ids only grow, so the
 * watermark never skips a message.
 */

/** The newest message id and the newest one indexed (equal when nothing is pending). */
export const searchIndexState = async (sql: Sql) =>
  (await sql.get<{ newest: number; indexed: number }>(
    "SELECT coalesce((SELECT max(id) FROM messages), 0) AS newest, (SELECT last_id FROM messages_fts_indexed) AS indexed",
  ))!;

/**
 * Indexes up to `limit` messages after the watermark, oldest first, and moves the watermark past
 * them, in the caller's transaction. Returns how many were indexed (fewer than `limit`: caught up).
 */
export async function indexPendingMessages(sql: Sql, limit: number): Promise<number> {
  const row = await sql.get<{ last: number; upto: number | null; n: number }>(
    `SELECT i.last_id AS last, max(p.id) AS upto, count(p.id) AS n FROM messages_fts_indexed i
     LEFT JOIN (SELECT id FROM messages WHERE id > (SELECT last_id FROM messages_fts_indexed) ORDER BY id LIMIT ?) p`,
    [limit],
  );
  if (!row || row.upto === null) return 0;
  await sql.run("INSERT INTO messages_fts (rowid, topic, content) SELECT id, topic, content FROM messages WHERE id > ? AND id <= ? ORDER BY id", [row.last, row.upto]);
  await sql.run("UPDATE messages_fts_indexed SET last_id = ?", [row.upto]);
  return row.n;
}

/** After the whole index was rebuilt from the messages (copying a database): nothing is pending. */
export const markAllIndexed = (sql: Sql) => sql.run("UPDATE messages_fts_indexed SET last_id = (SELECT coalesce(max(id), 0) FROM messages)");
