import type { Sql } from "./db";

export interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  body: string;
  created: number;
  sent: number;
}

/** Records an email: delivered through SMTP (sent = 1) or kept here for the operator (sent = 0). */
export async function insertOutboxEmail(sql: Sql, e: Omit<OutboxRow, "id">): Promise<number> {
  const { lastId } = await sql.run("INSERT INTO outbox_emails (to_address, subject, body, created, sent) VALUES (?, ?, ?, ?, ?)", [
    e.to_address,
    e.subject,
    e.body,
    e.created,
    e.sent,
  ]);
  return lastId;
}

export const listOutboxEmails = (sql: Sql, to?: string) =>
  to === undefined
    ? sql.all<OutboxRow>("SELECT * FROM outbox_emails ORDER BY id")
    : sql.all<OutboxRow>("SELECT * FROM outbox_emails WHERE to_address = ? COLLATE NOCASE ORDER BY id", [to]);
