import type { Sql } from "./db";

export interface ScheduledMessageRow {
  id: number;
  realm_id: number;
  sender_id: number;
  /** 'stream' or 'private' */
  type: string;
  stream_id: number | null;
  /** JSON list of the recipients other than the sender (or just the sender, for a note to self) */
  to_user_ids: string | null;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_timestamp: number;
  read_by_sender: number | null;
  client: string;
  delivered: number;
  delivered_message_id: number | null;
  failed: number;
  failure_message: string | null;
  created: number;
}

export type NewScheduledMessage = Omit<ScheduledMessageRow, "id" | "delivered" | "delivered_message_id" | "failed" | "failure_message">;

/** The fields an edit may change. */
export type ScheduledMessageChanges = Partial<
  Pick<ScheduledMessageRow, "type" | "stream_id" | "to_user_ids" | "topic" | "content" | "rendered_content" | "scheduled_timestamp" | "client" | "failed" | "failure_message">
>;

export async function insertScheduledMessage(sql: Sql, m: NewScheduledMessage): Promise<number> {
  const r = await sql.run(
    `INSERT INTO scheduled_messages (realm_id, sender_id, type, stream_id, to_user_ids, topic, content, rendered_content, scheduled_timestamp, read_by_sender, client, created)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [m.realm_id, m.sender_id, m.type, m.stream_id, m.to_user_ids, m.topic, m.content, m.rendered_content, m.scheduled_timestamp, m.read_by_sender, m.client, m.created],
  );
  return r.lastId;
}

/** One of the sender's scheduled messages (delivered or not). */
export const findScheduledMessage = (sql: Sql, senderId: number, id: number) =>
  sql.get<ScheduledMessageRow>("SELECT * FROM scheduled_messages WHERE id = ? AND sender_id = ?", [id, senderId]);

export const findScheduledMessageById = (sql: Sql, id: number) => sql.get<ScheduledMessageRow>("SELECT * FROM scheduled_messages WHERE id = ?", [id]);

/** The sender's undelivered scheduled messages (failed ones included), soonest first. */
export const listUndeliveredScheduledMessages = (sql: Sql, senderId: number) =>
  sql.all<ScheduledMessageRow>("SELECT * FROM scheduled_messages WHERE sender_id = ? AND delivered = 0 ORDER BY scheduled_timestamp, id", [senderId]);

/** Pending messages whose time has come, oldest first (the scheduled_messages_due index). */
export const listDueScheduledMessages = (sql: Sql, now: number, limit: number) =>
  sql.all<ScheduledMessageRow>(
    "SELECT * FROM scheduled_messages WHERE delivered = 0 AND failed = 0 AND scheduled_timestamp <= ? ORDER BY scheduled_timestamp, id LIMIT ?",
    [now, limit],
  );

/** Applies an edit to a still-undelivered message; false when it was delivered meanwhile. */
export async function updateScheduledMessage(sql: Sql, id: number, fields: ScheduledMessageChanges): Promise<boolean> {
  const keys = Object.keys(fields) as (keyof ScheduledMessageChanges)[];
  if (!keys.length) return true;
  const r = await sql.run(`UPDATE scheduled_messages SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE id = ? AND delivered = 0`, [
    ...keys.map((k) => fields[k] ?? null),
    id,
  ]);
  return r.changes > 0;
}

export const deleteScheduledMessage = (sql: Sql, id: number) => sql.run("DELETE FROM scheduled_messages WHERE id = ?", [id]);

/** Matches the row only while it is still pending and exactly the version read (not edited or cancelled since). */
const STILL_AS_READ = `WHERE id = ? AND delivered = 0 AND failed = 0 AND scheduled_timestamp = ? AND content = ? AND topic = ?
  AND type = ? AND stream_id IS ? AND to_user_ids IS ?`;
const asRead = (row: ScheduledMessageRow) => [row.id, row.scheduled_timestamp, row.content, row.topic, row.type, row.stream_id, row.to_user_ids];

/**
 * Marks a pending message delivered, but only if it is still exactly the version the deliverer read
 * (not delivered, failed, edited or cancelled meanwhile). Returns whether it did.
 */
export async function claimDelivery(sql: Sql, row: ScheduledMessageRow, messageId: number): Promise<boolean> {
  const r = await sql.run(`UPDATE scheduled_messages SET delivered = 1, delivered_message_id = ? ${STILL_AS_READ}`, [messageId, ...asRead(row)]);
  return r.changes > 0;
}

/** Marks a pending message failed (if it still is the version read); returns whether it did. */
export async function markScheduledMessageFailed(sql: Sql, row: ScheduledMessageRow, message: string): Promise<boolean> {
  const r = await sql.run(`UPDATE scheduled_messages SET failed = 1, failure_message = ? ${STILL_AS_READ}`, [message, ...asRead(row)]);
  return r.changes > 0;
}
