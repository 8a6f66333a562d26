import type { InValue } from "@libsql/client";
import type { Sql } from "./db";
import { chunked } from "./chunks";
import { tightenRanges, findUnreadFloor, IN_RANGES, IN_RANGES_WHERE, unreadIdsSql } from "./unread-floors";

const qs = (n: number) => Array(n).fill("?").join(",");

/** A user's flags for some messages (message id → bitmask); absent ids have no row. */
export async function mapFlags(sql: Sql, userId: number, messageIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const part of chunked(messageIds)) {
    const rows = await sql.all<{ message_id: number; flags: number }>(
      `SELECT message_id, flags FROM user_messages WHERE user_id = ? AND message_id IN (${qs(part.length)})`,
      [userId, ...part],
    );
    for (const r of rows) out.set(r.message_id, r.flags);
  }
  return out;
}

export const findFlags = async (sql: Sql, userId: number, messageId: number) =>
  (await sql.get<{ flags: number }>("SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?", [userId, messageId]))?.flags;

/** Everyone with a row for the message (who received it), with their flags. */
export const listHolders = (sql: Sql, messageId: number) =>
  sql.all<{ user_id: number; flags: number }>("SELECT user_id, flags FROM user_messages WHERE message_id = ?", [messageId]);

/** Holders of several messages: message id → user ids. */
export async function mapHolders(sql: Sql, messageIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(messageIds.map((id) => [id, []]));
  for (const part of chunked(messageIds)) {
    const rows = await sql.all<{ message_id: number; user_id: number }>(
      `SELECT message_id, user_id FROM user_messages WHERE message_id IN (${qs(part.length)})`,
      part,
    );
    for (const r of rows) out.get(r.message_id)!.push(r.user_id);
  }
  return out;
}

/**
 * Sets (add) or clears (remove) a flag bit on the user's rows among `messageIds`; answers the ids
 * whose value actually changed.
 */
export async function changeFlag(sql: Sql, userId: number, messageIds: number[], bit: number, add: boolean): Promise<number[]> {
  const changed: number[] = [];
  for (const part of chunked(messageIds)) {
    const rows = await sql.all<{ message_id: number }>(
      add
        ? `UPDATE user_messages SET flags = flags | ? WHERE user_id = ? AND message_id IN (${qs(part.length)}) AND (flags & ?) = 0 RETURNING message_id`
        : `UPDATE user_messages SET flags = flags & ~? WHERE user_id = ? AND message_id IN (${qs(part.length)}) AND (flags & ?) != 0 RETURNING message_id`,
      [bit, userId, ...part, bit],
    );
    for (const r of rows) changed.push(r.message_id);
  }
  if (add && bit === 1) await tightenRanges(sql, userId, changed);
  return changed.sort((a, b) => a - b);
}

/** Deletes the rows of some users for some messages (users losing messages moved to another channel). */
export async function deleteUserMessages(sql: Sql, userIds: number[], messageIds: number[]) {
  if (!userIds.length || !messageIds.length) return;
  for (const part of chunked(messageIds)) {
    await sql.run(`DELETE FROM user_messages WHERE user_id IN (${qs(userIds.length)}) AND message_id IN (${qs(part.length)})`, [...userIds, ...part]);
  }
}

/** Sets per-user flags after an edit (mentions and alert words recomputed), only where they changed. */
export async function setFlags(sql: Sql, messageId: number, flags: { userId: number; flags: number }[]) {
  if (!flags.length) return;
  await sql.batch(flags.map((f) => ({ sql: "UPDATE user_messages SET flags = ? WHERE user_id = ? AND message_id = ?", args: [f.flags, f.userId, messageId] })));
}

/** Marks read every unread message of the user (optionally only in a channel, or a topic); answers the ids. */
export async function markRead(sql: Sql, userId: number, where: { streamId?: number; topic?: string } = {}): Promise<number[]> {
  const args: InValue[] = [];
  // the user's unread set is small next to a channel's history: start from it
  let q = `SELECT u.message_id FROM (${unreadIdsSql(userId, args)}) u`;
  if (where.streamId !== undefined) {
    q += " JOIN messages m ON m.id = u.message_id WHERE m.stream_id = ?";
    args.push(where.streamId);
    if (where.topic !== undefined) {
      q += " AND m.topic = ? COLLATE NOCASE";
      args.push(where.topic);
    }
  }
  const ids = (await sql.all<{ message_id: number }>(q, args)).map((r) => r.message_id).sort((a, b) => a - b);
  for (const part of chunked(ids)) await sql.run(`UPDATE user_messages SET flags = flags | 1 WHERE user_id = ? AND message_id IN (${qs(part.length)})`, [userId, ...part]);
  await tightenRanges(sql, userId, ids);
  return ids;
}

export interface UnreadRow {
  message_id: number;
  flags: number;
  sender_id: number;
  stream_id: number | null;
  topic: string;
  dm_key: string | null;
}

