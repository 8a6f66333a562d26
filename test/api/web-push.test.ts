import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../helpers/server";
import { sendDm, sendStream } from "../helpers/messages";
import { createChannel } from "../helpers/channels";
import { browserKeys, decryptAes128gcm, startPushService, verifyVapid, type BrowserKeys, type FakePushService } from "../helpers/push-service";
import { enqueueWebPush } from "../../src/notify/webpush/outbox";
import { BASE_BACKOFF_SECS, MAX_ATTEMPTS, deliverDueWebPushes } from "../../src/notify/webpush/deliver";
import { MAX_SUBSCRIPTIONS } from "../../src/notify/webpush/subscriptions";
import { Scheduler } from "../../src/scheduler";
import { defaultJobs } from "../../src/scheduler/jobs";

let s: TestServer;
let push: FakePushService;
let serial = 0;

beforeAll(async () => {
  push = startPushService();
  s = await startServer();
});
afterAll(async () => {
  await s.close();
  push.stop();
});
beforeEach(async () => {
  s.app.config.push.allow_insecure_web_push = true;
  push.received.length = 0;
  await s.app.db.run("DELETE FROM web_push_subscriptions");
});

const subscriptions = (userId: number) => s.app.db.all<any>("SELECT id, endpoint, p256dh, auth FROM web_push_subscriptions WHERE user_id = ? ORDER BY id", [userId]);
const deliveries = (messageId: number) =>
  s.app.db.all<any>(
    "SELECT d.subscription_id, d.state, d.attempts, d.next_at, d.last_error FROM web_push_deliveries d JOIN web_push_outbox o ON o.id = d.outbox_id WHERE o.message_id = ? ORDER BY d.id",
    [messageId],
  );

/** A browser of `who` subscribed on the fake push service; its path there and its keys. */
async function subscribe(who: "hamlet" | "othello" | "cordelia" | "iago", path = `/push/${++serial}`): Promise<{ id: number; path: string; keys: BrowserKeys }> {
  const keys = browserKeys();
  const r = (await s.users[who].client.post("/users/me/web_push_subscriptions", { endpoint: push.endpoint(path), p256dh: keys.p256dh, auth: keys.auth })).success();
  return { id: r.id, path, keys };
}

const enqueue = (userId: number, messageId: number, trigger = "private_message") => s.app.db.tx((sql) => enqueueWebPush(sql, { userId, messageId, trigger }));

/** The pushes that reached `path`, decrypted and their VAPID header checked. */
function pushesAt(path: string, keys: BrowserKeys): any[] {
  const vapidKey = JSON.parse(readFileSync(join(s.dataDir, "vapid.json"), "utf8")).publicKey;
  return push.receivedAt(path).map((r) => {
    const vapid = verifyVapid(r.headers.get("authorization"), push.origin);
    expect(vapid.publicKey).toBe(vapidKey);
    expect(r.headers.get("content-encoding")).toBe("aes128gcm");
    return { topic: r.headers.get("topic"), ttl: Number(r.headers.get("ttl")), payload: JSON.parse(decryptAes128gcm(r.body, keys)) };
  });
}

/** Records the log's warnings while `fn` runs. */
async function warnings(fn: () => Promise<unknown>): Promise<{ msg: string; extra?: Record<string, unknown> }[]> {
  const seen: { msg: string; extra?: Record<string, unknown> }[] = [];
  const original = s.app.log.warn;
  s.app.log.warn = (msg, extra) => void seen.push({ msg, extra });
  try {
    await fn();
  } finally {
    s.app.log.warn = original;
  }
  return seen;
}

