// Authentication remembers a Basic header or a session that worked (http/auth.ts) until a user or
// session row changes: every change that should end access still ends it on the very next request.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const withCookie = (token: string) => s.anonymous.request("GET", "/users/me", {}, { headers: { cookie: `parley_session=${token}` } });
const addSession = (token: string, userId: number, expires: number) =>
  s.app.db.run("INSERT INTO sessions (token, user_id, created, expires) VALUES (?, ?, 0, ?)", [token, userId, expires]);
const nowSecs = () => Math.floor(s.clock.now() / 1000);

describe("an API key that authenticated before", () => {
  test("stops working on the next request once an administrator deactivates its user, and works again after reactivation", async () => {
    const u = s.users.cordelia;
    expect((await u.client.get("/users/me")).success().user_id).toBe(u.id);
    (await s.users.iago.client.delete(`/users/${u.id}`)).success();
    (await u.client.get("/users/me")).error("Account is deactivated", "UNAUTHORIZED", 401);
    (await s.users.iago.client.post(`/users/${u.id}/reactivate`)).success();
    expect((await u.client.get("/users/me")).success().user_id).toBe(u.id);
  });

  test("is refused on the next request once it is regenerated, and the new key works", async () => {
    const u = s.users.othello;
    expect((await u.client.get("/users/me")).success().user_id).toBe(u.id);
    const { api_key } = (await u.client.post("/users/me/api_key/regenerate")).success();
    expect(api_key).not.toBe(u.apiKey);
    (await u.client.get("/users/me")).error("Invalid API key", "UNAUTHORIZED", 401);
    expect((await s.clientFor(u.email, api_key).get("/users/me")).success().user_id).toBe(u.id);
    expect((await s.app.db.get<{ api_key: string }>("SELECT api_key FROM users WHERE id = ?", [u.id]))!.api_key).toBe(api_key);
  });

  test("is refused with another email, though the same key worked with the user's own", async () => {
    const u = s.users.hamlet;
    expect((await u.client.get("/users/me")).success().user_id).toBe(u.id);
    (await s.clientFor("othello@zulip.com", u.apiKey).get("/users/me")).error("Invalid API key", "UNAUTHORIZED", 401);
  });

  test("stops working at once when the organization is deactivated", async () => {
    const u = s.users.hamlet;
    expect((await u.client.get("/users/me")).success().user_id).toBe(u.id);
    s.app.realm!.deactivated = 1 as never;
    try {
      (await u.client.get("/users/me")).error("This organization has been deactivated", "UNAUTHORIZED", 401);
    } finally {
      s.app.realm!.deactivated = 0 as never;
    }
    expect((await u.client.get("/users/me")).success().user_id).toBe(u.id);
  });
});

describe("a session that authenticated before", () => {
  test("ends on the next request after logging out", async () => {
    await addSession("tok-remembered-logout", s.users.hamlet.id, nowSecs() + 3600);
    expect((await withCookie("tok-remembered-logout")).success().user_id).toBe(s.users.hamlet.id);
    const out = await s.server.handle(new Request("http://parley.test/logout", { method: "POST", headers: { cookie: "parley_session=tok-remembered-logout" } }));
    expect(out.status).toBe(303);
    expect(await s.app.db.get("SELECT * FROM sessions WHERE token = 'tok-remembered-logout'")).toBeUndefined();
    (await withCookie("tok-remembered-logout")).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
  });

  test("ends when it expires, with no write in between", async () => {
    await addSession("tok-remembered-expiry", s.users.hamlet.id, nowSecs() + 60);
    expect((await withCookie("tok-remembered-expiry")).success().user_id).toBe(s.users.hamlet.id);
    s.clock.advance(61_000);
    (await withCookie("tok-remembered-expiry")).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
  });

  test("ends on the next request once its user is deactivated", async () => {
    const u = s.users.cordelia;
    await addSession("tok-remembered-deactivated", u.id, nowSecs() + 3600);
    expect((await withCookie("tok-remembered-deactivated")).success().user_id).toBe(u.id);
    await s.app.db.run("UPDATE users SET is_active = 0 WHERE id = ?", [u.id]);
    try {
      (await withCookie("tok-remembered-deactivated")).error("Account is deactivated", "UNAUTHORIZED", 401);
    } finally {
      await s.app.db.run("UPDATE users SET is_active = 1 WHERE id = ?", [u.id]);
    }
  });
});

describe("GET /events re-polls", () => {
  test("report what they were sent beside their own parameters as ignored, in either reading", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", { event_types: ["message"] })).success();
    const plain = (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true, zebra: 1, apple: "x", client: "test" })).success();
    expect(plain).toEqual({ result: "success", msg: "", events: [], queue_id, ignored_parameters_unsupported: ["apple", "zebra"] });
    // a last_event_id the quick reader leaves to the general one (JSON, not a plain integer)
    const general = (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: "-1.0", dont_block: true, zebra: 1, apple: "x" })).success();
    expect(general).toEqual(plain);
  });

  test("answer as JSON that is never cached, and count against a rate limit with its headers when there is one", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", { event_types: ["message"] })).success();
    const r = await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true });
    expect(r.success().events).toEqual([]);
    expect(r.header("content-type")).toBe("application/json");
    expect(r.header("cache-control")).toBe("no-store, no-cache, must-revalidate, max-age=0");
    expect(r.header("x-ratelimit-limit")).toBeNull();

    const limited = await startServer({ config: (c) => void (c.rate_limit.requests_per_minute = 3) });
    try {
      const u = limited.users.hamlet;
      const q = (await u.client.post("/register", { event_types: ["message"] })).success().queue_id;
      const first = await u.client.get("/events", { queue_id: q, last_event_id: -1, dont_block: true });
      expect(first.success().queue_id).toBe(q);
      expect(first.header("content-type")).toBe("application/json");
      expect(first.header("cache-control")).toBe("no-store, no-cache, must-revalidate, max-age=0");
      expect(first.header("x-ratelimit-limit")).toBe("3");
      expect(first.header("x-ratelimit-remaining")).toBe("1");
      await u.client.get("/events", { queue_id: q, last_event_id: -1, dont_block: true });
      (await u.client.get("/events", { queue_id: q, last_event_id: -1, dont_block: true })).error("API usage exceeded rate limit", "RATE_LIMIT_HIT", 429);
    } finally {
      await limited.close();
    }
    // the headers made once were not changed by the answers that used them
    const again = await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true });
    expect([...(again.response.headers as unknown as Iterable<[string, string]>)].map(([k]) => k).sort()).toEqual(["cache-control", "content-type"]);
  });

  test("refuse a last_event_id or dont_block that is not what it should be, with Zulip's errors", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", { event_types: ["message"] })).success();
    (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: "abc", dont_block: true })).error("last_event_id is not valid JSON", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: "1.5", dont_block: true })).error("last_event_id is not an integer", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: 0, dont_block: "yes" })).error("dont_block is not valid JSON", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.get("/events", { queue_id, dont_block: true })).error("Missing 'last_event_id' argument", "BAD_REQUEST", 400);
  });
});
