/**
 * Failed logins are throttled per account (Zulip: 5 failures in 30 minutes) and per client address,
 * on POST /fetch_api_key, the web login and HTTP Basic with a wrong key. Time passes on the test clock.
 * The per-address tests go through a real socket from several loopback addresses (127.0.0.x).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import http from "node:http";
import { startServer, type TestServer } from "../helpers/server";

const MINUTE = 60_000;
// unknown accounts are checked against a full-cost hash, so that they take as long as known ones
setDefaultTimeout(60_000);

/** A cheap argon2id hash: every attempt here verifies one, and the real cost is not what is tested. */
async function setPassword(s: TestServer, userId: number, password: string) {
  const hash = await Bun.password.hash(password, { algorithm: "argon2id", memoryCost: 256, timeCost: 1 });
  await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [hash, userId]);
}

describe("per account, through the API and the web login", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
    await setPassword(s, s.users.hamlet.id, "hamlet-pass");
    await setPassword(s, s.users.othello.id, "othello-pass");
  });
  afterAll(() => s.close());

  const fetchKey = (username: string, password: string) => s.anonymous.post("/fetch_api_key", { username, password });

  test("five failures in 30 minutes make the sixth attempt wait, even with the right password, until the oldest leaves the window", async () => {
    for (let i = 0; i < 5; i++) {
      (await fetchKey("hamlet@zulip.com", "wrong")).error("Your username or password is incorrect", "AUTHENTICATION_FAILED", 401);
      s.clock.advance(MINUTE);
    }
    const refused = await fetchKey("Hamlet@Zulip.com ", "hamlet-pass");
    const body = refused.error("API usage exceeded rate limit", "RATE_LIMIT_HIT", 429);
    expect(body["retry-after"]).toBe(25 * 60); // the first failure leaves the window 30 minutes after it
    expect(refused.header("retry-after")).toBe("1500");
    s.clock.advance(25 * MINUTE - 1);
    (await fetchKey("hamlet@zulip.com", "hamlet-pass")).error("API usage exceeded rate limit", "RATE_LIMIT_HIT", 429);
    s.clock.advance(1);
    expect((await fetchKey("hamlet@zulip.com", "hamlet-pass")).success().api_key).toBe(s.users.hamlet.apiKey);
    // another account was never touched
    expect((await fetchKey("othello@zulip.com", "othello-pass")).success().user_id).toBe(s.users.othello.id);
  });

  test("an unknown account is counted like a known one, so the answers do not tell them apart", async () => {
    for (let i = 0; i < 5; i++) (await fetchKey("nobody@zulip.com", "guess")).error("Your username or password is incorrect", "AUTHENTICATION_FAILED", 401);
    (await fetchKey("nobody@zulip.com", "guess")).error("API usage exceeded rate limit", "RATE_LIMIT_HIT", 429);
    s.clock.advance(30 * MINUTE);
  });

  test("the web login redirects to a page that says how long to wait", async () => {
    const login = (password: string) =>
      s.server.handle(new Request("http://parley.test/login", { method: "POST", body: new URLSearchParams({ username: "othello@zulip.com", password }), headers: { "content-type": "application/x-www-form-urlencoded" } }));
    for (let i = 0; i < 5; i++) expect((await login("wrong")).headers.get("location")).toBe("/?login_failed=1");
    const throttled = await login("othello-pass");
    expect(throttled.status).toBe(303);
    expect(throttled.headers.get("location")).toBe("/?login_throttled=1800");
    expect(throttled.headers.getSetCookie()).toEqual([]);
    const page = await (await s.server.handle(new Request("http://parley.test/?login_throttled=1800"))).text();
    expect(page).toContain(`<p class="login-error" role="alert">You&#x27;re making too many attempts to sign in. Try again in 1800 seconds or contact your organization administrator for help.</p>`);
    s.clock.advance(30 * MINUTE);
    expect((await login("othello-pass")).headers.get("location")).toBe("/");
  });
});

