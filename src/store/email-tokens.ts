import type { Sql } from "./db";

export interface EmailTokenRow {
  token_hash: string;
  kind: "password_reset" | "email_change" | "login_link";
  user_id: number;
  new_email: string | null;
  created: number;
  expires: number;
  used: number | null;
}

export const insertEmailToken = (sql: Sql, t: Omit<EmailTokenRow, "used">) =>
  sql.run("INSERT INTO email_tokens (token_hash, kind, user_id, new_email, created, expires) VALUES (?, ?, ?, ?, ?, ?)", [
    t.token_hash,
    t.kind,
    t.user_id,
    t.new_email,
    t.created,
    t.expires,
  ]);

/** A token of this kind that is neither used nor expired. */
export const findUsableEmailToken = (sql: Sql, hash: string, kind: EmailTokenRow["kind"], now: number) =>
  sql.get<EmailTokenRow>("SELECT * FROM email_tokens WHERE token_hash = ? AND kind = ? AND used IS NULL AND expires > ?", [hash, kind, now]);

/** Spends a token: one statement, so only one of two concurrent uses gets the row back. */
export const useEmailToken = (sql: Sql, hash: string, kind: EmailTokenRow["kind"], now: number) =>
  sql.get<EmailTokenRow>("UPDATE email_tokens SET used = ? WHERE token_hash = ? AND kind = ? AND used IS NULL AND expires > ? RETURNING *", [now, hash, kind, now]);

/** A new link replaces the user's earlier ones of the same kind. */
export const expireUserEmailTokens = (sql: Sql, userId: number, kind: EmailTokenRow["kind"], now: number) =>
  sql.run("UPDATE email_tokens SET expires = ? WHERE user_id = ? AND kind = ? AND used IS NULL AND expires > ?", [now, userId, kind, now]);

export const deleteOldEmailTokens = (sql: Sql, before: number) => sql.run("DELETE FROM email_tokens WHERE expires < ?", [before]);
