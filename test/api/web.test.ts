import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { startServer, type TestServer } from "../helpers/server";
import { hashPassword } from "../../src/actions/users";
import { createChannel } from "../helpers/channels";
import { loadWebBuild } from "../../src/web/source";

let s: TestServer;
let channel: number;
beforeAll(async () => {
  s = await startServer();
  await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("hamlet-pass"), s.users.hamlet.id]);
  channel = await createChannel(s, "hamlet", "elsinore");
});
afterAll(() => s.close());

const req = (path: string, init: RequestInit = {}) => s.server.handle(new Request(`http://parley.test${path}`, init));
const login = (username: string, password: string, extra: Record<string, string> = {}) =>
  req("/login", { method: "POST", body: new URLSearchParams({ username, password, ...extra }), headers: { "content-type": "application/x-www-form-urlencoded" } });
const cookiesOf = (res: Response) => Object.fromEntries(res.headers.getSetCookie().map((c) => c.split(";")[0]!.split("=") as [string, string]));
const session = async () => {
  const c = cookiesOf(await login("hamlet@zulip.com", "hamlet-pass"));
  return { cookie: `parley_session=${c.parley_session}; parley_csrf=${c.parley_csrf}`, csrf: c.parley_csrf! };
};
/** The hashed files a page links: /static/… */
const linked = (html: string) => [...html.matchAll(/(?:href|src)="\/static\/([^"]+)"/g)].map((m) => m[1]!);

describe("the web app's pages", () => {
  test("/ without a session is the login page: a plain form (no script needed), strict CSP, never cached", async () => {
    const page = await req("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("cache-control")).toBe("no-cache");
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/login"');
    expect(html).toContain('name="username"');
    expect(html).toContain("Log in to Zulip Dev");
    expect(html).not.toContain("<script>"); // no inline script
    expect(html).not.toContain("login-error");
  });

  test("/ with a session is the app: its hashed script and stylesheet, and one inline script, the start-up requests, allowed by its hash alone", async () => {
    const { cookie } = await session();
    const res = await req("/", { headers: { cookie } });
    const html = await res.text();
    const files = linked(html);
    expect(files.some((f) => /^main-[a-z0-9]+\.js$/.test(f))).toBe(true);
    expect(files.some((f) => /^main-[a-z0-9]+\.css$/.test(f))).toBe(true);
    expect(html).toContain('<div id="app"');
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline.length).toBe(1);
    expect(inline[0]).toContain("/register");
    // before the stylesheet: an inline script after one would wait for it to load
    expect(html.indexOf("<script>")).toBeLessThan(html.indexOf('rel="stylesheet"'));
    const hash = `'sha256-${createHash("sha256").update(inline[0]!).digest("base64")}'`;
    const scriptSrc = /script-src ([^;]*)/.exec(res.headers.get("content-security-policy")!)![1]!.split(" ");
    expect(scriptSrc).toEqual(["'self'", hash]);
    // the login page has none, and its policy allows none
    const login = await req("/");
    expect(/script-src ([^;]*)/.exec(login.headers.get("content-security-policy")!)![1]).toBe("'self'");
  });

  test("the hashed files are served for a year, immutable, gzipped when the browser accepts it", async () => {
    const { cookie } = await session();
    const html = await (await req("/", { headers: { cookie } })).text();
    const js = linked(html).find((f) => f.endsWith(".js"))!;
    const plain = await req(`/static/${js}`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toContain("javascript");
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1000);
    const zipped = await req(`/static/${js}`, { headers: { "accept-encoding": "gzip, br" } });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString()).toBe(text);
    const css = linked(html).find((f) => f.endsWith(".css"))!;
    expect((await req(`/static/${css}`)).headers.get("content-type")).toContain("text/css");
    expect((await req("/static/main-nothere.js")).status).toBe(404);
  });
});

