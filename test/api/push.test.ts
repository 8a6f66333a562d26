import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { realmUuid, userUuid } from "../../src/actions/push-relay";

/** A fake push relay speaking Zulip's bouncer protocol: it remembers registrations and records requests. */
function fakeRelay() {
  const requests: { path: string; auth: string | null; contentType: string | null; body: Record<string, any> }[] = [];
  const registered = new Set<string>();
  let failWith: number | null = null;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const contentType = req.headers.get("content-type");
      const text = await req.text();
      const body = contentType?.includes("json") ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
      requests.push({ path, auth: req.headers.get("authorization"), contentType, body });
      if (failWith) return new Response("oops", { status: failWith });
      const key = `${body.user_uuid}:${body.token_kind}:${body.token}`;
      const ok = () => Response.json({ result: "success", msg: "" });
      const err = (msg: string, code = "BAD_REQUEST") => Response.json({ result: "error", msg, code }, { status: 400 });
      switch (path) {
        case "/api/v1/remotes/push/register":
          registered.add(key);
          return ok();
        case "/api/v1/remotes/push/unregister":
          if (!registered.delete(key)) return err("Token does not exist");
          return ok();
        case "/api/v1/remotes/push/test_notification":
          if (!registered.has(key)) return err("Device not recognized by the push bouncer", "INVALID_REMOTE_PUSH_DEVICE_TOKEN");
          return ok();
      }
      return new Response("not found", { status: 404 });
    },
  });
  return {
    url: `http://server-uuid:secret-key@127.0.0.1:${server.port}`,
    requests,
    registered,
    fail(status: number | null) {
      failWith = status;
    },
    stop: () => server.stop(true),
  };
}

let s: TestServer;
let relay: ReturnType<typeof fakeRelay>;
const APNS = "a1b2c3d4".repeat(8);
const FCM = "fcm-registration-token:APA91b-example";

beforeAll(async () => {
  relay = fakeRelay();
  s = await startServer();
});
afterAll(async () => {
  await s.close();
  relay.stop();
});
beforeEach(() => {
  s.app.config.push.relay_url = "";
  relay.requests.length = 0;
  relay.fail(null);
});

const devices = (userId: number) => s.app.db.all("SELECT kind, token, appid FROM push_devices WHERE user_id = ? ORDER BY id", [userId]);

describe("POST /users/me/apns_device_token", () => {
  test("stores the token with its app id, once", async () => {
    const c = s.users.hamlet.client;
    (await c.post("/users/me/apns_device_token", { token: APNS, appid: "org.zulip.Zulip" })).success();
    (await c.post("/users/me/apns_device_token", { token: APNS, appid: "org.zulip.Zulip" })).success();
    expect(await devices(s.users.hamlet.id)).toEqual([{ kind: "apns", token: APNS, appid: "org.zulip.Zulip" }]);
  });

  test("token and appid are both required", async () => {
    (await s.users.othello.client.post("/users/me/apns_device_token", { token: APNS })).error("Missing 'appid' argument", "REQUEST_VARIABLE_MISSING", 400);
    (await s.users.othello.client.post("/users/me/apns_device_token", { appid: "org.zulip.Zulip" })).error("Missing 'token' argument", "REQUEST_VARIABLE_MISSING", 400);
  });

  test("empty, too long, odd-length and non-hex tokens are refused", async () => {
    const c = s.users.othello.client;
    const add = (token: string) => c.post("/users/me/apns_device_token", { token, appid: "org.zulip.Zulip" });
    (await add("")).error("Empty or invalid length token", "BAD_REQUEST", 400);
    (await add("ab".repeat(2049))).error("Empty or invalid length token", "BAD_REQUEST", 400);
    (await add("abc")).error("Invalid APNS token", "BAD_REQUEST", 400);
    (await add("not-hex-token!")).error("Invalid APNS token", "BAD_REQUEST", 400);
    (await c.post("/users/me/apns_device_token", { token: APNS, appid: "org zulip" })).error("Invalid app ID", "BAD_REQUEST", 400);
    expect(await devices(s.users.othello.id)).toEqual([]);
  });

  test("bots have no mobile devices", async () => {
    const bot = await s.app.db.get<{ id: number }>("SELECT id FROM users WHERE id = ?", [s.users.cordelia.id]);
    await s.app.db.run("UPDATE users SET is_bot = 1, bot_type = 1 WHERE id = ?", [bot!.id]);
    try {
      (await s.users.cordelia.client.post("/users/me/android_gcm_reg_id", { token: FCM })).error("This endpoint does not accept bot requests.");
    } finally {
      await s.app.db.run("UPDATE users SET is_bot = 0, bot_type = NULL WHERE id = ?", [bot!.id]);
    }
  });
});

