import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { makeUser } from "../helpers/people";
import { EMAIL_CHANGE_SECONDS } from "../../src/actions/email-change";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const page = (path: string, post = false) => s.server.handle(new Request(`http://parley.test${path}`, post ? { method: "POST" } : {}));
const mailsTo = (email: string) => s.app.db.all<{ subject: string; body: string }>("SELECT subject, body FROM outbox_emails WHERE to_address = ? ORDER BY id", [email]);
const linkIn = (body: string) => new URL(/http:\/\/parley\.test\/accounts\/confirm_new_email\/\w+\//.exec(body)![0]).pathname;
const stored = (id: number) => s.app.db.get<{ email: string; delivery_email: string }>("SELECT email, delivery_email FROM users WHERE id = ?", [id]);

describe("changing one's email address", () => {
  test("PATCH /settings email sends a link to the new address; nothing changes until it is opened, then the address and the events follow", async () => {
    const u = await makeUser(s, "Moving House");
    const events = await s.captureEvents(async () => {
      (await u.client.patch("/settings", { email: "new-home@zulip.com" } as any)).success();
    });
    expect(events.ofUser(u.id).filter((e) => e.type === "realm_user")).toEqual([]);
    expect(await stored(u.id)).toEqual({ email: u.email, delivery_email: u.email });
    expect(await mailsTo(u.email)).toEqual([]);
    const [mail] = await mailsTo("new-home@zulip.com");
    expect(mail!.subject).toBe("Confirm your new email address for Zulip Dev");
    const link = linkIn(mail!.body);
    // GET only asks
    const ask = await page(link);
    expect(await ask.text()).toContain("new-home@zulip.com");
    expect(await stored(u.id)).toEqual({ email: u.email, delivery_email: u.email });
    const confirmed = await s.captureEvents(async () => {
      const done = await page(link, true);
      expect(done.status).toBe(200);
      expect(await done.text()).toContain("You now log in with <strong>new-home@zulip.com</strong>");
    });
    expect(await stored(u.id)).toEqual({ email: "new-home@zulip.com", delivery_email: "new-home@zulip.com" });
    // the old address is told
    expect((await mailsTo(u.email)).map((m) => m.subject)).toEqual(["Your email address for Zulip Dev has changed"]);
    expect(confirmed.of("hamlet")).toContainEqual({ type: "realm_user", op: "update", person: { user_id: u.id, delivery_email: "new-home@zulip.com" } });
    expect(confirmed.of("hamlet")).toContainEqual({ type: "realm_user", op: "update", person: { user_id: u.id, new_email: "new-home@zulip.com" } });
    // the link is spent
    expect((await page(link, true)).status).toBe(410);
    expect((await page(link)).status).toBe(410);
  });

  test("with email_changes_disabled a member is refused and an administrator is not", async () => {
    (await s.users.desdemona.client.patch("/realm", { email_changes_disabled: true } as any)).success();
    try {
      (await s.users.hamlet.client.patch("/settings", { email: "hamlet2@zulip.com" } as any)).error("Email address changes are disabled in this organization.");
      expect(await mailsTo("hamlet2@zulip.com")).toEqual([]);
      (await s.users.iago.client.patch("/settings", { email: "iago2@zulip.com" } as any)).success();
      expect((await mailsTo("iago2@zulip.com")).length).toBe(1);
    } finally {
      (await s.users.desdemona.client.patch("/realm", { email_changes_disabled: false } as any)).success();
    }
  });

  test("an invalid or taken address is refused; the same address is no change", async () => {
    (await s.users.hamlet.client.patch("/settings", { email: "not an address" } as any)).error("Invalid address.");
    (await s.users.hamlet.client.patch("/settings", { email: s.users.othello.email } as any)).error(`Email '${s.users.othello.email}' already in use`);
    (await s.users.hamlet.client.patch("/settings", { email: s.users.hamlet.email.toUpperCase() } as any)).success();
    expect(await mailsTo(s.users.hamlet.email)).toEqual([]);
  });

  test("a link expires after a day, and a link for an address taken meanwhile does nothing", async () => {
    const u = await makeUser(s, "Late Confirmer");
    (await u.client.patch("/settings", { email: "late@zulip.com" } as any)).success();
    const late = linkIn((await mailsTo("late@zulip.com"))[0]!.body);
    s.clock.advance((EMAIL_CHANGE_SECONDS + 1) * 1000);
    expect((await page(late, true)).status).toBe(410);
    expect(await stored(u.id)).toEqual({ email: u.email, delivery_email: u.email });
    const v = await makeUser(s, "Racer");
    (await v.client.patch("/settings", { email: "contested@zulip.com" } as any)).success();
    const contested = linkIn((await mailsTo("contested@zulip.com"))[0]!.body);
    await s.app.db.run("UPDATE users SET delivery_email = 'contested@zulip.com' WHERE id = ?", [u.id]);
    expect((await page(contested, true)).status).toBe(410);
    expect((await stored(v.id))!.delivery_email).toBe(v.email);
  });
});