describe("logging in and out", () => {
  test("logging in sets an HttpOnly session cookie and a CSRF cookie; a wrong password does not, and the page says why", async () => {
    const bad = await login("hamlet@zulip.com", "nope");
    expect(bad.status).toBe(303);
    expect(bad.headers.get("location")).toBe("/?login_failed=1");
    expect(bad.headers.getSetCookie()).toEqual([]);
    expect(await (await req("/?login_failed=1")).text()).toContain("Your email or password is incorrect.");
    const ok = await login("hamlet@zulip.com", "hamlet-pass");
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/");
    const set = ok.headers.getSetCookie();
    expect(set.find((c) => c.startsWith("parley_session="))).toContain("HttpOnly");
    expect(set.find((c) => c.startsWith("parley_csrf="))).not.toContain("HttpOnly");
  });

  test("the view a shared link named comes back after logging in; anything but a view is ignored", async () => {
    const ok = await login("hamlet@zulip.com", "hamlet-pass", { next: `#narrow/channel/${channel}-elsinore/topic/ramparts` });
    expect(ok.headers.get("location")).toBe(`/#narrow/channel/${channel}-elsinore/topic/ramparts`);
    const failed = await login("hamlet@zulip.com", "wrong", { next: "#inbox" });
    expect(failed.headers.get("location")).toBe("/?login_failed=1#inbox");
    for (const next of ["https://elsewhere.example/", "//elsewhere.example", "/admin", '#"><script>']) {
      expect((await login("hamlet@zulip.com", "hamlet-pass", { next })).headers.get("location")).toBe("/");
    }
  });

  test("logging out ends the session, and / is the login page again", async () => {
    const { cookie } = await session();
    expect((await req("/logout", { method: "POST", headers: { cookie } })).status).toBe(303);
    const after = await req("/json/users/me", { headers: { cookie } });
    expect(after.status).toBe(401);
    // not a Basic challenge, which would make the browser show its own login prompt
    expect(after.headers.get("www-authenticate")).toBe('Session realm="zulip"');
    expect(await (await req("/", { headers: { cookie } })).text()).toContain('action="/login"');
    const token = /parley_session=([^;]+)/.exec(cookie)![1]!;
    expect(await s.app.db.get("SELECT * FROM sessions WHERE token = ?", [token])).toBeUndefined();
  });

  test("an expired session is refused", async () => {
    const { cookie } = await session();
    s.clock.advance(15 * 24 * 3600 * 1000);
    expect((await req("/json/users/me", { headers: { cookie } })).status).toBe(401);
    expect(await (await req("/", { headers: { cookie } })).text()).toContain('action="/login"');
  });
});

describe("the /json routes the web app calls", () => {
  test("a request without a session gets 401 with Zulip's Session challenge, which browsers do not prompt for; /api/v1 keeps Basic", async () => {
    for (const path of ["/json/users/me", "/json/events?queue_id=x&last_event_id=-1", "/json/messages?anchor=newest&num_before=1&num_after=0"]) {
      const r = await req(path);
      expect([path, r.status, r.headers.get("www-authenticate")]).toEqual([path, 401, 'Session realm="zulip"']);
      expect(await r.json()).toMatchObject({ result: "error", code: "UNAUTHORIZED" });
    }
    const api = await req("/api/v1/users/me");
    expect([api.status, api.headers.get("www-authenticate")]).toEqual([401, 'Basic realm="zulip"']);
  });

  test("the session cookie reads the same API under /json as under /api/v1", async () => {
    const { cookie } = await session();
    const me = await (await req("/json/users/me", { headers: { cookie } })).json();
    expect(me).toMatchObject({ result: "success", user_id: s.users.hamlet.id, email: "hamlet@zulip.com" });
    const viaApi = await (await req("/api/v1/users/me", { headers: { cookie } })).json();
    expect(viaApi).toEqual(me);
  });

  test("a write without the CSRF token is refused and stores nothing; with it, the message is sent", async () => {
    const { cookie, csrf } = await session();
    const body = () => new URLSearchParams({ type: "stream", to: String(channel), topic: "ramparts", content: "Who's there?" });
    const forged = await req("/json/messages", { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: body() });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ result: "error", code: "CSRF_FAILED" });
    expect(await s.app.db.get("SELECT id FROM messages WHERE content = ?", ["Who's there?"])).toBeUndefined();
    const ok = await req("/json/messages", { method: "POST", headers: { cookie, "x-csrftoken": csrf, "content-type": "application/x-www-form-urlencoded" }, body: body() });
    const sent = await ok.json();
    expect(sent.result).toBe("success");
    const row = await s.app.db.get<{ sender_id: number; stream_id: number }>("SELECT sender_id, stream_id FROM messages WHERE id = ?", [sent.id]);
    expect(row).toEqual({ sender_id: s.users.hamlet.id, stream_id: channel });
  });

  test("a route that does not exist under /json is Zulip's 404, not the app's page", async () => {
    const { cookie } = await session();
    const res = await req("/json/no/such/thing", { headers: { cookie } });
    expect(res.status).toBe(404);
    expect((await res.json()).result).toBe("error");
  });
});

