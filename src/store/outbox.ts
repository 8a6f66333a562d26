import type { Sql } from "./db";

/** One email of the outbox: written by whatever caused it, sent by the timer loop (src/notify/email-outbox.ts). */
export interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  /** the plain-text part */
  body: string;
  /** the HTML part, or null for plain text only */
  html: string | null;
  /** extra headers, JSON object */
  headers: string;
  message_id: string | null;
  created: number;
  /** 1 once SMTP accepted it (or, without SMTP, once it is in the log file) */
  sent: number;
  attempts: number;
  next_attempt: number;
  claimed_until: number | null;
  /** 1 when it gave up after the last attempt */
  failed: number;
  last_error: string | null;
  sent_at: number | null;
}

export interface NewEmail {
  to_address: string;
  subject: string;
  body: string;
  html?: string | null;
  headers?: Record<string, string>;
  created: number;
  /** the Message-ID's domain (the From address's) */
  domain: string;
}

/** Queues an email; its Message-ID derives from the row id, so every attempt sends the same one. */
export async function insertOutboxEmail(sql: Sql, e: NewEmail): Promise<number> {
  const { lastId } = await sql.run(
    "INSERT INTO outbox_emails (to_address, subject, body, html, headers, created, sent, next_attempt) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
    [e.to_address, e.subject, e.body, e.html ?? null, JSON.stringify(e.headers ?? {}), e.created, e.created],
  );
  await sql.run("UPDATE outbox_emails SET message_id = ? WHERE id = ?", [`<parley-${lastId}-${Math.floor(e.created)}@${e.domain}>`, lastId]);
  return lastId;
}

/** Whether any row is due (a read, so an idle outbox costs the timer loop no write transaction). */
export const anyDueEmail = async (sql: Sql, now: number) =>
  (await sql.get("SELECT 1 AS due FROM outbox_emails WHERE sent = 0 AND failed = 0 AND next_attempt <= ? AND (claimed_until IS NULL OR claimed_until < ?) LIMIT 1", [now, now])) !== undefined;

/**
 * Claims up to `limit` due rows (not sent, not given up, unclaimed or with a lapsed claim) until
 * `until`: one statement, so two senders never claim the same row. Each claim counts an attempt.
 */
export const claimDueEmails = (sql: Sql, now: number, until: number, limit: number) =>
  sql.all<OutboxRow>(
    `UPDATE outbox_emails SET claimed_until = ?, attempts = attempts + 1
     WHERE id IN (SELECT id FROM outbox_emails WHERE sent = 0 AND failed = 0 AND next_attempt <= ?
                  AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY next_attempt, id LIMIT ?)
     RETURNING *`,
    [until, now, now, limit],
  );

/** Claims one row by id (the test email, sent at once by the command that wrote it). */
export const claimEmail = (sql: Sql, id: number, until: number) =>
  sql.get<OutboxRow>("UPDATE outbox_emails SET claimed_until = ?, attempts = attempts + 1 WHERE id = ? AND sent = 0 AND claimed_until IS NULL RETURNING *", [until, id]);

export const markEmailSent = (sql: Sql, id: number, now: number) =>
  sql.run("UPDATE outbox_emails SET sent = 1, sent_at = ?, claimed_until = NULL, last_error = NULL WHERE id = ?", [now, id]);

/** A failed attempt: tried again at `retryAt`, or given up when `retryAt` is null. */
export const markEmailFailed = (sql: Sql, id: number, error: string, retryAt: number | null) =>
  retryAt === null
    ? sql.run("UPDATE outbox_emails SET failed = 1, claimed_until = NULL, last_error = ? WHERE id = ?", [error, id])
    : sql.run("UPDATE outbox_emails SET next_attempt = ?, claimed_until = NULL, last_error = ? WHERE id = ?", [retryAt, error, id]);

export const findOutboxEmail = (sql: Sql, id: number) => sql.get<OutboxRow>("SELECT * FROM outbox_emails WHERE id = ?", [id]);

export const listOutboxEmails = (sql: Sql, to?: string) =>
  to === undefined
    ? sql.all<OutboxRow>("SELECT * FROM outbox_emails ORDER BY id")
    : sql.all<OutboxRow>("SELECT * FROM outbox_emails WHERE to_address = ? COLLATE NOCASE ORDER BY id", [to]);

/** Forgets emails sent or given up before `before` (their text need not outlive the week). */
export const deleteFinishedEmails = (sql: Sql, before: number) => sql.run("DELETE FROM outbox_emails WHERE (sent = 1 OR failed = 1) AND created < ?", [before]);
