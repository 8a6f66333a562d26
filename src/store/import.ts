import type { Sql } from "./db";
import { chunked } from "./chunks";

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

/** The next message id of an empty or growing messages table (ids are given by the importer, in time order). */
export const nextMessageId = async (sql: Sql) => ((await sql.get<{ m: number | null }>("SELECT max(id) AS m FROM messages"))?.m ?? 0) + 1;

/** Messages with the ids given (consecutive from `firstId`), in multi-row INSERTs. */
export async function insertImportedMessages(sql: Sql, realmId: number, firstId: number, rows: ImportedMessage[]) {
  let id = firstId;
  for (const part of chunked(rows, 200)) {
    const args: unknown[] = [];
    for (const m of part) {
      args.push(id++, realmId, m.senderId, m.recipientId, m.streamId, m.dmKey, m.topic, m.content, m.renderedContent, m.dateSent, "Import",
        m.hasAttachment ? 1 : 0, m.hasImage ? 1 : 0, m.hasLink ? 1 : 0, m.isMeMessage ? 1 : 0);
    }
    await sql.run(
      `INSERT INTO messages (id, realm_id, sender_id, recipient_id, stream_id, dm_key, topic, content, rendered_content, date_sent, client,
         has_attachment, has_image, has_link, is_me_message) VALUES ${part.map(() => "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)").join(",")}`,
      args,
    );
  }
}

/** Per-user message rows (flags as a bitmask), sorted for the primary key's order. */
export async function insertImportedUserMessages(sql: Sql, rows: { userId: number; messageId: number; flags: number }[]) {
  rows.sort((a, b) => a.userId - b.userId || a.messageId - b.messageId);
  for (const part of chunked(rows, 300)) {
    await sql.run(
      `INSERT OR IGNORE INTO user_messages (user_id, message_id, flags) VALUES ${part.map(() => "(?,?,?)").join(",")}`,
      part.flatMap((r) => [r.userId, r.messageId, r.flags]),
    );
  }
}

export async function insertImportedReactions(sql: Sql, rows: { messageId: number; userId: number; emojiName: string; emojiCode: string; reactionType: string }[]) {
  for (const part of chunked(rows, 200)) {
    await sql.run(
      `INSERT OR IGNORE INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES ${part.map(() => "(?,?,?,?,?)").join(",")}`,
      part.flatMap((r) => [r.messageId, r.userId, r.emojiName, r.emojiCode, r.reactionType]),
    );
  }
}

/** Subscriptions of imported channels (active, with the colour given). */
export async function insertImportedSubscriptions(sql: Sql, rows: { userId: number; streamId: number; color: string }[]) {
  for (const part of chunked(rows, 300)) {
    await sql.run(
      `INSERT OR IGNORE INTO subscriptions (user_id, stream_id, color, active) VALUES ${part.map(() => "(?,?,?,1)").join(",")}`,
      part.flatMap((r) => [r.userId, r.streamId, r.color]),
    );
  }
}

/** Channels' first_message_id, once their messages are in. */
export const setFirstMessageIds = (sql: Sql) =>
  sql.run("UPDATE streams SET first_message_id = (SELECT min(id) FROM messages m WHERE m.stream_id = streams.id)");