describe("a new password ends the other sessions", () => {
  test("changed from one page, the person's other sessions get 401 (a Session challenge) and this one goes on", async () => {
    const here = await session();
    const elsewhere = await session();
    const change = await req("/json/settings", {
      method: "PATCH",
      headers: { cookie: here.cookie, "x-csrftoken": here.csrf, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ old_password: "hamlet-pass", new_password: "to be or not" }),
    });
    expect(change.status).toBe(200);
    const other = await req("/json/users/me", { headers: { cookie: elsewhere.cookie } });
    expect([other.status, other.headers.get("www-authenticate")]).toEqual([401, 'Session realm="zulip"']);
    expect((await req("/json/users/me", { headers: { cookie: here.cookie } })).status).toBe(200);
    const left = await s.app.db.all<{ token: string }>("SELECT token FROM sessions WHERE user_id = ?", [s.users.hamlet.id]);
    expect(left.map((r) => r.token)).toEqual([/parley_session=([^;]+)/.exec(here.cookie)![1]!]);
    // through the API (no session), every session ends
    (await s.users.hamlet.client.patch("/settings", { old_password: "to be or not", new_password: "hamlet-pass" })).success();
    expect((await req("/json/users/me", { headers: { cookie: here.cookie } })).status).toBe(401);
  }, 30_000); // four password hashes and checks
});

