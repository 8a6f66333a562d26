import { changedRows, type Sql } from "./db";
import { chunked } from "./chunks";
import { coverUnreadBelowFloor } from "./unread-floors";

export interface MessageRow {
  id: number;
  realm_id: number;
  sender_id: number;
  recipient_id: number;
  stream_id: number | null;
  dm_key: string | null;
  topic: string;
  content: string;
  rendered_content: string;
  date_sent: number;
  client: string;
  last_edit_time: number | null;
  last_moved_time: number | null;
  edit_history: string | null;
  has_attachment: number;
  has_image: number;
  has_link: number;
  is_me_message: number;
}

export type NewMessage = Omit<MessageRow, "id" | "last_edit_time" | "last_moved_time" | "edit_history">;

const qs = (n: number) => Array(n).fill("?").join(",");

const INSERT_MESSAGE = `INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, dm_key, topic, content, rendered_content,
  date_sent, client, has_attachment, has_image, has_link, is_me_message) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`;

export async function insertMessage(sql: Sql, m: NewMessage): Promise<number> {
  const { lastId } = await sql.run(INSERT_MESSAGE, [
    m.realm_id, m.sender_id, m.recipient_id, m.stream_id, m.dm_key, m.topic, m.content, m.rendered_content,
    m.date_sent, m.client, m.has_attachment, m.has_image, m.has_link, m.is_me_message,
  ]);
  return lastId;
}

/**
 * The text of a multi-row INSERT of `rows` tuples, one string per row count: the statement cache finds
 * it without building (and hashing) a new text of several KB for every batch of sends.
 */
function multiRowInsert(cache: string[], head: string, tuple: string, rows: number): string {
  return (cache[rows] ??= `${head} VALUES ${Array(rows).fill(tuple).join(",")}`);
}
const userMessageInserts: string[] = [];
const USER_MESSAGES_HEAD = "INSERT OR IGNORE INTO user_messages (user_id, message_id, flags)";
const USER_MESSAGES_CHUNK = 500;

/**
 * user_messages rows in multi-row INSERTs (chunks of 500 rows). Existing rows are left alone. Rows of
 * older messages may fall below their user's unread floor, where unread ones must lie in a range; the
 * rows of messages being sent (`newMessages`, ids above every floor) skip that step.
 */
export async function insertUserMessages(sql: Sql, rows: { userId: number; messageId: number; flags: number }[], opts: { newMessages?: boolean } = {}) {
  const stmts: { sql: string; args: number[] }[] = [];
  for (let start = 0; start < rows.length; start += USER_MESSAGES_CHUNK) {
    const end = Math.min(rows.length, start + USER_MESSAGES_CHUNK);
    const args = new Array<number>((end - start) * 3);
    for (let i = start, k = 0; i < end; i++) {
      const r = rows[i]!;
      args[k++] = r.userId;
      args[k++] = r.messageId;
      args[k++] = r.flags;
    }
    stmts.push({ sql: multiRowInsert(userMessageInserts, USER_MESSAGES_HEAD, "(?,?,?)", end - start), args });
  }
  if (stmts.length === 1) await sql.run(stmts[0]!.sql, stmts[0]!.args);
  else if (stmts.length) await sql.batch(stmts);
  if (!opts.newMessages) await coverUnreadBelowFloor(sql, rows);
}

export const findMessage = (sql: Sql, id: number) => sql.get<MessageRow>("SELECT * FROM messages WHERE id = ?", [id]);

export async function listMessagesByIds(sql: Sql, ids: number[]): Promise<MessageRow[]> {
  if (!ids.length) return [];
  if (ids.length === 1) return sql.all<MessageRow>("SELECT * FROM messages WHERE id = ?", ids);
  const out: MessageRow[] = [];
  for (const part of chunked(ids)) out.push(...(await sql.all<MessageRow>(`SELECT * FROM messages WHERE id IN (${qs(part.length)})`, part)));
  return out.sort((a, b) => a.id - b.id);
}

/** Whether a channel has any message in the topic (case-insensitive), i.e. the topic exists. */
export const topicExists = async (sql: Sql, streamId: number, topic: string) =>
  (await sql.get("SELECT 1 AS x FROM messages WHERE stream_id = ? AND topic = ? COLLATE NOCASE LIMIT 1", [streamId, topic])) !== undefined;

