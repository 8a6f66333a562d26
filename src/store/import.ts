import type { Sql } from "./db";

/**
 * Bulk writes for importers (src/import/): an import fills an empty database, so rows go in as
 * multi-row INSERTs inside the importer's transactions, without the per-row checks of a send.
 */

export interface ImportedMessage {
  senderId: number;
  recipientId: number;
  streamId: number | null;
  dmKey: string | null;
  topic: string;
  content: string;
  renderedContent: string;
  dateSent: number;
  hasAttachment: boolean;
  hasImage: boolean;
  hasLink: boolean;
  isMeMessage: boolean;
}

/**
 * Rows in multi-row INSERTs of exactly `per` rows, the rest one row at a time: two statement texts
 * per table, so the connection's statement cache holds two prepared statements instead of one per
 * remainder length (a prepared statement's native memory grows with its text).
 */
async function insertRows(sql: Sql, head: string, row: string, per: number, values: unknown[][]) {
  const many = `${head} VALUES ${Array(per).fill(row).join(",")}`;
  const one = `${head} VALUES ${row}`;
  let i = 0;
  for (; i + per <= values.length; i += per) await sql.run(many, values.slice(i, i + per).flat());
  for (; i < values.length; i++) await sql.run(one, values[i]!);
}

/** The next message id of an empty or growing messages table (ids are given by the importer, in time order). */
export const nextMessageId = async (sql: Sql) => ((await sql.get<{ m: number | null }>("SELECT max(id) AS m FROM messages"))?.m ?? 0) + 1;

/** Messages with the ids given (consecutive from `firstId`), in multi-row INSERTs. */
export async function insertImportedMessages(sql: Sql, realmId: number, firstId: number, rows: ImportedMessage[]) {
  let id = firstId;
  const values = rows.map((m) => [id++, realmId, m.senderId, m.recipientId, m.streamId, m.dmKey, m.topic, m.content, m.renderedContent, m.dateSent, "Import",
    m.hasAttachment ? 1 : 0, m.hasImage ? 1 : 0, m.hasLink ? 1 : 0, m.isMeMessage ? 1 : 0]);
  await insertRows(sql, `INSERT INTO messages (id, realm_id, sender_id, recipient_id, stream_id, dm_key, topic, content, rendered_content, date_sent, client,
    has_attachment, has_image, has_link, is_me_message)`, "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", 100, values);
}

/** Per-user message rows (flags as a bitmask), sorted for the primary key's order. */
export async function insertImportedUserMessages(sql: Sql, rows: { userId: number; messageId: number; flags: number }[]) {
  rows.sort((a, b) => a.userId - b.userId || a.messageId - b.messageId);
  await insertRows(sql, "INSERT OR IGNORE INTO user_messages (user_id, message_id, flags)", "(?,?,?)", 500, rows.map((r) => [r.userId, r.messageId, r.flags]));
}

export async function insertImportedReactions(sql: Sql, rows: { messageId: number; userId: number; emojiName: string; emojiCode: string; reactionType: string }[]) {
  await insertRows(sql, "INSERT OR IGNORE INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type)", "(?,?,?,?,?)", 100,
    rows.map((r) => [r.messageId, r.userId, r.emojiName, r.emojiCode, r.reactionType]));
}

/** Subscriptions of imported channels (active, with the colour given). */
export async function insertImportedSubscriptions(sql: Sql, rows: { userId: number; streamId: number; color: string }[]) {
  await insertRows(sql, "INSERT OR IGNORE INTO subscriptions (user_id, stream_id, color, active)", "(?,?,?,1)", 100, rows.map((r) => [r.userId, r.streamId, r.color]));
}

/** Channels' first_message_id, once their messages are in. */
export const setFirstMessageIds = (sql: Sql) =>
  sql.run("UPDATE streams SET first_message_id = (SELECT min(id) FROM messages m WHERE m.stream_id = streams.id)");