describe("the installable app", () => {
  test("both pages link the manifest, a touch icon and the theme colour", async () => {
    const { cookie } = await session();
    for (const html of [await (await req("/")).text(), await (await req("/", { headers: { cookie } })).text()]) {
      expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest">');
      expect(html).toMatch(/<link rel="apple-touch-icon" href="\/static\/icon-192-[0-9a-f]{10}\.png">/);
      expect(html).toContain('<meta name="theme-color" content="#4f6fdc">');
    }
  });

  test("the manifest is named after the organization, opens standalone at the app, and its icons are PNGs of the sizes it says", async () => {
    const res = await req("/manifest.webmanifest");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/manifest+json; charset=utf-8");
    const m = await res.json();
    expect(m).toMatchObject({ name: "Zulip Dev", short_name: "Zulip Dev", start_url: "/", scope: "/", display: "standalone", theme_color: "#4f6fdc", background_color: "#ffffff" });
    expect(m.icons.map((i: any) => [i.sizes, i.purpose ?? "any"])).toEqual([
      ["192x192", "any"],
      ["512x512", "any"],
      ["512x512", "maskable"],
    ]);
    for (const icon of m.icons) {
      const file = await req(icon.src);
      expect(file.headers.get("content-type")).toBe("image/png");
      expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const bytes = Buffer.from(await file.arrayBuffer());
      // PNG signature, then the IHDR's width and height
      expect(bytes.subarray(1, 4).toString()).toBe("PNG");
      const [w, h] = icon.sizes.split("x").map(Number);
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([w, h]);
    }
  });

  test("a long organization name gives the launcher a short name", async () => {
    const before = s.app.realm!.name;
    s.app.realm!.name = "The Very Long Organization Name";
    try {
      expect(await (await req("/manifest.webmanifest")).json()).toMatchObject({ name: "The Very Long Organization Name", short_name: "Parley" });
    } finally {
      s.app.realm!.name = before;
    }
  });

  test("/sw.js is a script at the root, never cached by HTTP, that caches this build's page and hashed files", async () => {
    const res = await req("/sw.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("service-worker-allowed")).toBe("/");
    const body = await res.text();
    const { cookie } = await session();
    const html = await (await req("/", { headers: { cookie } })).text();
    // the shell: the page and every file the page links
    expect(body).toContain('"/"');
    for (const f of linked(html)) expect(body).toContain(`"/static/${f}"`);
    // a classic script (no import/export): registered without { type: "module" }
    expect(body).not.toMatch(/^\s*(import|export)\s/m);
  });
});

describe("the Google emoji sheet (the emojiset Zulip draws by default)", () => {
  test("is served as one PNG of 62 × 62 cells, cached for a year, not gzipped, and left out of the install-time cache", async () => {
    const build = await loadWebBuild();
    const sheets = build.files.filter((f) => f.name.startsWith("emoji-sheet-google-64-"));
    expect(sheets.map((f) => [f.type, f.base64, f.onDemand])).toEqual([["image/png", true, true]]);
    const res = await req(`/static/${sheets[0]!.name}`, { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-encoding")).toBeNull();
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe("PNG");
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([62 * 66, 62 * 66]);
    // only the chunk loaded on first use names it; the page and the service worker's shell do not
    const sw = await (await req("/sw.js")).text();
    expect(sw).not.toContain(sheets[0]!.name);
    expect(build.appHtml).not.toContain("emoji-sheet");
    const naming = build.files.filter((f) => !f.base64 && f.body.includes(sheets[0]!.name));
    expect(naming.map((f) => f.name)).toEqual([expect.stringMatching(/^emoji-sheet-[a-z0-9]+\.js$/)]);
  });
});

describe("POST /json/fetch_api_key (the web app's API key, as Zulip's json_fetch_api_key)", () => {
  const post = (cookie: string, csrf: string, body: Record<string, string>) =>
    req("/json/fetch_api_key", { method: "POST", headers: { cookie, "X-CSRFToken": csrf, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body) });

  test("the logged-in person's own key after their password; a wrong one is a plain 400 and the session stays", async () => {
    const { cookie, csrf } = await session();
    const wrong = await post(cookie, csrf, { password: "hamlet-wrong" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ result: "error", msg: "Password is incorrect.", code: "BAD_REQUEST" });
    expect((await req("/json/users/me", { headers: { cookie } })).status).toBe(200);
    const right = await post(cookie, csrf, { password: "hamlet-pass" });
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ result: "success", api_key: s.users.hamlet.apiKey, email: "hamlet@zulip.com" });
  });

  test("someone else's address is not asked for and not used: the key is always the session's person's", async () => {
    const { cookie, csrf } = await session();
    const r = await post(cookie, csrf, { username: "othello@zulip.com", password: "hamlet-pass" });
    expect((await r.json()).api_key).toBe(s.users.hamlet.apiKey);
  });

  test("without a session, or without the CSRF token, nothing is given", async () => {
    const none = await req("/json/fetch_api_key", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ password: "hamlet-pass" }) });
    expect(none.status).toBe(401);
    expect((await none.json()).api_key).toBeUndefined();
    const { cookie } = await session();
    const forged = await req("/json/fetch_api_key", { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ password: "hamlet-pass" }) });
    expect(forged.status).toBe(403);
    expect((await forged.json()).api_key).toBeUndefined();
  });
});