describe("DELETE /users/me/apns_device_token", () => {
  test("removes the caller's token; an unknown one is refused", async () => {
    const c = s.users.shiva.client;
    (await c.post("/users/me/apns_device_token", { token: APNS, appid: "org.zulip.Zulip" })).success();
    (await s.users.iago.client.delete("/users/me/apns_device_token", { token: APNS })).error("Token does not exist");
    (await c.delete("/users/me/apns_device_token", { token: APNS })).success();
    expect(await devices(s.users.shiva.id)).toEqual([]);
    (await c.delete("/users/me/apns_device_token", { token: APNS })).error("Token does not exist", "BAD_REQUEST", 400);
    (await c.delete("/users/me/apns_device_token", { token: "" })).error("Empty or invalid length token");
    (await c.delete("/users/me/apns_device_token", { token: "zz" })).error("Invalid APNS token");
  });
});

describe("POST and DELETE /users/me/android_gcm_reg_id", () => {
  test("adds and removes an FCM token", async () => {
    const c = s.users.polonius.client;
    (await c.post("/users/me/android_gcm_reg_id", { token: FCM })).success();
    expect(await devices(s.users.polonius.id)).toEqual([{ kind: "fcm", token: FCM, appid: null }]);
    (await c.delete("/users/me/android_gcm_reg_id", { token: FCM })).success();
    expect(await devices(s.users.polonius.id)).toEqual([]);
  });

  test("empty, too long and unknown tokens are refused", async () => {
    const c = s.users.polonius.client;
    (await c.post("/users/me/android_gcm_reg_id", { token: "" })).error("Empty or invalid length token", "BAD_REQUEST", 400);
    (await c.post("/users/me/android_gcm_reg_id", { token: "x".repeat(4097) })).error("Empty or invalid length token", "BAD_REQUEST", 400);
    (await c.delete("/users/me/android_gcm_reg_id", { token: "" })).error("Empty or invalid length token", "BAD_REQUEST", 400);
    (await c.delete("/users/me/android_gcm_reg_id", { token: "never-registered" })).error("Token does not exist", "BAD_REQUEST", 400);
    (await c.post("/users/me/android_gcm_reg_id")).error("Missing 'token' argument", "REQUEST_VARIABLE_MISSING", 400);
  });

  test("an APNs token is not removed through the FCM endpoint", async () => {
    (await s.users.hamlet.client.delete("/users/me/android_gcm_reg_id", { token: APNS })).error("Token does not exist");
    expect((await devices(s.users.hamlet.id)).length).toBe(1);
  });
});

describe("with a push relay", () => {
  test("registering and removing a device is forwarded with the bouncer protocol", async () => {
    s.app.config.push.relay_url = relay.url;
    const u = s.users.desdemona;
    (await u.client.post("/users/me/apns_device_token", { token: APNS, appid: "org.zulip.Zulip" })).success();
    (await u.client.post("/users/me/android_gcm_reg_id", { token: FCM })).success();
    expect(relay.requests.map((r) => r.path)).toEqual(["/api/v1/remotes/push/register", "/api/v1/remotes/push/register"]);
    const [apns, fcm] = relay.requests;
    expect(apns!.auth).toBe("Basic " + btoa("server-uuid:secret-key"));
    expect(apns!.contentType).toContain("application/x-www-form-urlencoded");
    const joined = (await s.app.db.get<{ date_joined: number }>("SELECT date_joined FROM users WHERE id = ?", [u.id]))!.date_joined;
    expect(apns!.body).toEqual({
      server_uuid: "server-uuid",
      realm_uuid: realmUuid(s.app),
      user_uuid: userUuid({ id: u.id, date_joined: joined }),
      user_id: String(u.id),
      token: APNS,
      token_kind: "1",
      ios_app_id: "org.zulip.Zulip",
    });
    expect(fcm!.body).toMatchObject({ token: FCM, token_kind: "2" });
    expect(fcm!.body.ios_app_id).toBeUndefined();
    expect(relay.registered.size).toBe(2);

    (await u.client.delete("/users/me/android_gcm_reg_id", { token: FCM })).success();
    expect(relay.requests[2]!.path).toBe("/api/v1/remotes/push/unregister");
    expect(relay.registered.size).toBe(1);
    expect(await devices(u.id)).toEqual([{ kind: "apns", token: APNS, appid: "org.zulip.Zulip" }]);
  });

  test("a relay that fails is a 502 with Zulip's message", async () => {
    s.app.config.push.relay_url = relay.url;
    relay.fail(500);
    (await s.users.desdemona.client.post("/users/me/android_gcm_reg_id", { token: "another-token" })).error("Received 500 from push notification bouncer", "BAD_REQUEST", 502);
  });

  test("an unreachable relay is a 502", async () => {
    s.app.config.push.relay_url = "http://127.0.0.1:9";
    (await s.users.desdemona.client.post("/users/me/android_gcm_reg_id", { token: "third-token" })).error(
      "ConnectionError while trying to connect to push notification bouncer",
      "BAD_REQUEST",
      502,
    );
  });
});

