import type { Sql } from "./db";
import { tightenRanges } from "./unread-floors";

export interface MutedUserRow {
  muted_user_id: number;
  date_muted: number;
}

export const listMutedUsers = (sql: Sql, userId: number) =>
  sql.all<MutedUserRow>("SELECT muted_user_id, date_muted FROM muted_users WHERE user_id = ? ORDER BY date_muted, muted_user_id", [userId]);

export const isMuted = async (sql: Sql, userId: number, mutedUserId: number) =>
  (await sql.get("SELECT 1 AS x FROM muted_users WHERE user_id = ? AND muted_user_id = ?", [userId, mutedUserId])) !== undefined;

export const insertMutedUser = (sql: Sql, userId: number, mutedUserId: number, dateMuted: number) =>
  sql.run("INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, ?)", [userId, mutedUserId, dateMuted]);

export const deleteMutedUser = (sql: Sql, userId: number, mutedUserId: number) =>
  sql.run("DELETE FROM muted_users WHERE user_id = ? AND muted_user_id = ?", [userId, mutedUserId]);

/** Who has muted `senderId` (their copies of the sender's new messages start read). */
export const listMutersOf = async (sql: Sql, senderId: number) =>
  (await sql.all<{ user_id: number }>("SELECT user_id FROM muted_users WHERE muted_user_id = ?", [senderId])).map((r) => r.user_id);

/** Marks read (flag bit 0) every unread message `userId` received from `senderId`; returns their ids. */
export async function markMessagesFromSenderRead(sql: Sql, userId: number, senderId: number): Promise<number[]> {
  const unread = `user_id = ? AND (flags & 1) = 0 AND message_id IN (SELECT id FROM messages WHERE sender_id = ?)`;
  const rows = await sql.all<{ message_id: number }>(`SELECT message_id FROM user_messages WHERE ${unread} ORDER BY message_id`, [userId, senderId]);
  if (rows.length) await sql.run(`UPDATE user_messages SET flags = flags | 1 WHERE ${unread}`, [userId, senderId]);
  const ids = rows.map((r) => r.message_id);
  await tightenRanges(sql, userId, ids);
  return ids;
}
