import type { Sql } from "./db";

export interface LoginLinkRow {
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export const insertLoginLink = (sql: Sql, tokenHash: string, userId: number, createdAt: number, expiresAt: number) =>
  sql.run("INSERT INTO login_links (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)", [tokenHash, userId, createdAt, expiresAt]);

export const findLoginLink = (sql: Sql, tokenHash: string) => sql.get<LoginLinkRow>("SELECT * FROM login_links WHERE token_hash = ?", [tokenHash]);

/** Marks a link used; 0 changes when it already was (two clicks racing: only one signs in). */
export const markLoginLinkUsed = (sql: Sql, tokenHash: string, at: number) =>
  sql.run("UPDATE login_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL", [at, tokenHash]);
