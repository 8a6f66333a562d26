import type { Transporter } from "nodemailer";
import { nowSecs, type App } from "../app";
import { insertOutboxEmail } from "../store/outbox";

export interface Email {
  to: string;
  subject: string;
  body: string;
}

const transports = new Map<string, Promise<Transporter>>();

function transportFor(url: string): Promise<Transporter> {
  let t = transports.get(url);
  if (!t) {
    t = import("nodemailer").then((m) => m.default.createTransport(url));
    transports.set(url, t);
  }
  return t;
}

/**
 * Sends an email through [email] smtp_url when it is configured; otherwise writes it to the log.
 * Either way it is recorded in outbox_emails (sent = 1 once SMTP accepted it). A delivery failure
 * is logged, never thrown: the action that asked for the email has already happened.
 */
export async function sendEmail(app: App, email: Email): Promise<void> {
  const url = app.config.email.smtp_url;
  let sent = 0;
  if (url) {
    try {
      const transport = await transportFor(url);
      await transport.sendMail({ from: app.config.email.from, to: email.to, subject: email.subject, text: email.body });
      sent = 1;
    } catch (e) {
      app.log.error("email delivery failed", { to: email.to, subject: email.subject, error: String(e) });
    }
  } else {
    app.log.info("email (no [email] smtp_url configured)", { to: email.to, subject: email.subject, body: email.body });
  }
  await app.db.tx((sql) => insertOutboxEmail(sql, { to_address: email.to, subject: email.subject, body: email.body, created: nowSecs(app), sent }));
}
