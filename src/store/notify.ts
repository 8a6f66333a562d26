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

/** What the scan needs of a message to decide (its HTML is read only for the few group mentions). */
export type MessageHead = Pick<ScannedMessage, "id" | "sender_id" | "stream_id" | "topic" | "date_sent">;

export const listMessageHeadsAfter = (sql: Sql, afterId: number, limit: number) =>
  sql.all<MessageHead>("SELECT id, sender_id, stream_id, topic, date_sent FROM messages WHERE id > ? ORDER BY id LIMIT ?", [afterId, limit]);

/** The HTML of those of the messages that mention a group (most mentions are personal: their HTML stays in the database). */
export const listGroupMentionContent = (sql: Sql, messageIds: number[]) =>
  sql.all<{ id: number; rendered_content: string }>(
    "SELECT id, rendered_content FROM messages WHERE id IN (SELECT value FROM json_each(?)) AND instr(rendered_content, 'data-user-group-id') > 0",
    [JSON.stringify(messageIds)],
  );

const marks = (n: number) => Array(n).fill("?").join(",");

/**
 * The flags of a mention (mentioned, stream and topic wildcard), written out as the partial index
 * user_messages_mentioned says them: the query below must repeat its condition word for word for
 * SQLite to use it (left to itself, the planner walks the table's key instead: every row of the person).
 */
export const MENTION_FLAG_BITS = 56;

/**
 * The unread rows of the messages `firstId`..`lastId` that may notify, without reading the others: the
 * rows of the direct messages among them (`directIds`), the mentions of `subscriberIds` (through the
 * partial index of mentions: one seek per person, not a row per recipient and message), and every row
 * of `candidateIds` (whose settings may notify without a mention). The lists go as JSON: one statement
 * text whatever their lengths, and no bound on how many values.
 */
export const listMaybeNotifiedRows = (sql: Sql, firstId: number, lastId: number, directIds: number[], subscriberIds: number[], candidateIds: number[]) =>
  sql.all<{ user_id: number; message_id: number; flags: number }>(
    `SELECT user_id, message_id, flags FROM user_messages INDEXED BY user_messages_mentioned
       WHERE user_id IN (SELECT value FROM json_each(?3)) AND message_id BETWEEN ?1 AND ?2 AND (flags & 56) != 0 AND (flags & 1) = 0
     UNION
     SELECT user_id, message_id, flags FROM user_messages
       WHERE user_id IN (SELECT value FROM json_each(?4)) AND message_id BETWEEN ?1 AND ?2 AND (flags & 1) = 0
     UNION
     SELECT user_id, message_id, flags FROM user_messages
       WHERE message_id IN (SELECT value FROM json_each(?5)) AND (flags & 1) = 0`,
    [firstId, lastId, JSON.stringify(subscriberIds), JSON.stringify(candidateIds), JSON.stringify(directIds)],
  );

export interface SubscriptionNotifyRow {
  user_id: number;
  stream_id: number;
  is_muted: number;
  email_notifications: number | null;
  push_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

const listSubscriptionNotifySettings = (sql: Sql, streamId: number) =>
  sql.all<SubscriptionNotifyRow>(
    "SELECT user_id, stream_id, is_muted, email_notifications, push_notifications, wildcard_mentions_notify FROM subscriptions WHERE stream_id = ? AND active = 1",
    [streamId],
  );

const listTopicPolicies = (sql: Sql, streamId: number) =>
  sql.all<TopicPolicyRow>("SELECT user_id, topic, visibility_policy FROM user_topics WHERE stream_id = ?", [streamId]);

/** A channel's notification settings: its active subscriptions' switches and its users' topic policies. */
export interface ChannelNotifyState {
  subs: SubscriptionNotifyRow[];
  topics: TopicPolicyRow[];
}

export interface TopicPolicyRow {
  user_id: number;
  topic: string;
  visibility_policy: number;
}

/**
 * The channel's state, remembered until a write to subscriptions or user_topics commits (the same
 * object until then, so what is derived from it can be kept beside it). `version` is the directory's
 * subscriptions version (cache_versions), so a write by another process on the database is seen too.
 */
export const channelNotifyState = (sql: Sql, streamId: number, version: number) =>
  sql.memo(["subscriptions", "user_topics"], `notify-channel\u0000${streamId}\u0000${version}`, async (): Promise<ChannelNotifyState> => {
    const [subs, topics] = await Promise.all([listSubscriptionNotifySettings(sql, streamId), listTopicPolicies(sql, streamId)]);
    return { subs, topics };
  });

export const listMutersOf = (sql: Sql, senderIds: number[]) =>
  sql.all<{ user_id: number; muted_user_id: number }>("SELECT user_id, muted_user_id FROM muted_users WHERE muted_user_id IN (SELECT value FROM json_each(?))", [JSON.stringify(senderIds)]);

export const listLastActive = (sql: Sql, userIds: number[]) =>
  sql.all<{ user_id: number; last_active_time: number | null }>("SELECT user_id, last_active_time FROM presence WHERE user_id IN (SELECT value FROM json_each(?))", [JSON.stringify(userIds)]);

export interface MissedRow {
  user_id: number;
  message_id: number;
  trigger: string;
  mentioned_group_id: number | null;
  due: number;
}

/** The rows in one statement: one JSON argument, so one statement text whatever their number. */
export async function insertMissedRows(sql: Sql, rows: MissedRow[]): Promise<void> {
  if (!rows.length) return;
  await sql.run(
    `INSERT OR IGNORE INTO missed_message_emails (user_id, message_id, trigger, mentioned_group_id, due)
     SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each(?)`,
    [JSON.stringify(rows.map((r) => [r.user_id, r.message_id, r.trigger, r.mentioned_group_id, r.due]))],
  );
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
