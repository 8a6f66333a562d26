import type { Sql } from "./db";

/** The messages the notification scan has not read yet (past the cursor), oldest first. */
export interface ScannedMessage {
  id: number;
  sender_id: number;
  stream_id: number | null;
  dm_key: string | null;
  topic: string;
  rendered_content: string;
  date_sent: number;
}

export const notifyCursor = async (sql: Sql) => (await sql.get<{ last_message_id: number }>("SELECT last_message_id FROM notify_cursor WHERE id = 1"))?.last_message_id ?? 0;

export const setNotifyCursor = (sql: Sql, id: number) =>
  sql.run("INSERT INTO notify_cursor (id, last_message_id) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last_message_id = excluded.last_message_id", [id]);

export const listMessagesAfter = (sql: Sql, afterId: number, limit: number) =>
  sql.all<ScannedMessage>("SELECT id, sender_id, stream_id, dm_key, topic, rendered_content, date_sent FROM messages WHERE id > ? ORDER BY id LIMIT ?", [afterId, limit]);

const marks = (n: number) => Array(n).fill("?").join(",");

/** The recipients' unread rows of these messages (read ones never notify). */
export const listUnreadRecipients = (sql: Sql, messageIds: number[]) =>
  sql.all<{ user_id: number; message_id: number; flags: number }>(`SELECT user_id, message_id, flags FROM user_messages WHERE message_id IN (${marks(messageIds.length)}) AND (flags & 1) = 0`, messageIds);

export interface SubscriptionNotifyRow {
  user_id: number;
  stream_id: number;
  is_muted: number;
  email_notifications: number | null;
  push_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

export const listSubscriptionNotifySettings = (sql: Sql, streamIds: number[]) =>
  sql.all<SubscriptionNotifyRow>(
    `SELECT user_id, stream_id, is_muted, email_notifications, push_notifications, wildcard_mentions_notify FROM subscriptions WHERE stream_id IN (${marks(streamIds.length)}) AND active = 1`,
    streamIds,
  );

export const listTopicPolicies = (sql: Sql, streamIds: number[]) =>
  sql.all<{ user_id: number; stream_id: number; topic: string; visibility_policy: number }>(
    `SELECT user_id, stream_id, topic, visibility_policy FROM user_topics WHERE stream_id IN (${marks(streamIds.length)})`,
    streamIds,
  );

export const listMutersOf = (sql: Sql, senderIds: number[]) =>
  sql.all<{ user_id: number; muted_user_id: number }>(`SELECT user_id, muted_user_id FROM muted_users WHERE muted_user_id IN (${marks(senderIds.length)})`, senderIds);

export const listLastActive = (sql: Sql, userIds: number[]) =>
  sql.all<{ user_id: number; last_active_time: number | null }>(`SELECT user_id, last_active_time FROM presence WHERE user_id IN (${marks(userIds.length)})`, userIds);

export interface MissedRow {
  user_id: number;
  message_id: number;
  trigger: string;
  mentioned_group_id: number | null;
  due: number;
}

export async function insertMissedRows(sql: Sql, rows: MissedRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    await sql.run(
      `INSERT OR IGNORE INTO missed_message_emails (user_id, message_id, trigger, mentioned_group_id, due) VALUES ${chunk.map(() => "(?, ?, ?, ?, ?)").join(",")}`,
      chunk.flatMap((r) => [r.user_id, r.message_id, r.trigger, r.mentioned_group_id, r.due]),
    );
  }
}

/** Users whose first waiting notification is due (their batching period has passed). */
export const listUsersWithDueMissed = async (sql: Sql, now: number, limit: number) =>
  (await sql.all<{ user_id: number }>("SELECT user_id FROM missed_message_emails GROUP BY user_id HAVING MIN(due) <= ? LIMIT ?", [now, limit])).map((r) => r.user_id);

export const listMissedRows = (sql: Sql, userId: number) => sql.all<MissedRow>("SELECT * FROM missed_message_emails WHERE user_id = ? ORDER BY message_id", [userId]);

export const deleteMissedRows = (sql: Sql, userId: number, messageIds: number[]) =>
  sql.run(`DELETE FROM missed_message_emails WHERE user_id = ? AND message_id IN (${marks(messageIds.length)})`, [userId, ...messageIds]);

export const deleteAllMissedRows = (sql: Sql, userId: number) => sql.run("DELETE FROM missed_message_emails WHERE user_id = ?", [userId]);

export interface MissedMessage extends ScannedMessage {
  content: string;
}

/** Those of the messages the user still has unread (deleted ones are gone from messages). */
export const listStillUnread = (sql: Sql, userId: number, messageIds: number[]) =>
  sql.all<MissedMessage>(
    `SELECT m.id, m.sender_id, m.stream_id, m.dm_key, m.topic, m.content, m.rendered_content, m.date_sent FROM messages m
     JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
     WHERE m.id IN (${marks(messageIds.length)}) AND (um.flags & 1) = 0 ORDER BY m.id`,
    [userId, ...messageIds],
  );

/** Zulip's get_context_for_message: up to 5 earlier messages of the topic from the 15 minutes before, which the user has. */
export const listTopicContext = (sql: Sql, userId: number, m: Pick<ScannedMessage, "id" | "stream_id" | "topic" | "date_sent">) =>
  sql.all<MissedMessage>(
    `SELECT m.id, m.sender_id, m.stream_id, m.dm_key, m.topic, m.content, m.rendered_content, m.date_sent FROM messages m
     JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
     WHERE m.stream_id = ? AND m.topic = ? COLLATE NOCASE AND m.id < ? AND m.date_sent > ? ORDER BY m.id DESC LIMIT 5`,
    [userId, m.stream_id, m.topic, m.id, m.date_sent - 15 * 60],
  );

/** A named secret of this server, made by `make` the first time it is asked for. */
export async function serverSecret(sql: Sql, name: string, make: () => string): Promise<string> {
  await sql.run("INSERT OR IGNORE INTO server_secrets (name, value) VALUES (?, ?)", [name, make()]);
  return (await sql.get<{ value: string }>("SELECT value FROM server_secrets WHERE name = ?", [name]))!.value;
}
