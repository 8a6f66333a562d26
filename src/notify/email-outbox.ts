import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import type { Transporter } from "nodemailer";
import { nowSecs, type App } from "../app";
import { anyDueEmail, claimDueEmails, claimEmail, deleteFinishedEmails, markEmailFailed, markEmailSent, type OutboxRow } from "../store/outbox";
import { queueEmail } from "../actions/mail";
import { deleteOldEmailTokens } from "../store/email-tokens";

/** Attempts before an email is given up (the waits between them add up to about an hour). */
export const MAX_EMAIL_ATTEMPTS = 8;
/** The first retry waits this long; each next one twice as long, up to MAX_RETRY_SECS. */
export const FIRST_RETRY_SECS = 30;
const MAX_RETRY_SECS = 3600;
/** A claim outlives the slowest SMTP exchange (the timeouts below); a crashed sender's claim lapses. */
export const CLAIM_SECS = 300;
const BATCH = 20;

/** The wait before attempt `attempts + 1`, after `attempts` failed ones. */
export const retryDelaySecs = (attempts: number) => Math.min(MAX_RETRY_SECS, FIRST_RETRY_SECS * 2 ** (attempts - 1));

const transports = new WeakMap<App, { url: string; transport: Promise<Transporter> }>();

function transportFor(app: App, url: string): Promise<Transporter> {
  const known = transports.get(app);
  if (known?.url === url) return known.transport;
  // short timeouts: a hung server must not hold the claim (CLAIM_SECS) nor the job for long
  const transport = import("nodemailer").then((m) =>
    m.default.createTransport({ url, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 } as Parameters<typeof m.default.createTransport>[0]),
  );
  transports.set(app, { url, transport });
  return transport;
}

export const emailLogPath = (app: App) => join(app.config.data_dir, "emails.log");

/** Hands one email to SMTP, or without [email] smtp_url appends it to DATA_DIR/emails.log. */
export async function transmit(app: App, row: Pick<OutboxRow, "to_address" | "subject" | "body" | "html" | "headers" | "message_id" | "created">): Promise<string> {
  const headers = JSON.parse(row.headers || "{}") as Record<string, string>;
  const url = app.config.email.smtp_url;
  if (!url) {
    const lines = [
      `=== ${new Date(row.created * 1000).toISOString()}`,
      `From: ${app.config.email.from}`,
      `To: ${row.to_address}`,
      `Subject: ${row.subject}`,
      `Message-ID: ${row.message_id}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      "",
      row.body,
      "",
      "",
    ];
    await appendFile(emailLogPath(app), lines.join("\n"), { mode: 0o600 });
    return `written to ${emailLogPath(app)}`;
  }
  const transport = await transportFor(app, url);
  const info = await transport.sendMail({
    from: app.config.email.from,
    to: row.to_address,
    subject: row.subject,
    text: row.body,
    html: row.html ?? undefined,
    headers,
    messageId: row.message_id ?? undefined,
    date: new Date(row.created * 1000),
  });
  return String(info.response ?? "accepted");
}

/**
 * Timer job: sends the outbox's due emails. Each is claimed (committed) before it is handed to SMTP
 * and marked sent after, so a crash never loses one; a crash between the two sends it again after
 * the claim lapses, with the same Message-ID. A failure waits twice as long each time and gives up
 * after MAX_EMAIL_ATTEMPTS, with a log line either way.
 */
export async function deliverDueEmails(app: App, signal?: AbortSignal): Promise<number> {
  let sent = 0;
  for (;;) {
    const now = nowSecs(app);
    if (!(await anyDueEmail(app.db, now))) return sent;
    const rows = await app.db.tx((sql) => claimDueEmails(sql, now, now + CLAIM_SECS, BATCH));
    if (!rows.length) return sent;
    for (const row of rows) {
      if (signal?.aborted) return sent; // the claim lapses; the next start sends it
      try {
        await transmit(app, row);
        await app.db.tx((sql) => markEmailSent(sql, row.id, nowSecs(app)));
        sent++;
      } catch (e) {
        const error = (e as Error)?.message ?? String(e);
        const giveUp = row.attempts >= MAX_EMAIL_ATTEMPTS;
        const retryAt = giveUp ? null : nowSecs(app) + retryDelaySecs(row.attempts);
        await app.db.tx((sql) => markEmailFailed(sql, row.id, error, retryAt));
        if (giveUp) app.log.error("email given up", { id: row.id, to: row.to_address, subject: row.subject, attempts: row.attempts, error });
        else app.log.warn("email delivery failed; will retry", { id: row.id, to: row.to_address, attempts: row.attempts, retry_in_secs: retryDelaySecs(row.attempts), error });
      }
    }
    if (rows.length < BATCH) return sent;
  }
}

/**
 * `parley send-test-email`: one email, written and claimed in one transaction (a running server's
 * job never takes it), then sent now. A failure is the operator's to see: not retried.
 */
export async function sendTestEmail(app: App, to: string): Promise<{ ok: boolean; detail: string; via: string }> {
  const via = app.config.email.smtp_url ? `SMTP (${new URL(app.config.email.smtp_url).host})` : emailLogPath(app);
  const body = [`This is a test email from Parley${app.realm ? ` (${app.realm.name})` : ""} at ${app.config.server.external_url}.`, "", "If you can read this, Parley's email works."].join("\n");
  const row = await app.db.tx(async (sql) => {
    const id = await queueEmail(app, sql, { to, subject: "Parley test email", body });
    return (await claimEmail(sql, id, nowSecs(app) + CLAIM_SECS))!;
  });
  try {
    const detail = await transmit(app, row);
    await app.db.tx((sql) => markEmailSent(sql, row.id, nowSecs(app)));
    return { ok: true, detail, via };
  } catch (e) {
    const detail = (e as Error)?.message ?? String(e);
    await app.db.tx((sql) => markEmailFailed(sql, row.id, detail, null));
    return { ok: false, detail, via };
  }
}

/** Sent and given-up emails are kept this long (for the operator to look into), then deleted. */
export const KEEP_FINISHED_EMAIL_SECS = 7 * 24 * 3600;

/** Timer job: deletes finished emails past KEEP_FINISHED_EMAIL_SECS and one-time links a day past their expiry. */
export async function pruneEmailRecords(app: App): Promise<number> {
  const now = nowSecs(app);
  return app.db.tx(async (sql) => (await deleteFinishedEmails(sql, now - KEEP_FINISHED_EMAIL_SECS)).changes + (await deleteOldEmailTokens(sql, now - 24 * 3600)).changes);
}
