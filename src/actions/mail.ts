import { nowSecs, type App } from "../app";
import type { Sql } from "../store/db";
import { insertOutboxEmail } from "../store/outbox";

export interface Email {
  to: string;
  subject: string;
  /** the plain-text part */
  body: string;
  /** an HTML part beside the text */
  html?: string;
  /** extra headers (List-Unsubscribe, ...) */
  headers?: Record<string, string>;
}

/** The domain of [email] from (Message-IDs are made on it). */
export function fromDomain(app: App): string {
  const m = /@([^>\s]+)>?\s*$/.exec(app.config.email.from);
  return m?.[1] ?? "parley.localhost";
}

/** Writes an email into the outbox inside the caller's transaction: it goes out when that commits. */
export function queueEmail(app: App, sql: Sql, email: Email): Promise<number> {
  return insertOutboxEmail(sql, {
    to_address: email.to,
    subject: email.subject,
    body: email.body,
    html: email.html ?? null,
    headers: email.headers,
    created: nowSecs(app),
    domain: fromDomain(app),
  });
}

/**
 * Queues an email (a durable outbox row, its own transaction). The timer loop sends it through
 * [email] smtp_url, or appends it to DATA_DIR/emails.log without one (src/notify/email-outbox.ts);
 * a delivery failure is retried there, never thrown at whoever caused the email.
 */
export async function sendEmail(app: App, email: Email): Promise<void> {
  await app.db.tx((sql) => queueEmail(app, sql, email));
}
