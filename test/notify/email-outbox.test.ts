import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../helpers/server";
import { startFakeSmtp } from "../helpers/smtp";
import { makeUser } from "../helpers/people";
import { sendEmail } from "../../src/actions/mail";
import { CLAIM_SECS, deliverDueEmails, FIRST_RETRY_SECS, KEEP_FINISHED_EMAIL_SECS, MAX_EMAIL_ATTEMPTS, pruneEmailRecords } from "../../src/notify/email-outbox";
import { claimDueEmails, type OutboxRow } from "../../src/store/outbox";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});
async function server(smtpUrl = "") {
  const s = await startServer({ config: (c) => (c.email.smtp_url = smtpUrl) });
  servers.push(s);
  return s;
}
const rows = (s: TestServer) => s.app.db.all<OutboxRow>("SELECT * FROM outbox_emails ORDER BY id");
/** A port nothing listens on. */
async function closedPort() {
  const smtp = await startFakeSmtp();
  await smtp.close();
  return smtp.port;
}

describe("the email outbox", () => {
  test("without [email] smtp_url an email is appended to DATA_DIR/emails.log and marked sent, once", async () => {
    const s = await server();
    await sendEmail(s.app, { to: "someone@example.com", subject: "Hello there", body: "Plain words.", headers: { "X-Test": "1" } });
    expect((await rows(s)).map((r) => r.sent)).toEqual([0]);
    const log = join(s.dataDir, "emails.log");
    expect(existsSync(log)).toBe(false);
    expect(await deliverDueEmails(s.app)).toBe(1);
    const [row] = await rows(s);
    expect(row).toMatchObject({ sent: 1, attempts: 1, failed: 0, claimed_until: null });
    const text = readFileSync(log, "utf8");
    expect(text).toContain("To: someone@example.com\nSubject: Hello there\n");
    expect(text).toContain(`Message-ID: ${row!.message_id}`);
    expect(text).toContain("X-Test: 1\n\nPlain words.");
    expect(await deliverDueEmails(s.app)).toBe(0);
    expect(readFileSync(log, "utf8")).toBe(text);
  });

  test("through SMTP an email carries its text and HTML parts, its headers and its fixed Message-ID", async () => {
    const smtp = await startFakeSmtp();
    try {
      const s = await server(`smtp://127.0.0.1:${smtp.port}`);
      await sendEmail(s.app, { to: "reader@example.com", subject: "Two parts", body: "The text part.", html: "<p>The <b>HTML</b> part.</p>", headers: { "List-Unsubscribe": "<http://parley.test/u>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } });
      expect(await deliverDueEmails(s.app)).toBe(1);
      expect(smtp.mails.length).toBe(1);
      const mail = await smtp.parsed(0);
      const [row] = await rows(s);
      expect(mail.subject).toBe("Two parts");
      expect(mail.text?.trim()).toBe("The text part.");
      expect(mail.html).toContain("<b>HTML</b>");
      expect(mail.messageId).toBe(row!.message_id!);
      // (mailparser folds List-* headers into one object: read them raw)
      expect(smtp.mails[0]!.data).toMatch(/^List-Unsubscribe: <http:\/\/parley\.test\/u>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n/m);
      expect(mail.headers.get("content-type")).toMatchObject({ value: "multipart/alternative" });
      expect(row).toMatchObject({ sent: 1, failed: 0, last_error: null });
    } finally {
      await smtp.close();
    }
  });

  test("an SMTP server refusing is retried with growing waits, and the email goes out once when it recovers", async () => {
    const smtp = await startFakeSmtp();
    try {
      smtp.refusing = true;
      const s = await server(`smtp://127.0.0.1:${smtp.port}`);
      await sendEmail(s.app, { to: "patient@example.com", subject: "Eventually", body: "It arrives." });
      const t0 = s.clock.now() / 1000;
      expect(await deliverDueEmails(s.app)).toBe(0);
      let [row] = await rows(s);
      expect(row).toMatchObject({ sent: 0, failed: 0, attempts: 1, claimed_until: null, next_attempt: t0 + FIRST_RETRY_SECS });
      expect(row!.last_error).toContain("451");
      // not before its time
      s.clock.advance((FIRST_RETRY_SECS - 1) * 1000);
      expect(await deliverDueEmails(s.app)).toBe(0);
      expect((await rows(s))[0]!.attempts).toBe(1);
      s.clock.advance(1000);
      await deliverDueEmails(s.app);
      [row] = await rows(s);
      expect(row!.attempts).toBe(2);
      expect(row!.next_attempt).toBe(s.clock.now() / 1000 + 2 * FIRST_RETRY_SECS);
      smtp.refusing = false;
      s.clock.advance(2 * FIRST_RETRY_SECS * 1000);
      expect(await deliverDueEmails(s.app)).toBe(1);
      expect(await deliverDueEmails(s.app)).toBe(0);
      expect(smtp.mails.length).toBe(1);
      expect((await rows(s))[0]).toMatchObject({ sent: 1, attempts: 3, last_error: null });
    } finally {
      await smtp.close();
    }
  });

  test("an email that keeps failing is given up after the last attempt, with a log line", async () => {
    const s = await server(`smtp://127.0.0.1:${await closedPort()}`);
    const logged: { msg: string; extra?: Record<string, unknown> }[] = [];
    const error = s.app.log.error.bind(s.app.log);
    s.app.log.error = (msg, extra) => (logged.push({ msg, extra }), error(msg, extra));
    await sendEmail(s.app, { to: "nowhere@example.com", subject: "Lost cause", body: "Never delivered." });
    for (let i = 0; i < MAX_EMAIL_ATTEMPTS + 3; i++) {
      await deliverDueEmails(s.app);
      s.clock.advance(2 * 3600_000);
    }
    const [row] = await rows(s);
    expect(row).toMatchObject({ sent: 0, failed: 1, attempts: MAX_EMAIL_ATTEMPTS });
    expect(row!.last_error).toContain("ECONNREFUSED");
    expect(logged.map((l) => l.msg)).toEqual(["email given up"]);
    expect(logged[0]!.extra).toMatchObject({ to: "nowhere@example.com", attempts: MAX_EMAIL_ATTEMPTS });
  });

  test("a failing SMTP server is never the sender's problem: the request that caused the email succeeds", async () => {
    const s = await server(`smtp://127.0.0.1:${await closedPort()}`);
    const u = await makeUser(s, "Leaving Soon");
    (await s.users.iago.client.delete(`/users/${u.id}`, { deactivation_notification_comment: "Bye" } as any)).success();
    await deliverDueEmails(s.app);
    expect((await rows(s)).map((r) => [r.to_address, r.sent, r.attempts])).toEqual([[u.email, 0, 1]]);
  });

  test("an email claimed by a sender that died is sent after the claim lapses, with the same Message-ID", async () => {
    const smtp = await startFakeSmtp();
    try {
      const s = await server(`smtp://127.0.0.1:${smtp.port}`);
      await sendEmail(s.app, { to: "once@example.com", subject: "Claimed", body: "Body." });
      // a sender claims it and dies before answering
      const now = s.clock.now() / 1000;
      expect((await s.app.db.tx((sql) => claimDueEmails(sql, now, now + CLAIM_SECS, 10))).length).toBe(1);
      expect(await deliverDueEmails(s.app)).toBe(0);
      s.clock.advance((CLAIM_SECS + 1) * 1000);
      expect(await deliverDueEmails(s.app)).toBe(1);
      expect(smtp.mails.length).toBe(1);
      const [row] = await rows(s);
      expect((await smtp.parsed(0)).messageId).toBe(row!.message_id!);
      expect(row).toMatchObject({ sent: 1, attempts: 2 });
    } finally {
      await smtp.close();
    }
  });

  test("sent and given-up emails are deleted after a week; waiting ones stay however old", async () => {
    const s = await server(`smtp://127.0.0.1:${await closedPort()}`);
    await sendEmail(s.app, { to: "waiting@example.com", subject: "Still trying", body: "." });
    await s.app.db.run("INSERT INTO outbox_emails (to_address, subject, body, created, sent) VALUES ('done@example.com', 'Done', '.', ?, 1)", [s.clock.now() / 1000]);
    s.clock.advance((KEEP_FINISHED_EMAIL_SECS - 10) * 1000);
    expect(await pruneEmailRecords(s.app)).toBe(0);
    s.clock.advance(20_000);
    expect(await pruneEmailRecords(s.app)).toBe(1);
    expect((await rows(s)).map((r) => r.to_address)).toEqual(["waiting@example.com"]);
  });
});