describe("the VAPID key", () => {
  test("is made on first use, kept in the data dir with mode 0600, and given by /server_settings and /register", async () => {
    const settings = (await s.anonymous.get("/server_settings")).success();
    const file = join(s.dataDir, "vapid.json");
    const saved = JSON.parse(readFileSync(file, "utf8"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(settings.web_push_vapid_public_key).toBe(saved.publicKey);
    // an uncompressed P-256 point, base64url
    expect(Buffer.from(saved.publicKey, "base64url")).toHaveLength(65);
    expect(saved.publicKey).toMatch(/^[A-Za-z0-9_-]+$/);
    const register = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm"] })).success();
    expect(register.web_push_vapid_public_key).toBe(saved.publicKey);
  }, 30_000);
});

describe("POST /users/me/web_push_subscriptions", () => {
  test("stores the browser's subscription and answers its id; the same endpoint again updates the keys and keeps the id", async () => {
    const first = browserKeys();
    const endpoint = push.endpoint("/push/same");
    const a = (await s.users.hamlet.client.post("/users/me/web_push_subscriptions", { endpoint, p256dh: first.p256dh, auth: first.auth })).success();
    expect(a).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    const again = browserKeys();
    const b = (await s.users.hamlet.client.post("/users/me/web_push_subscriptions", { endpoint, p256dh: again.p256dh, auth: again.auth })).success();
    expect(b.id).toBe(a.id);
    expect((await subscriptions(s.users.hamlet.id)).filter((x) => x.endpoint === endpoint)).toEqual([{ id: a.id, endpoint, p256dh: again.p256dh, auth: again.auth }]);
    // the same endpoint for someone else is their own subscription
    const c = (await s.users.othello.client.post("/users/me/web_push_subscriptions", { endpoint, p256dh: first.p256dh, auth: first.auth })).success();
    expect(c.id).not.toBe(a.id);
  });

  test("a person keeps at most MAX_SUBSCRIPTIONS browsers: a new one past that replaces the oldest, an existing one updating does not", async () => {
    const made: number[] = [];
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) made.push((await subscribe("othello")).id);
    const k = browserKeys();
    // the oldest updates its keys: nothing is dropped
    const oldest = (await subscriptions(s.users.othello.id))[0]!;
    (await s.users.othello.client.post("/users/me/web_push_subscriptions", { endpoint: oldest.endpoint, p256dh: k.p256dh, auth: k.auth })).success();
    expect((await subscriptions(s.users.othello.id)).map((x) => x.id)).toEqual(made);
    const newest = (await subscribe("othello")).id;
    expect((await subscriptions(s.users.othello.id)).map((x) => x.id)).toEqual([...made.slice(1), newest]);
    // someone else's are not touched
    expect((await subscriptions(s.users.hamlet.id)).length).toBe(0);
  });

  test("keys with base64 padding are accepted and stored without it", async () => {
    const keys = browserKeys();
    const r = (await s.users.cordelia.client.post("/users/me/web_push_subscriptions", { endpoint: push.endpoint("/push/padded"), p256dh: keys.p256dh + "=", auth: keys.auth + "==" })).success();
    expect((await subscriptions(s.users.cordelia.id)).find((x) => x.id === r.id)).toMatchObject({ p256dh: keys.p256dh, auth: keys.auth });
  });

  test("each argument is required", async () => {
    const k = browserKeys();
    const c = s.users.hamlet.client;
    (await c.post("/users/me/web_push_subscriptions", { p256dh: k.p256dh, auth: k.auth })).error("Missing 'endpoint' argument", "REQUEST_VARIABLE_MISSING", 400);
    (await c.post("/users/me/web_push_subscriptions", { endpoint: push.endpoint("/x"), auth: k.auth })).error("Missing 'p256dh' argument", "REQUEST_VARIABLE_MISSING", 400);
    (await c.post("/users/me/web_push_subscriptions", { endpoint: push.endpoint("/x"), p256dh: k.p256dh })).error("Missing 'auth' argument", "REQUEST_VARIABLE_MISSING", 400);
  });

  test("a p256dh that is not a P-256 public key and an auth that is not 16 bytes are refused, and nothing is stored", async () => {
    const before = await subscriptions(s.users.hamlet.id);
    const k = browserKeys();
    const c = s.users.hamlet.client;
    const post = (p256dh: string, auth: string) => c.post("/users/me/web_push_subscriptions", { endpoint: push.endpoint("/push/bad"), p256dh, auth });
    const badKey = "Invalid p256dh: not a P-256 public key (65 bytes, base64url)";
    (await post(k.p256dh.slice(0, 40), k.auth)).error(badKey, "BAD_REQUEST", 400);
    (await post("not base64url!", k.auth)).error(badKey, "BAD_REQUEST", 400);
    // 65 bytes starting 0x04 but not a point on the curve
    (await post(Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString("base64url"), k.auth)).error(badKey, "BAD_REQUEST", 400);
    // a compressed point (33 bytes)
    (await post(Buffer.concat([Buffer.from([2]), Buffer.from(k.p256dh, "base64url").subarray(1, 33)]).toString("base64url"), k.auth)).error(badKey, "BAD_REQUEST", 400);
    const badAuth = "Invalid auth: not a 16-byte secret (base64url)";
    (await post(k.p256dh, Buffer.alloc(15).toString("base64url"))).error(badAuth, "BAD_REQUEST", 400);
    (await post(k.p256dh, Buffer.alloc(32).toString("base64url"))).error(badAuth, "BAD_REQUEST", 400);
    (await post(k.p256dh, "")).error(badAuth, "BAD_REQUEST", 400);
    (await c.post("/users/me/web_push_subscriptions", { endpoint: "not a url", p256dh: k.p256dh, auth: k.auth })).error("Invalid endpoint: not a URL", "BAD_REQUEST", 400);
    expect(await subscriptions(s.users.hamlet.id)).toEqual(before);
  });

  test("bots are refused", async () => {
    await s.app.db.run("UPDATE users SET is_bot = 1, bot_type = 1 WHERE id = ?", [s.users.polonius.id]);
    try {
      const k = browserKeys();
      (await s.users.polonius.client.post("/users/me/web_push_subscriptions", { endpoint: push.endpoint("/push/bot"), p256dh: k.p256dh, auth: k.auth })).error(
        "This endpoint does not accept bot requests.",
        "BAD_REQUEST",
        400,
      );
      (await s.users.polonius.client.delete("/users/me/web_push_subscriptions/1")).error("This endpoint does not accept bot requests.", "BAD_REQUEST", 400);
      expect(await subscriptions(s.users.polonius.id)).toEqual([]);
    } finally {
      await s.app.db.run("UPDATE users SET is_bot = 0, bot_type = NULL WHERE id = ?", [s.users.polonius.id]);
    }
  });

  test("without the client's credentials nothing is stored", async () => {
    const k = browserKeys();
    const r = await s.anonymous.post("/users/me/web_push_subscriptions", { endpoint: push.endpoint("/push/anon"), p256dh: k.p256dh, auth: k.auth });
    expect(r.status).toBe(401);
    expect(r.json.result).toBe("error");
    expect(await s.app.db.get("SELECT 1 FROM web_push_subscriptions WHERE endpoint = ?", [push.endpoint("/push/anon")])).toBeUndefined();
  });
});

describe("where pushes may go", () => {
  const refusedEndpoints: [string, string][] = [
    ["http://push.example.com/x", "Invalid endpoint: it must be an https URL"],
    ["ftp://push.example.com/x", "Invalid endpoint: it must be an https URL"],
    ["https://user:pw@push.example.com/x", "Invalid endpoint: it must not hold a user name or password"],
    ["https://127.0.0.1/x", "Invalid endpoint: not a public address"],
    ["https://127.1:8443/x", "Invalid endpoint: not a public address"],
    ["https://2130706433/x", "Invalid endpoint: not a public address"],
    ["https://[::1]/x", "Invalid endpoint: not a public address"],
    ["https://[::ffff:127.0.0.1]/x", "Invalid endpoint: not a public address"],
    ["https://10.1.2.3/x", "Invalid endpoint: not a public address"],
    ["https://172.16.0.1/x", "Invalid endpoint: not a public address"],
    ["https://192.168.1.1/x", "Invalid endpoint: not a public address"],
    ["https://169.254.169.254/latest/meta-data", "Invalid endpoint: not a public address"],
    ["https://100.64.0.1/x", "Invalid endpoint: not a public address"],
    ["https://224.0.0.1/x", "Invalid endpoint: not a public address"],
    ["https://0.0.0.0/x", "Invalid endpoint: not a public address"],
    ["https://[::]/x", "Invalid endpoint: not a public address"],
    ["https://[fd12:3456::1]/x", "Invalid endpoint: not a public address"],
    ["https://[fe80::1]/x", "Invalid endpoint: not a public address"],
    ["https://[ff02::1]/x", "Invalid endpoint: not a public address"],
  ];

  test("without [push] allow_insecure_web_push, http, loopback, private, link-local, unique-local, CGNAT, multicast and unspecified addresses are refused", async () => {
    s.app.config.push.allow_insecure_web_push = false;
    const k = browserKeys();
    for (const [endpoint, msg] of refusedEndpoints) {
      (await s.users.iago.client.post("/users/me/web_push_subscriptions", { endpoint, p256dh: k.p256dh, auth: k.auth })).error(msg, "BAD_REQUEST", 400);
    }
    expect(await subscriptions(s.users.iago.id)).toEqual([]);
  });

  test("https on a public address or a name is accepted", async () => {
    s.app.config.push.allow_insecure_web_push = false;
    const k = browserKeys();
    for (const endpoint of ["https://fcm.googleapis.com/fcm/send/abc", "https://updates.push.services.mozilla.com/wpush/v2/x", "https://[2606:4700::1111]/x", "https://8.8.8.8/x"]) {
      (await s.users.iago.client.post("/users/me/web_push_subscriptions", { endpoint, p256dh: k.p256dh, auth: k.auth })).success();
    }
    expect((await subscriptions(s.users.iago.id)).map((x) => x.endpoint)).toHaveLength(4);
    await s.app.db.run("DELETE FROM web_push_subscriptions WHERE user_id = ?", [s.users.iago.id]);
  });

  test("with the flag, http and loopback addresses are accepted (tests and LAN experiments)", async () => {
    const k = browserKeys();
    (await s.users.iago.client.post("/users/me/web_push_subscriptions", { endpoint: "http://192.168.1.20:8080/push", p256dh: k.p256dh, auth: k.auth })).success();
    (await s.users.iago.client.post("/users/me/web_push_subscriptions", { endpoint: "http://[::1]:8080/push", p256dh: k.p256dh, auth: k.auth })).success();
    await s.app.db.run("DELETE FROM web_push_subscriptions WHERE user_id = ?", [s.users.iago.id]);
  });

  test("a name that resolves to loopback is accepted as written but refused at send time, without a connection", async () => {
    s.app.config.push.allow_insecure_web_push = false;
    const k = browserKeys();
    const port = new URL(push.origin).port;
    const { id } = (await s.users.cordelia.client.post("/users/me/web_push_subscriptions", { endpoint: `https://localhost:${port}/push/rebound`, p256dh: k.p256dh, auth: k.auth })).success();
    const m = await sendDm(s, "othello", ["cordelia"], "through the name");
    await enqueue(s.users.cordelia.id, m);
    const warned = await warnings(() => deliverDueWebPushes(s.app));
    expect(push.received).toEqual([]);
    const [d] = await deliveries(m);
    expect(d).toMatchObject({ subscription_id: id, state: "failed", attempts: 1 });
    expect(d.last_error).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), not a public address$/);
    expect(warned.map((w) => w.msg)).toEqual(["web push failed; not retried"]);
    // a literal address the flag once allowed is refused at send time when the flag is off
    await s.app.db.run("DELETE FROM web_push_subscriptions WHERE id = ?", [id]);
  });

  test("a subscription made while the flag was on is not sent to once it is off", async () => {
    const sub = await subscribe("cordelia");
    s.app.config.push.allow_insecure_web_push = false;
    const m = await sendDm(s, "othello", ["cordelia"], "flag off");
    await enqueue(s.users.cordelia.id, m);
    await deliverDueWebPushes(s.app);
    expect(push.receivedAt(sub.path)).toEqual([]);
    expect(await deliveries(m)).toEqual([expect.objectContaining({ state: "failed", last_error: "Invalid endpoint: it must be an https URL" })]);
    await s.app.db.run("DELETE FROM web_push_subscriptions WHERE id = ?", [sub.id]);
  });
});