describe("per address, over real connections from 127.0.0.2, .3 and .4", () => {
  let s: TestServer;
  let listening: ReturnType<TestServer["server"]["listen"]>;
  let port = 0;
  beforeAll(async () => {
    s = await startServer({
      config: (c) => {
        c.rate_limit.login_failures_per_address = 4;
      },
    });
    for (const name of ["hamlet", "othello", "cordelia", "iago"] as const) await setPassword(s, s.users[name].id, `${name}-pass`);
    listening = s.server.listen({ hostname: "127.0.0.1", port: 0, reusePort: false });
    port = listening.server!.port!;
  });
  afterAll(async () => {
    await listening.stop(true);
    await s.close();
  });

  /** A request from a chosen loopback address (node's http client can bind the local end). */
  function from(address: string, method: string, path: string, opts: { form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const body = opts.form ? new URLSearchParams(opts.form).toString() : "";
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; json: any }>((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port, method, path, localAddress: address, headers: { ...(body ? { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) } : {}), ...opts.headers } },
        (res) => {
          let text = "";
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : null }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }
  const fetchKey = (address: string, username: string, password: string) => from(address, "POST", "/api/v1/fetch_api_key", { form: { username, password } });
  const basic = (email: string, key: string) => ({ authorization: "Basic " + btoa(`${email}:${key}`) });

  test("guesses at many accounts from one address throttle that address, and no other", async () => {
    for (const name of ["hamlet", "othello", "cordelia", "iago"]) expect((await fetchKey("127.0.0.2", `${name}@zulip.com`, "guess")).status).toBe(401);
    const refused = await fetchKey("127.0.0.2", "desdemona@zulip.com", "guess");
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ result: "error", code: "RATE_LIMIT_HIT", msg: "API usage exceeded rate limit", "retry-after": 1800 });
    expect(refused.headers["retry-after"]).toBe("1800");
    // the right password from that address waits too; from another address it works
    expect((await fetchKey("127.0.0.2", "iago@zulip.com", "iago-pass")).status).toBe(429);
    const ok = await fetchKey("127.0.0.3", "iago@zulip.com", "iago-pass");
    expect(ok.status).toBe(200);
    expect(ok.json.api_key).toBe(s.users.iago.apiKey);
    s.clock.advance(30 * MINUTE);
  });

  test("a success does not reset another address's failures on the same account", async () => {
    for (let i = 0; i < 3; i++) expect((await fetchKey("127.0.0.2", "hamlet@zulip.com", "guess")).status).toBe(401);
    s.clock.advance(MINUTE);
    expect((await fetchKey("127.0.0.3", "hamlet@zulip.com", "hamlet-pass")).status).toBe(200);
    s.clock.advance(MINUTE);
    // two more from a third address make five failures on hamlet within 30 minutes
    for (let i = 0; i < 2; i++) expect((await fetchKey("127.0.0.4", "hamlet@zulip.com", "guess")).status).toBe(401);
    const refused = await fetchKey("127.0.0.3", "hamlet@zulip.com", "hamlet-pass");
    expect(refused.status).toBe(429);
    expect(refused.json["retry-after"]).toBe(28 * 60);
    s.clock.advance(30 * MINUTE);
    // and a success forgives the failures that came from its own address
    for (let i = 0; i < 3; i++) expect((await fetchKey("127.0.0.4", "hamlet@zulip.com", "guess")).status).toBe(401);
    expect((await fetchKey("127.0.0.4", "hamlet@zulip.com", "hamlet-pass")).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await fetchKey("127.0.0.3", "hamlet@zulip.com", "guess")).status).toBe(401);
    expect((await fetchKey("127.0.0.3", "hamlet@zulip.com", "hamlet-pass")).status).toBe(200);
    s.clock.advance(30 * MINUTE);
  });

  test("HTTP Basic with a wrong key is counted per address: then 429 instead of 401, while a right key still gets in", async () => {
    const me = s.users.othello;
    for (let i = 0; i < 4; i++) {
      const r = await from("127.0.0.2", "GET", "/api/v1/users/me", { headers: basic(me.email, "x".repeat(32)) });
      expect([r.status, r.json.msg]).toEqual([401, "Invalid API key"]);
    }
    const refused = await from("127.0.0.2", "GET", "/api/v1/users/me", { headers: basic(me.email, "short") });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: "RATE_LIMIT_HIT", "retry-after": 1800 });
    const right = await from("127.0.0.2", "GET", "/api/v1/users/me", { headers: basic(me.email, me.apiKey) });
    expect([right.status, right.json.user_id]).toEqual([200, me.id]);
    const elsewhere = await from("127.0.0.3", "GET", "/api/v1/users/me", { headers: basic(me.email, "x".repeat(32)) });
    expect([elsewhere.status, elsewhere.json.msg]).toEqual([401, "Invalid API key"]);
    s.clock.advance(30 * MINUTE);
    expect((await from("127.0.0.2", "GET", "/api/v1/users/me", { headers: basic(me.email, "x".repeat(32)) })).status).toBe(401);
  });
});

test("0 turns the login throttle off", async () => {
  const s = await startServer({
    config: (c) => {
      c.rate_limit.login_failures_per_account = 0;
      c.rate_limit.login_failures_per_address = 0;
    },
  });
  try {
    await setPassword(s, s.users.hamlet.id, "hamlet-pass");
    for (let i = 0; i < 8; i++) (await s.anonymous.post("/fetch_api_key", { username: "hamlet@zulip.com", password: "guess" })).error("Your username or password is incorrect", "AUTHENTICATION_FAILED", 401);
    (await s.anonymous.post("/fetch_api_key", { username: "hamlet@zulip.com", password: "hamlet-pass" })).success();
  } finally {
    await s.close();
  }
});