/** Whether the topic had a message before `id` (inside a write: which of concurrent first sends initiated it). */
export const topicHasMessageBefore = async (sql: Sql, streamId: number, topic: string, id: number) =>
  (await sql.get("SELECT 1 AS x FROM messages WHERE stream_id = ? AND topic = ? COLLATE NOCASE AND id < ? LIMIT 1", [streamId, topic, id])) !== undefined;

/** Users who sent or reacted in a topic (Zulip's topic participants, for @**topic**). */
export const listTopicParticipants = async (sql: Sql, streamId: number, topic: string) =>
  (await sql.all<{ user_id: number }>(
    `SELECT sender_id AS user_id FROM messages WHERE stream_id = ? AND topic = ? COLLATE NOCASE
     UNION SELECT r.user_id FROM reactions r JOIN messages m ON m.id = r.message_id WHERE m.stream_id = ? AND m.topic = ? COLLATE NOCASE`,
    [streamId, topic, streamId, topic],
  )).map((r) => r.user_id);

/** Message ids of a topic (optionally from `fromId` on), oldest first. */
export const listTopicMessageIds = async (sql: Sql, streamId: number, topic: string, fromId = 0) =>
  (await sql.all<{ id: number }>("SELECT id FROM messages WHERE stream_id = ? AND topic = ? COLLATE NOCASE AND id >= ? ORDER BY id", [streamId, topic, fromId])).map(
    (r) => r.id,
  );

export async function updateMessage(sql: Sql, id: number, fields: Partial<Omit<MessageRow, "id">>) {
  const keys = Object.keys(fields);
  if (!keys.length) return;
  await sql.run(`UPDATE messages SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE id = ?`, [...keys.map((k) => (fields as any)[k]), id]);
}

/** Moves messages to a channel/topic, recording each one's edit history entry. */
export async function moveMessages(
  sql: Sql,
  moves: { id: number; streamId: number; recipientId: number; topic: string; editHistory: string; movedTime: number | null }[],
) {
  if (!moves.length) return;
  await sql.batch(
    moves.map((m) => ({
      sql: "UPDATE messages SET stream_id = ?, recipient_id = ?, topic = ?, edit_history = ?, last_moved_time = coalesce(?, last_moved_time) WHERE id = ?",
      args: [m.streamId, m.recipientId, m.topic, m.editHistory, m.movedTime, m.id],
    })),
  );
}

export const deleteMessage = (sql: Sql, id: number) => sql.run("DELETE FROM messages WHERE id = ?", [id]);

/** The newest message id of the organization (0 when none). */
export const maxMessageId = async (sql: Sql) => (await sql.get<{ m: number | null }>("SELECT max(id) AS m FROM messages"))?.m ?? 0;

// Direct-message groups (three or more participants).
export const findDirectMessageGroup = (sql: Sql, key: string) =>
  sql.get<{ id: number; recipient_id: number }>("SELECT id, recipient_id FROM direct_message_groups WHERE user_ids = ?", [key]);

export async function insertDirectMessageGroup(sql: Sql, key: string): Promise<number> {
  const { lastId: groupId } = await sql.run("INSERT INTO direct_message_groups (user_ids) VALUES (?)", [key]);
  const { lastId: recipientId } = await sql.run("INSERT INTO recipients (type, type_id) VALUES (3, ?)", [groupId]);
  await sql.run("UPDATE direct_message_groups SET recipient_id = ? WHERE id = ?", [recipientId, groupId]);
  return recipientId;
}

/** Users who muted `senderId` (their copies of the sender's messages start read). */
export const listUsersWhoMuted = async (sql: Sql, senderId: number) =>
  (await sql.all<{ user_id: number }>("SELECT user_id FROM muted_users WHERE muted_user_id = ?", [senderId])).map((r) => r.user_id);

/**
 * What send needs to know about the sender and the topic. Both reads are remembered: the sender's part
 * until subscriptions, user_topics or muted_users are written, "the topic has messages" until messages
 * are edited, moved or deleted (new messages cannot make it false). A busy topic then costs no query:
 * after every commit the read connection starts with a cold page cache, which made this read ~17 µs
 * of every send.
 */
