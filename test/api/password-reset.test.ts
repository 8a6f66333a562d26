import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { makeUser } from "../helpers/people";
import { ROLE } from "../../src/domain/roles";
import { pruneEmailRecords } from "../../src/notify/email-outbox";
import { RESET_LINK_SECONDS, RESETS_PER_CLIENT, RESETS_PER_EMAIL } from "../../src/actions/password-reset";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const page = (path: string, form?: Record<string, string>, headers: Record<string, string> = {}) =>
  s.server.handle(
    new Request(`http://parley.test${path}`, form ? { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form) } : { headers }),
  );
const mailsTo = (email: string) => s.app.db.all<{ subject: string; body: string }>("SELECT subject, body FROM outbox_emails WHERE to_address = ? ORDER BY id", [email]);
const linkIn = (body: string) => new URL(/http:\/\/parley\.test\/accounts\/password\/reset\/\w+\//.exec(body)![0]).pathname;
/** (in-process requests all come from one client address, "local": fewer than RESETS_PER_CLIENT in this server) */
const ask = (email: string) => page("/accounts/password/reset/", { email });

describe("forgotten password", () => {
  test("the login page links to the reset form, which asks for the email", async () => {
    expect(await (await page("/login")).text()).toContain('<a href="/accounts/password/reset/">Forgot password?</a>');
    const form = await (await page("/accounts/password/reset/")).text();
    expect(form).toContain('<form method="post" action="/accounts/password/reset/" class="login-form">');
    expect(form).toContain('<label for="reset-email">Email</label>');
  });

  test("a known address gets a one-time link; it opens a form, sets the password, logs in, ends the other sessions, and is dead after", async () => {
    const u = await makeUser(s, "Forgetful Person");
    // an older browser session of that person
    await s.app.db.run("INSERT INTO sessions (token, user_id, created, expires) VALUES ('old-session', ?, 0, 9999999999)", [u.id]);
    const done = await ask(u.email);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Check your email");
    const [mail] = await mailsTo(u.email);
    expect(mail!.subject).toBe("Reset your password for Zulip Dev");
    const link = linkIn(mail!.body);
    // only a hash of the token is stored
    const token = link.split("/")[4]!;
    expect(await s.app.db.get("SELECT count(*) AS n FROM email_tokens WHERE token_hash = ?", [token])).toEqual({ n: 0 });
    const form = await page(link);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Choose a new password");
    // too short: the form again with the reason, the link still works
    const weak = await page(link, { new_password: "abc" });
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain("The password is too weak.");
    const set = await page(link, { new_password: "a much better secret" });
    expect(set.status).toBe(303);
    expect(set.headers.get("location")).toBe("/");
    const cookie = set.headers.getSetCookie().find((c) => c.startsWith("parley_session="))!;
    const session = /parley_session=(\w+)/.exec(cookie)![1]!;
    expect((await page("/", undefined, { cookie: `parley_session=${session}` })).headers.get("content-type")).toContain("text/html");
    expect(await s.app.db.all("SELECT token FROM sessions WHERE user_id = ?", [u.id])).toEqual([{ token: session }]);
    (await s.anonymous.post("/fetch_api_key", { username: u.email, password: "a much better secret" })).success();
    // second use
    const again = await page(link);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain("Link expired or used");
    expect((await page(link, { new_password: "yet another secret" })).status).toBe(410);
    (await s.anonymous.post("/fetch_api_key", { username: u.email, password: "yet another secret" })).error("Your username or password is incorrect", "AUTHENTICATION_FAILED", 401);
  }, 20_000);

  test("an unknown address gets the same screen and no email", async () => {
    const before = (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM outbox_emails"))!.n;
    const res = await ask("nobody-here@zulip.com");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Check your email");
    expect((await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM outbox_emails"))!.n).toBe(before);
  });

  test("deactivated people and bots get no link", async () => {
    const u = await makeUser(s, "Gone Person");
    (await s.users.iago.client.delete(`/users/${u.id}`)).success();
    await ask(u.email);
    expect(await mailsTo(u.email)).toEqual([]);
  });

  test("a link expires after an hour, and a newer link replaces an older one", async () => {
    const u = await makeUser(s, "Slow Reader");
    await ask(u.email);
    const first = linkIn((await mailsTo(u.email))[0]!.body);
    await ask(u.email);
    const second = linkIn((await mailsTo(u.email))[1]!.body);
    expect((await page(first)).status).toBe(410);
    expect((await page(second)).status).toBe(200);
    s.clock.advance((RESET_LINK_SECONDS + 1) * 1000);
    expect((await page(second)).status).toBe(410);
    expect((await page(second, { new_password: "too late now" })).status).toBe(410);
    // a day past its expiry the timer loop forgets it
    const tokens = () => s.app.db.all("SELECT kind FROM email_tokens WHERE user_id = ?", [u.id]);
    expect((await tokens()).length).toBe(2);
    s.clock.advance(24 * 3600_000);
    await pruneEmailRecords(s.app);
    expect(await tokens()).toEqual([]);
  });

  test("requests are limited per address asked for and per client", async () => {
    const main = s;
    s = await startServer();
    try {
      const u = await makeUser(s, "Hammered");
      for (let i = 0; i < RESETS_PER_EMAIL; i++) expect((await ask(u.email)).status).toBe(200);
      const refused = await ask(u.email);
      expect(refused.status).toBe(429);
      expect(await refused.text()).toContain("Too many reset requests");
      expect((await mailsTo(u.email)).length).toBe(RESETS_PER_EMAIL);
      const statuses = [];
      for (let i = 0; i < RESETS_PER_CLIENT; i++) statuses.push((await ask(`someone${i}@zulip.com`)).status);
      // three went to the first address (the refused one counts for nothing)
      expect(statuses.filter((x) => x === 200).length).toBe(RESETS_PER_CLIENT - RESETS_PER_EMAIL);
      expect(statuses.at(-1)).toBe(429);
      // an hour later it may ask again
      s.clock.advance(3600_000);
      expect((await ask(u.email)).status).toBe(200);
    } finally {
      await s.close();
      s = main;
    }
  });
});

describe("POST /users/{user_id}/password_reset", () => {
  test("an administrator sends a member a reset link", async () => {
    const u = await makeUser(s, "Helped Person");
    (await s.users.iago.client.post(`/users/${u.id}/password_reset`)).success();
    const [mail] = await mailsTo(u.email);
    expect(mail!.body).toContain("Iago, an administrator of Zulip Dev, sent you a link to choose a new password.");
    expect((await page(linkIn(mail!.body))).status).toBe(200);
  });

  test("members cannot; administrators cannot for owners but owners can; bots, deactivated and unknown users are refused", async () => {
    const target = await makeUser(s, "Target Person");
    (await s.users.hamlet.client.post(`/users/${target.id}/password_reset`)).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.shiva.client.post(`/users/${target.id}/password_reset`)).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    expect(await mailsTo(target.email)).toEqual([]);
    const owner = await makeUser(s, "Other Owner", ROLE.owner);
    (await s.users.iago.client.post(`/users/${owner.id}/password_reset`)).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
    expect(await mailsTo(owner.email)).toEqual([]);
    (await s.users.desdemona.client.post(`/users/${owner.id}/password_reset`)).success();
    expect((await mailsTo(owner.email)).length).toBe(1);
    const bot = (await s.users.iago.client.post("/bots", { full_name: "Reset Bot", short_name: "resetbot" })).success();
    (await s.users.iago.client.post(`/users/${bot.user_id}/password_reset`)).error("No such user");
    (await s.users.iago.client.post("/users/99999/password_reset")).error("No such user");
    const gone = await makeUser(s, "Gone Again");
    (await s.users.iago.client.delete(`/users/${gone.id}`)).success();
    (await s.users.iago.client.post(`/users/${gone.id}/password_reset`)).error("User is deactivated");
    expect(await mailsTo(gone.email)).toEqual([]);
  });
});
