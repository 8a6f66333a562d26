import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { hashPassword } from "../../src/actions/users";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("hamlet-pass"), s.users.hamlet.id]);
});
afterAll(() => s.close());

const req = (path: string, init: RequestInit = {}) => s.server.handle(new Request(`http://parley.test${path}`, init));
const login = (username: string, password: string) =>
  req("/login", { method: "POST", body: new URLSearchParams({ username, password }), headers: { "content-type": "application/x-www-form-urlencoded" } });
const cookiesOf = (res: Response) => Object.fromEntries(res.headers.getSetCookie().map((c) => c.split(";")[0]!.split("=") as [string, string]));

describe("the web client", () => {
  test("/ serves the page and /static its script and style, with a strict CSP", async () => {
    const page = await req("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script src="/static/app.js">');
    expect((await req("/static/app.js")).headers.get("content-type")).toContain("javascript");
    expect((await req("/static/style.css")).headers.get("content-type")).toContain("text/css");
  });

  test("logging in sets an HttpOnly session cookie and a CSRF cookie; a wrong password does not", async () => {
    const bad = await login("hamlet@zulip.com", "nope");
    expect(bad.status).toBe(303);
    expect(bad.headers.get("location")).toBe("/?login_failed=1");
    expect(bad.headers.getSetCookie()).toEqual([]);
    const ok = await login("hamlet@zulip.com", "hamlet-pass");
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/");
    const set = ok.headers.getSetCookie();
    expect(set.find((c) => c.startsWith("parley_session="))).toContain("HttpOnly");
    expect(set.find((c) => c.startsWith("parley_csrf="))).not.toContain("HttpOnly");
  });

  test("the session cookie authenticates API reads; writes need the CSRF token", async () => {
    const c = cookiesOf(await login("hamlet@zulip.com", "hamlet-pass"));
    const headers = { cookie: `parley_session=${c.parley_session}` };
    const me = await (await req("/api/v1/users/me", { headers })).json();
    expect(me.user_id).toBe(s.users.hamlet.id);
    const forged = await req("/api/v1/register", { method: "POST", headers });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ result: "error", code: "CSRF_FAILED" });
    const ok = await req("/api/v1/register", { method: "POST", headers: { ...headers, "x-csrftoken": c.parley_csrf! } });
    expect((await ok.json()).result).toBe("success");
  });

  test("logging out ends the session", async () => {
    const c = cookiesOf(await login("hamlet@zulip.com", "hamlet-pass"));
    const headers = { cookie: `parley_session=${c.parley_session}` };
    expect((await req("/logout", { method: "POST", headers })).status).toBe(303);
    const after = await req("/api/v1/users/me", { headers });
    expect(after.status).toBe(401);
    // not a Basic challenge, which would make the browser show its own login prompt
    expect(after.headers.get("www-authenticate")).toBe('Session realm="zulip"');
    expect(await s.app.db.get("SELECT * FROM sessions WHERE token = ?", [c.parley_session!])).toBeUndefined();
  });

  test("an expired session is refused", async () => {
    const c = cookiesOf(await login("hamlet@zulip.com", "hamlet-pass"));
    s.clock.advance(15 * 24 * 3600 * 1000);
    expect((await req("/api/v1/users/me", { headers: { cookie: `parley_session=${c.parley_session}` } })).status).toBe(401);
  });
});