describe("POST /mobile_push/test_notification", () => {
  test("without a relay the server answers that push is not configured", async () => {
    (await s.users.hamlet.client.post("/mobile_push/test_notification")).error(
      "Server is not configured to use push notification service.",
      "PUSH_SERVICE_NOT_CONFIGURED",
      400,
    );
    (await s.users.hamlet.client.post("/mobile_push/test_notification", { token: APNS })).error(
      "Server is not configured to use push notification service.",
      "PUSH_SERVICE_NOT_CONFIGURED",
      400,
    );
  });

  test("a token the server does not know is INVALID_PUSH_DEVICE_TOKEN", async () => {
    s.app.config.push.relay_url = relay.url;
    (await s.users.hamlet.client.post("/mobile_push/test_notification", { token: "0000" })).error("Device not recognized", "INVALID_PUSH_DEVICE_TOKEN", 400);
    // another user's token is unknown for this user
    (await s.users.iago.client.post("/mobile_push/test_notification", { token: APNS })).error("Device not recognized", "INVALID_PUSH_DEVICE_TOKEN", 400);
    expect(relay.requests).toEqual([]);
  });

  test("sends one test notification for a known token", async () => {
    s.app.config.push.relay_url = relay.url;
    (await s.users.desdemona.client.post("/mobile_push/test_notification", { token: APNS })).success();
    expect(relay.requests).toHaveLength(1);
    const r = relay.requests[0]!;
    expect(r.path).toBe("/api/v1/remotes/push/test_notification");
    expect(r.contentType).toBe("application/json");
    expect(r.body).toMatchObject({
      realm_uuid: realmUuid(s.app),
      user_id: s.users.desdemona.id,
      token: APNS,
      token_kind: 1,
      base_payload: { server: "parley.test", realm_id: s.app.realm!.id, realm_url: "http://parley.test", realm_name: "Zulip Dev", user_id: s.users.desdemona.id },
    });
  });

  test("a token the relay does not know is INVALID_REMOTE_PUSH_DEVICE_TOKEN", async () => {
    // hamlet registered his device while no relay was configured, so the relay never heard of it
    s.app.config.push.relay_url = relay.url;
    (await s.users.hamlet.client.post("/mobile_push/test_notification", { token: APNS })).error(
      "Device not recognized by the push bouncer",
      "INVALID_REMOTE_PUSH_DEVICE_TOKEN",
      400,
    );
  });

  test("without a token every device of the user is targeted", async () => {
    s.app.config.push.relay_url = relay.url;
    const u = s.users.othello;
    (await u.client.post("/users/me/android_gcm_reg_id", { token: "othello-phone" })).success();
    (await u.client.post("/users/me/apns_device_token", { token: "ff".repeat(32), appid: "org.zulip.Zulip" })).success();
    relay.requests.length = 0;
    (await u.client.post("/mobile_push/test_notification")).success();
    expect(relay.requests.map((r) => [r.path, r.body.token])).toEqual([
      ["/api/v1/remotes/push/test_notification", "othello-phone"],
      ["/api/v1/remotes/push/test_notification", "ff".repeat(32)],
    ]);
  });

  test("a user with no devices succeeds with nothing sent", async () => {
    s.app.config.push.relay_url = relay.url;
    (await s.users.iago.client.post("/mobile_push/test_notification")).success();
    expect(relay.requests).toEqual([]);
  });
});
