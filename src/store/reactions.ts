import type { Sql } from "./db";
import { chunked } from "./chunks";

export interface ReactionRow {
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

const COLS = "message_id, user_id, emoji_name, emoji_code, reaction_type";

/** Reactions of several messages, in the order they were added. */
export async function listReactions(sql: Sql, messageIds: number[]): Promise<ReactionRow[]> {
  if (!messageIds.length) return [];
  if (messageIds.length === 1) return sql.all<ReactionRow>(`SELECT ${COLS} FROM reactions WHERE message_id = ? ORDER BY id`, messageIds);
  const out: ReactionRow[] = [];
  for (const part of chunked(messageIds)) {
    out.push(...(await sql.all<ReactionRow>(`SELECT ${COLS} FROM reactions WHERE message_id IN (${part.map(() => "?").join(",")}) ORDER BY id`, part)));
  }
  return out;
}

export const findReaction = (sql: Sql, r: Omit<ReactionRow, "emoji_name">) =>
  sql.get<ReactionRow>(`SELECT ${COLS} FROM reactions WHERE message_id = ? AND user_id = ? AND reaction_type = ? AND emoji_code = ?`, [
    r.message_id, r.user_id, r.reaction_type, r.emoji_code,
  ]);

/** A reaction by name (removing with only emoji_name). */
export const findReactionByName = (sql: Sql, messageId: number, userId: number, emojiName: string) =>
  sql.get<ReactionRow>(`SELECT ${COLS} FROM reactions WHERE message_id = ? AND user_id = ? AND emoji_name = ?`, [messageId, userId, emojiName]);

/** Another user's reaction with this code (a new one takes its name, as Zulip does). */
export const findReactionWithCode = (sql: Sql, messageId: number, reactionType: string, emojiCode: string) =>
  sql.get<ReactionRow>(`SELECT ${COLS} FROM reactions WHERE message_id = ? AND reaction_type = ? AND emoji_code = ? ORDER BY id LIMIT 1`, [
    messageId, reactionType, emojiCode,
  ]);

export const insertReaction = (sql: Sql, r: ReactionRow) =>
  sql.run(`INSERT INTO reactions (${COLS}) VALUES (?, ?, ?, ?, ?)`, [r.message_id, r.user_id, r.emoji_name, r.emoji_code, r.reaction_type]);

export const deleteReaction = (sql: Sql, r: Omit<ReactionRow, "emoji_name">) =>
  sql.run("DELETE FROM reactions WHERE message_id = ? AND user_id = ? AND reaction_type = ? AND emoji_code = ?", [
    r.message_id, r.user_id, r.reaction_type, r.emoji_code,
  ]);