describe("DELETE /users/me/web_push_subscriptions/{id}", () => {
  test("deletes one's own subscription and what was still to be sent to it", async () => {
    const sub = await subscribe("hamlet");
    const m = await sendDm(s, "othello", ["hamlet"], "never sent");
    await enqueue(s.users.hamlet.id, m);
    expect((await deliveries(m)).some((d) => d.subscription_id === sub.id)).toBe(true);
    (await s.users.hamlet.client.delete(`/users/me/web_push_subscriptions/${sub.id}`)).success();
    expect((await subscriptions(s.users.hamlet.id)).map((x) => x.id)).not.toContain(sub.id);
    expect((await deliveries(m)).some((d) => d.subscription_id === sub.id)).toBe(false);
    await deliverDueWebPushes(s.app);
    expect(push.receivedAt(sub.path)).toEqual([]);
  });

  test("someone else's subscription is refused like an unknown one, and stays", async () => {
    const sub = await subscribe("othello");
    (await s.users.hamlet.client.delete(`/users/me/web_push_subscriptions/${sub.id}`)).error("Invalid subscription ID", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.delete("/users/me/web_push_subscriptions/999999")).error("Invalid subscription ID", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.delete("/users/me/web_push_subscriptions/abc")).error("Invalid subscription_id", "BAD_REQUEST", 400);
    expect((await subscriptions(s.users.othello.id)).map((x) => x.id)).toContain(sub.id);
    (await s.users.othello.client.delete(`/users/me/web_push_subscriptions/${sub.id}`)).success();
  });
});

