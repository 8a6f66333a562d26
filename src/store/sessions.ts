import type { Sql } from "./db";

export const insertSession = (sql: Sql, token: string, userId: number, created: number, expires: number) =>
  sql.run("INSERT INTO sessions (token, user_id, created, expires) VALUES (?, ?, ?, ?)", [token, userId, created, expires]);

export const deleteSession = (sql: Sql, token: string) => sql.run("DELETE FROM sessions WHERE token = ?", [token]);

export const deleteUserSessions = (sql: Sql, userId: number) => sql.run("DELETE FROM sessions WHERE user_id = ?", [userId]);

/** Every session of the user but `keep` (null: all of them). */
export const deleteOtherSessions = (sql: Sql, userId: number, keep: string | null) => sql.run("DELETE FROM sessions WHERE user_id = ? AND token IS NOT ?", [userId, keep]);

export const deleteExpiredSessions = (sql: Sql, now: number) => sql.run("DELETE FROM sessions WHERE expires < ?", [now]);