export async function senderTopicState(sql: Sql, senderId: number, streamId: number, topic: string) {
  const [sender, topicExists] = await Promise.all([
    sql.memo(["subscriptions", "user_topics", "muted_users"], `sender-topic-state\u0000${senderId}\u0000${streamId}\u0000${topic}`, async () => {
      const row = await sql.get<{ stream_muted: number | null; policy: number | null; muted_by: string | null }>(
        `SELECT (SELECT is_muted FROM subscriptions WHERE user_id = ? AND stream_id = ? AND active = 1) AS stream_muted,
                (SELECT visibility_policy FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic = ?) AS policy,
                (SELECT group_concat(user_id) FROM muted_users WHERE muted_user_id = ?) AS muted_by`,
        [senderId, streamId, senderId, streamId, topic, senderId],
      );
      return {
        streamMuted: row?.stream_muted === 1,
        visibilityPolicy: row?.policy ?? 0,
        mutedBy: row?.muted_by ? row.muted_by.split(",").map(Number) : [],
      };
    }),
    topicHasMessages(sql, streamId, topic),
  ]);
  return { ...sender, mutedBy: [...sender.mutedBy], topicExists };
}

/** Whether a channel's topic has messages (topics compare case-insensitively, as SQLite's NOCASE: ASCII only). */
export const topicHasMessages = (sql: Sql, streamId: number, topic: string) =>
  sql.memo(
    [changedRows("messages")],
    `topic-has-messages\u0000${streamId}\u0000${topic.replace(/[A-Z]+/g, (c) => c.toLowerCase())}`,
    async () => (await sql.get("SELECT 1 AS x FROM messages WHERE stream_id = ? AND topic = ? COLLATE NOCASE LIMIT 1", [streamId, topic])) !== undefined,
    (exists) => exists, // "no messages" ends with the next send to the topic: only "yes" is remembered
  );

/** Whether a direct-message conversation (by key) has any message yet. */
export const conversationExists = async (sql: Sql, dmKey: string) =>
  (await sql.get("SELECT 1 AS x FROM messages WHERE dm_key = ? LIMIT 1", [dmKey])) !== undefined;

/** Sets a channel's first_message_id when it has none yet. */
export const setFirstMessageId = (sql: Sql, streamId: number, messageId: number) =>
  sql.run("UPDATE streams SET first_message_id = ? WHERE id = ? AND first_message_id IS NULL", [messageId, streamId]);

/** The oldest message id left in a channel (its new first_message_id after deletions), or null. */
export const oldestStreamMessageId = async (sql: Sql, streamId: number) =>
  (await sql.get<{ m: number | null }>("SELECT min(id) AS m FROM messages WHERE stream_id = ?", [streamId]))?.m ?? null;

const MESSAGE_COLUMNS = "realm_id, sender_id, recipient_id, stream_id, dm_key, topic, content, rendered_content, date_sent, client, has_attachment, has_image, has_link, is_me_message";

const messageInserts: string[] = [];
const MESSAGES_HEAD = `INSERT INTO messages (${MESSAGE_COLUMNS})`;
const MESSAGES_CHUNK = 100;

/**
 * New messages, in multi-row INSERTs (chunks of 100 rows); returns their ids, in order. SQLite gives
 * the rows of one INSERT consecutive ids after the newest ever given (AUTOINCREMENT), so each
 * statement's last id tells them all: no query for the next id.
 */
export async function insertNewMessages(sql: Sql, rows: Omit<MessageRow, "id">[]): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += MESSAGES_CHUNK) {
    const end = Math.min(rows.length, start + MESSAGES_CHUNK);
    const args = new Array<unknown>((end - start) * 14);
    for (let i = start, k = 0; i < end; i++) {
      const m = rows[i]!;
      args[k++] = m.realm_id;
      args[k++] = m.sender_id;
      args[k++] = m.recipient_id;
      args[k++] = m.stream_id;
      args[k++] = m.dm_key;
      args[k++] = m.topic;
      args[k++] = m.content;
      args[k++] = m.rendered_content;
      args[k++] = m.date_sent;
      args[k++] = m.client;
      args[k++] = m.has_attachment;
      args[k++] = m.has_image;
      args[k++] = m.has_link;
      args[k++] = m.is_me_message;
    }
    const { lastId } = await sql.run(multiRowInsert(messageInserts, MESSAGES_HEAD, "(?,?,?,?,?,?,?,?,?,?,?,?,?,?)", end - start), args);
    for (let id = lastId - (end - start) + 1; id <= lastId; id++) ids.push(id);
  }
  return ids;
}