describe("the Web Push outbox", () => {
  test("a direct message is pushed once, encrypted for the browser and signed with the server's VAPID key, with the sender, the people and a link", async () => {
    const sub = await subscribe("hamlet");
    const m = await sendDm(s, "othello", ["hamlet"], "Are you **there**? <3 & more");
    expect(await enqueue(s.users.hamlet.id, m)).toBe(true);
    expect(await deliverDueWebPushes(s.app)).toBe(1);
    const [p, ...more] = pushesAt(sub.path, sub.keys);
    expect(more).toEqual([]);
    expect(p.topic).toBe(`m${m}`);
    expect(p.ttl).toBeGreaterThan(0);
    expect(p.payload).toEqual({
      message_id: m,
      trigger: "private_message",
      sender: { id: s.users.othello.id, name: "Othello, the Moor of Venice", avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//) },
      conversation: { type: "private", people: [{ id: s.users.othello.id, name: "Othello, the Moor of Venice" }] },
      content: "Are you there? <3 & more",
      url: `http://parley.test/#narrow/dm/${s.users.othello.id}-Othello.2C-the-Moor-of-Venice/near/${m}`,
    });
    expect(await deliveries(m)).toEqual([expect.objectContaining({ subscription_id: sub.id, state: "sent", attempts: 1 })]);
    // nothing twice: the next runs send nothing
    expect(await deliverDueWebPushes(s.app)).toBe(0);
    s.clock.advance(3600_000);
    await deliverDueWebPushes(s.app);
    expect(push.receivedAt(sub.path)).toHaveLength(1);
  });

  test("a group direct message links to the group; a channel message names the channel and topic and links to the topic", async () => {
    const sub = await subscribe("hamlet");
    const group = await sendDm(s, "othello", ["hamlet", "cordelia"], "all of us");
    const verona = await createChannel(s, "othello", "Verona", { subscribers: ["hamlet"] });
    const inChannel = await sendStream(s, "othello", "Verona", "castle & moat", "@**King Hamlet** look");
    await enqueue(s.users.hamlet.id, group);
    await enqueue(s.users.hamlet.id, inChannel, "mentioned");
    await deliverDueWebPushes(s.app);
    const byId = new Map(pushesAt(sub.path, sub.keys).map((p) => [p.payload.message_id, p.payload]));
    const ids = [s.users.othello.id, s.users.cordelia.id].sort((a, b) => a - b);
    expect(byId.get(group).conversation.people.map((x: any) => x.id).sort()).toEqual(ids.sort());
    expect(byId.get(group).url).toBe(`http://parley.test/#narrow/dm/${ids.join(",")}-group/near/${group}`);
    expect(byId.get(inChannel)).toMatchObject({
      trigger: "mentioned",
      conversation: { type: "stream", channel_id: verona, channel: "Verona", topic: "castle & moat" },
      content: "@King Hamlet look",
      url: `http://parley.test/#narrow/channel/${verona}-Verona/topic/castle.20.26.20moat/near/${inChannel}`,
    });
  });

  test("the timer loop's deliver-web-pushes job sends what is due, at least every second", async () => {
    const job = defaultJobs().find((j) => j.name === "deliver-web-pushes")!;
    expect(job.intervalMs).toBeLessThanOrEqual(1000);
    const sub = await subscribe("hamlet");
    const m = await sendDm(s, "othello", ["hamlet"], "from the loop");
    await enqueue(s.users.hamlet.id, m);
    const loop = new Scheduler(s.app, [job]);
    await loop.tick();
    await loop.stop();
    expect(loop.status()[0]!.failures).toBe(0);
    expect(pushesAt(sub.path, sub.keys).map((p) => p.payload.content)).toEqual(["from the loop"]);
  });

  test("each of the person's browsers gets the push; a second enqueue of the same message queues nothing", async () => {
    const a = await subscribe("hamlet");
    const b = await subscribe("hamlet");
    const m = await sendDm(s, "cordelia", ["hamlet"], "two screens");
    expect(await enqueue(s.users.hamlet.id, m)).toBe(true);
    expect(await enqueue(s.users.hamlet.id, m, "mentioned")).toBe(false);
    await deliverDueWebPushes(s.app);
    expect(pushesAt(a.path, a.keys).map((p) => p.payload.content)).toEqual(["two screens"]);
    expect(pushesAt(b.path, b.keys).map((p) => p.payload.content)).toEqual(["two screens"]);
    expect(await s.app.db.all("SELECT trigger FROM web_push_outbox WHERE message_id = ?", [m])).toEqual([{ trigger: "private_message" }]);
  });

  test("a person with no subscription is recorded and nothing is sent; a browser subscribing later does not get old messages", async () => {
    const m = await sendDm(s, "cordelia", ["hamlet"], "before subscribing");
    expect(await enqueue(s.users.hamlet.id, m)).toBe(true);
    const sub = await subscribe("hamlet");
    await deliverDueWebPushes(s.app);
    expect(push.receivedAt(sub.path)).toEqual([]);
    expect(await deliveries(m)).toEqual([]);
  });

  test("a message read or deleted before the push went out is skipped", async () => {
    const sub = await subscribe("hamlet");
    const read = await sendDm(s, "othello", ["hamlet"], "read it already");
    const deleted = await sendDm(s, "othello", ["hamlet"], "oops");
    await enqueue(s.users.hamlet.id, read);
    await enqueue(s.users.hamlet.id, deleted);
    (await s.users.hamlet.client.post("/messages/flags", { messages: [read], op: "add", flag: "read" })).success();
    (await s.users.othello.client.delete(`/messages/${deleted}`)).success();
    await deliverDueWebPushes(s.app);
    expect(push.receivedAt(sub.path)).toEqual([]);
    expect((await deliveries(read))[0]).toMatchObject({ state: "skipped" });
    expect((await deliveries(deleted))[0]).toMatchObject({ state: "skipped" });
  });

  test("when the organization keeps message content out of notifications, the push carries no text", async () => {
    const sub = await subscribe("hamlet");
    (await s.users.desdemona.client.patch("/realm", { message_content_allowed_in_email_notifications: false })).success();
    try {
      const m = await sendDm(s, "othello", ["hamlet"], "the secret plan");
      await enqueue(s.users.hamlet.id, m);
      await deliverDueWebPushes(s.app);
      const [p] = pushesAt(sub.path, sub.keys);
      expect(p.payload.content).toBeNull();
      expect(p.payload.sender.name).toBe("Othello, the Moor of Venice");
      expect(JSON.stringify(p.payload)).not.toContain("secret");
    } finally {
      (await s.users.desdemona.client.patch("/realm", { message_content_allowed_in_email_notifications: true })).success();
    }
  });

  test("with [push] redact_content the push carries no text, whatever the organization allows", async () => {
    const sub = await subscribe("hamlet");
    s.app.config.push.redact_content = true;
    try {
      const m = await sendDm(s, "othello", ["hamlet"], "the other secret");
      await enqueue(s.users.hamlet.id, m);
      await deliverDueWebPushes(s.app);
      const [p] = pushesAt(sub.path, sub.keys);
      expect(p.payload).toMatchObject({ message_id: m, content: null });
      expect(JSON.stringify(p.payload)).not.toContain("secret");
    } finally {
      s.app.config.push.redact_content = false;
    }
  });

  test("a long message is shortened", async () => {
    const sub = await subscribe("hamlet");
    const m = await sendDm(s, "othello", ["hamlet"], "word ".repeat(400));
    await enqueue(s.users.hamlet.id, m);
    await deliverDueWebPushes(s.app);
    const [p] = pushesAt(sub.path, sub.keys);
    expect([...p.payload.content].length).toBe(200);
    expect(p.payload.content.endsWith("…")).toBe(true);
  });

  test("a subscription the push service answers 404 or 410 is deleted", async () => {
    const gone = await subscribe("hamlet");
    const missing = await subscribe("hamlet");
    const fine = await subscribe("hamlet");
    push.answer(gone.path, 410);
    push.answer(missing.path, 404);
    const m = await sendDm(s, "othello", ["hamlet"], "anyone?");
    await enqueue(s.users.hamlet.id, m);
    await deliverDueWebPushes(s.app);
    expect((await subscriptions(s.users.hamlet.id)).map((x) => x.id)).toEqual([fine.id]);
    expect(await deliveries(m)).toEqual([expect.objectContaining({ subscription_id: fine.id, state: "sent" })]);
  });

  test("5xx answers and network failures are retried with exponential back-off, only to the failing browser, and given up after the bound with a log line", async () => {
    const flaky = await subscribe("hamlet");
    const fine = await subscribe("hamlet");
    push.answer(flaky.path, 503);
    const m = await sendDm(s, "othello", ["hamlet"], "retry me");
    await enqueue(s.users.hamlet.id, m);
    const start = s.clock.now() / 1000;
    await deliverDueWebPushes(s.app);
    expect(push.receivedAt(fine.path)).toHaveLength(1);
    let [d] = (await deliveries(m)).filter((x) => x.subscription_id === flaky.id);
    expect(d).toMatchObject({ state: "pending", attempts: 1, last_error: "push service answered 503", next_at: start + BASE_BACKOFF_SECS });
    // not due yet: nothing goes out
    s.clock.advance((BASE_BACKOFF_SECS - 1) * 1000);
    await deliverDueWebPushes(s.app);
    expect(push.receivedAt(flaky.path)).toHaveLength(1);
    const gaps: number[] = [];
    const warned = await warnings(async () => {
      for (let i = 2; i <= MAX_ATTEMPTS; i++) {
        const before = d.next_at;
        s.clock.ms = before * 1000;
        await deliverDueWebPushes(s.app);
        [d] = (await deliveries(m)).filter((x) => x.subscription_id === flaky.id);
        if (d.state === "pending") gaps.push(d.next_at - before);
      }
    });
    expect(gaps).toEqual([2, 4, 8, 16, 32, 60].map((x) => Math.min(x * BASE_BACKOFF_SECS, 3600)));
    expect(d).toMatchObject({ state: "failed", attempts: MAX_ATTEMPTS });
    expect(push.receivedAt(flaky.path)).toHaveLength(MAX_ATTEMPTS);
    expect(push.receivedAt(fine.path)).toHaveLength(1);
    expect(warned).toEqual([{ msg: `web push gave up after ${MAX_ATTEMPTS} attempts`, extra: expect.objectContaining({ subscription_id: flaky.id, message_id: m, reason: "push service answered 503" }) }]);
    // given up: never again
    s.clock.advance(24 * 3600_000);
    await deliverDueWebPushes(s.app);
    expect(push.receivedAt(flaky.path)).toHaveLength(MAX_ATTEMPTS);
  });

  test("a push service that is down is retried, and delivered once it is back", async () => {
    const keys = browserKeys();
    const down = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const port = down.port;
    down.stop(true);
    const { id } = (await s.users.hamlet.client.post("/users/me/web_push_subscriptions", { endpoint: `http://127.0.0.1:${port}/later`, p256dh: keys.p256dh, auth: keys.auth })).success();
    const m = await sendDm(s, "othello", ["hamlet"], "when you are back");
    await enqueue(s.users.hamlet.id, m);
    await deliverDueWebPushes(s.app);
    const [d] = await deliveries(m);
    expect(d).toMatchObject({ subscription_id: id, state: "pending", attempts: 1 });
    expect(d.last_error).toMatch(/^cannot reach the push service/);
    let got: Buffer | null = null;
    const up = Bun.serve({ hostname: "127.0.0.1", port, fetch: async (r) => ((got = Buffer.from(await r.arrayBuffer())), new Response(null, { status: 201 })) });
    try {
      s.clock.advance(BASE_BACKOFF_SECS * 1000);
      await deliverDueWebPushes(s.app);
      expect(JSON.parse(decryptAes128gcm(got!, keys)).content).toBe("when you are back");
      expect(await deliveries(m)).toEqual([expect.objectContaining({ state: "sent", attempts: 2 })]);
    } finally {
      up.stop(true);
    }
  });

  test("429 with Retry-After waits at least that long", async () => {
    const sub = await subscribe("hamlet");
    push.answer(sub.path, () => new Response(null, { status: 429, headers: { "retry-after": "7200" } }), 201);
    const m = await sendDm(s, "othello", ["hamlet"], "slow down");
    await enqueue(s.users.hamlet.id, m);
    const start = s.clock.now() / 1000;
    await deliverDueWebPushes(s.app);
    expect((await deliveries(m))[0]).toMatchObject({ state: "pending", next_at: start + 7200 });
  });

  test("a Retry-After of years is followed only up to a day", async () => {
    const sub = await subscribe("hamlet");
    push.answer(sub.path, () => new Response(null, { status: 503, headers: { "retry-after": String(10 * 365 * 24 * 3600) } }));
    const m = await sendDm(s, "othello", ["hamlet"], "much later");
    await enqueue(s.users.hamlet.id, m);
    const start = s.clock.now() / 1000;
    await deliverDueWebPushes(s.app);
    expect((await deliveries(m))[0]).toMatchObject({ state: "pending", next_at: start + 24 * 3600 });
  });

  test("a redirect is not followed: the delivery fails and the place it points to hears nothing", async () => {
    const sub = await subscribe("hamlet");
    push.answer(sub.path, () => new Response(null, { status: 307, headers: { location: push.endpoint("/elsewhere") } }));
    const m = await sendDm(s, "othello", ["hamlet"], "follow me");
    await enqueue(s.users.hamlet.id, m);
    await deliverDueWebPushes(s.app);
    expect(push.receivedAt("/elsewhere")).toEqual([]);
    expect(push.receivedAt(sub.path)).toHaveLength(1);
    expect((await deliveries(m))[0]).toMatchObject({ state: "failed", last_error: "push service answered 307 (a redirect, not followed)" });
  });

  test("finished outbox rows are deleted after a week; unfinished ones stay", async () => {
    const sub = await subscribe("hamlet");
    const done = await sendDm(s, "othello", ["hamlet"], "old and sent");
    const stuck = await sendDm(s, "othello", ["hamlet"], "old and failing");
    push.answer(sub.path, 201, 503);
    await s.app.db.tx((sql) => enqueueWebPush(sql, { userId: s.users.hamlet.id, messageId: done, trigger: "private_message", now: s.clock.now() / 1000 }));
    await deliverDueWebPushes(s.app);
    await s.app.db.tx((sql) => enqueueWebPush(sql, { userId: s.users.hamlet.id, messageId: stuck, trigger: "private_message", now: s.clock.now() / 1000 }));
    await deliverDueWebPushes(s.app);
    const outbox = () => s.app.db.all<{ message_id: number }>("SELECT message_id FROM web_push_outbox WHERE message_id IN (?, ?) ORDER BY message_id", [done, stuck]);
    expect(await outbox()).toEqual([{ message_id: done }, { message_id: stuck }]);
    s.clock.advance(8 * 24 * 3600_000);
    await s.app.db.run("UPDATE web_push_deliveries SET next_at = ? WHERE state = 'pending'", [s.clock.now() / 1000 + 3600]);
    await deliverDueWebPushes(s.app);
    expect(await outbox()).toEqual([{ message_id: stuck }]);
  });

  test("a server stopping abandons a push in flight instead of waiting for the push service, and it stays due", async () => {
    const sub = await subscribe("hamlet");
    push.answer(sub.path, () => new Promise<Response>(() => {}));
    const m = await sendDm(s, "othello", ["hamlet"], "slow service");
    await enqueue(s.users.hamlet.id, m);
    const stopping = new AbortController();
    const run = deliverDueWebPushes(s.app, stopping.signal);
    while (push.receivedAt(sub.path).length === 0) await Bun.sleep(10);
    const started = performance.now();
    stopping.abort();
    await run;
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await deliveries(m))[0]).toMatchObject({ state: "pending", last_error: "cannot reach the push service: the server is stopping" });
  });

  test("a claim whose lease ran out (a send that hung or died) is taken again, and the push goes out with the same topic", async () => {
    const sub = await subscribe("hamlet");
    const m = await sendDm(s, "othello", ["hamlet"], "mid-send");
    await enqueue(s.users.hamlet.id, m);
    // claimed, never marked: a live claim is left alone, an expired one is sent again
    await s.app.db.run("UPDATE web_push_deliveries SET state = 'sending', attempts = 1, claimed_until = ? WHERE subscription_id = ?", [s.clock.now() / 1000 + 60, sub.id]);
    await deliverDueWebPushes(s.app);
    expect(push.receivedAt(sub.path)).toEqual([]);
    s.clock.advance(61_000);
    await deliverDueWebPushes(s.app);
    const [p, ...more] = pushesAt(sub.path, sub.keys);
    expect(more).toEqual([]);
    expect(p.topic).toBe(`m${m}`);
    expect((await deliveries(m))[0]).toMatchObject({ state: "sent", attempts: 2 });
  });
});
