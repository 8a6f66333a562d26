import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { hashPassword } from "../../src/actions/users";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe("HTTP Basic authentication", () => {
  test("a valid email and API key reach the endpoint", async () => {
    const me = (await s.users.hamlet.client.get("/users/me")).success();
    expect(me.user_id).toBe(s.users.hamlet.id);
    expect(me.email).toBe("hamlet@zulip.com");
    expect(me.role).toBe(400);
  });

  test("the email is matched case-insensitively", async () => {
    const r = await s.clientFor("HAMLET@Zulip.com", s.users.hamlet.apiKey).get("/users/me");
    expect(r.success().user_id).toBe(s.users.hamlet.id);
  });

  test("missing credentials get 401 UNAUTHORIZED with a Basic challenge", async () => {
    const r = await s.anonymous.get("/users/me");
    r.error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    expect(r.header("www-authenticate")).toBe('Basic realm="zulip"');
  });

  test("a wrong key, a malformed key and a key of another user are refused", async () => {
    (await s.clientFor("hamlet@zulip.com", "x".repeat(32)).get("/users/me")).error("Invalid API key", "UNAUTHORIZED", 401);
    (await s.clientFor("hamlet@zulip.com", "short").get("/users/me")).error("Malformed API key", "UNAUTHORIZED", 401);
    (await s.clientFor("hamlet@zulip.com", s.users.iago.apiKey).get("/users/me")).error("Invalid API key", "UNAUTHORIZED", 401);
  });

  test("a deactivated user's key stops working at once", async () => {
    const u = s.users.cordelia;
    await s.app.db.run("UPDATE users SET is_active = 0 WHERE id = ?", [u.id]);
    try {
      (await u.client.get("/users/me")).error("Account is deactivated", "UNAUTHORIZED", 401);
    } finally {
      await s.app.db.run("UPDATE users SET is_active = 1 WHERE id = ?", [u.id]);
    }
  });
});

describe("POST /fetch_api_key", () => {
  test("the right password returns the API key", async () => {
    await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("correct horse"), s.users.othello.id]);
    const r = (await s.anonymous.post("/fetch_api_key", { username: "othello@zulip.com", password: "correct horse" })).success();
    expect(r).toMatchObject({ api_key: s.users.othello.apiKey, email: "othello@zulip.com", user_id: s.users.othello.id });
  });

  test("a wrong password or unknown user is 401 AUTHENTICATION_FAILED", async () => {
    (await s.anonymous.post("/fetch_api_key", { username: "othello@zulip.com", password: "nope" })).error("Your username or password is incorrect", "AUTHENTICATION_FAILED", 401);
    (await s.anonymous.post("/fetch_api_key", { username: "nobody@zulip.com", password: "nope" })).error("Your username or password is incorrect", "AUTHENTICATION_FAILED", 401);
  });

  test("a missing argument is named", async () => {
    (await s.anonymous.post("/fetch_api_key", { username: "othello@zulip.com" })).error("Missing 'password' argument", "REQUEST_VARIABLE_MISSING", 400);
  });
});

describe("POST /users/me/api_key/regenerate", () => {
  test("returns a new key and the old one stops working", async () => {
    const u = s.users.shiva;
    const r = (await u.client.post("/users/me/api_key/regenerate")).success();
    expect(r.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(r.api_key).not.toBe(u.apiKey);
    (await u.client.get("/users/me")).error("Invalid API key", "UNAUTHORIZED", 401);
    (await s.clientFor(u.email, r.api_key).get("/users/me")).success();
  });
});

describe("GET /server_settings", () => {
  test("answers without authentication with version and feature level", async () => {
    const r = (await s.anonymous.get("/server_settings")).success();
    expect(r.zulip_feature_level).toBeGreaterThanOrEqual(371);
    expect(typeof r.zulip_version).toBe("string");
    expect(r.realm_name).toBe("Zulip Dev");
    expect(r.realm_url).toBe("http://parley.test");
    expect(r.authentication_methods.password).toBe(true);
  });
});