/** The user's unread messages, newest first (at most `limit`): the tail's, then those in the ranges below the floor. */
export async function listUnread(sql: Sql, userId: number, limit: number): Promise<UnreadRow[]> {
  const cols = "um.message_id, um.flags, m.sender_id, m.stream_id, m.topic, m.dm_key";
  const floor = await findUnreadFloor(sql, userId);
  const tail = await sql.all<UnreadRow>(
    `SELECT ${cols} FROM user_messages um JOIN messages m ON m.id = um.message_id
     WHERE um.user_id = ? AND um.message_id >= ? AND (um.flags & 1) = 0 ORDER BY um.message_id DESC LIMIT ?`,
    [userId, floor, limit],
  );
  if (tail.length >= limit) return tail;
  // ranges never overlap: newest range first, newest row first within it, is newest first overall
  const below = await sql.all<UnreadRow>(
    `SELECT ${cols} FROM ${IN_RANGES} JOIN messages m ON m.id = um.message_id
     WHERE ${IN_RANGES_WHERE} ORDER BY r.first_id DESC, um.message_id DESC LIMIT ?`,
    [userId, limit - tail.length],
  );
  return tail.concat(below);
}

// INDEXED BY: without statistics SQLite walks the primary key (all of the user's rows, a million for a
// long-time member: ~100 ms) rather than the small partial index of starred rows
export const listStarredIds = async (sql: Sql, userId: number) =>
  (await sql.all<{ message_id: number }>("SELECT message_id FROM user_messages INDEXED BY user_messages_starred WHERE user_id = ? AND (flags & 2) = 2 ORDER BY message_id", [userId])).map((r) => r.message_id);

/**
 * The newest message of each direct-message conversation that has one among the user's latest `scan`
 * direct messages, newest first. Walking the user's rows for their direct messages reads every channel
 * message of theirs on the way (~300 ms for a member with a million), so it goes by conversation
 * instead: the keys the user can be in (with each person, themselves, the groups naming them), each
 * key's newest message by the messages_by_dm index, then only the conversations' own messages for the
 * `scan` limit.
 */
export async function listRecentConversations(sql: Sql, userId: number, scan: number) {
  const people = await sql.all<{ id: number }>("SELECT id FROM users");
  const groups = await sql.all<{ user_ids: string }>("SELECT user_ids FROM direct_message_groups WHERE ',' || user_ids || ',' LIKE ?", [`%,${userId},%`]);
  const keys = [...people.map((p) => (p.id === userId ? `${userId}` : p.id < userId ? `${p.id},${userId}` : `${userId},${p.id}`)), ...groups.map((g) => g.user_ids)];
  const found: { dm_key: string; max_id: number }[] = [];
  for (const part of chunked(keys)) {
    found.push(...(await sql.all<{ dm_key: string; max_id: number }>(`SELECT dm_key, max(id) AS max_id FROM messages WHERE dm_key IN (${qs(part.length)}) GROUP BY dm_key`, part)));
  }
  found.sort((a, b) => b.max_id - a.max_id);
  if (!found.length) return found;
  // a conversation counts when its newest message is among the user's latest `scan` direct messages
  let floor = 0;
  const total = await countIn(sql, found.map((f) => f.dm_key));
  if (total > scan) {
    const ids: number[] = [];
    for (const part of chunked(found.map((f) => f.dm_key))) {
      const rows = await sql.all<{ id: number }>(`SELECT id FROM messages WHERE dm_key IN (${qs(part.length)}) ORDER BY id DESC LIMIT ?`, [...part, scan]);
      ids.push(...rows.map((r) => r.id));
    }
    floor = ids.sort((a, b) => b - a)[scan - 1] ?? 0;
  }
  return found.filter((f) => f.max_id >= floor);
}

/** How many messages the conversations hold. */
async function countIn(sql: Sql, keys: string[]): Promise<number> {
  let n = 0;
  for (const part of chunked(keys)) n += (await sql.get<{ n: number }>(`SELECT count(*) AS n FROM messages WHERE dm_key IN (${qs(part.length)})`, part))!.n;
  return n;
}

/** Message details for unread update events: which of `ids` are in which channel/topic or conversation. */
export async function listMessageDetails(sql: Sql, ids: number[]) {
  const out: { id: number; sender_id: number; stream_id: number | null; topic: string; dm_key: string | null }[] = [];
  for (const part of chunked(ids)) {
    out.push(...(await sql.all<(typeof out)[number]>(`SELECT id, sender_id, stream_id, topic, dm_key FROM messages WHERE id IN (${qs(part.length)})`, part)));
  }
  return out;
}

/** Whether the user has any message in the topic. */
export const topicExistsFor = async (sql: Sql, userId: number, streamId: number, topic: string) =>
  (await sql.get(
    "SELECT 1 AS x FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = ? AND m.stream_id = ? AND m.topic = ? COLLATE NOCASE LIMIT 1",
    [userId, streamId, topic],
  )) !== undefined;

/**
 * Who has the message marked read, for its read receipts (Zulip's read_receipts view): active users
 * other than the sender, neither muted by `viewerId` nor having muted them, with their settings JSON
 * (the caller applies send_read_receipts). Sorted by id.
 */
export const listReadersForReceipts = (sql: Sql, messageId: number, senderId: number, viewerId: number) =>
  sql.all<{ id: number; settings: string }>(
    `SELECT u.id, u.settings FROM user_messages um JOIN users u ON u.id = um.user_id
     WHERE um.message_id = ? AND (um.flags & 1) = 1 AND u.is_active = 1 AND u.id != ?
       AND NOT EXISTS (SELECT 1 FROM muted_users m WHERE (m.user_id = u.id AND m.muted_user_id = ?) OR (m.user_id = ? AND m.muted_user_id = u.id))
     ORDER BY u.id`,
    [messageId, senderId, viewerId, viewerId],
  );
