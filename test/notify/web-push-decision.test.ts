import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { registerQueue, sendDm, sendStream } from "../helpers/messages";
import { createChannel } from "../helpers/channels";
import { browserKeys, decryptAes128gcm, startPushService, verifyVapid, type FakePushService } from "../helpers/push-service";
import { scanNewMessages } from "../../src/notify/scan";
import { deliverDueWebPushes } from "../../src/notify/webpush/deliver";

/** The missed-message decision (src/notify/decide.ts) also queues Web Push (src/notify/webpush/). */
let s: TestServer;
let push: FakePushService;
let channel: number;

beforeAll(async () => {
  push = startPushService();
  s = await startServer({ config: (c) => (c.push.allow_insecure_web_push = true) });
  channel = await createChannel(s, "iago", "Pushy", { subscribers: ["hamlet", "othello"] });
});
afterAll(async () => {
  await s.close();
  push.stop();
});
beforeEach(async () => {
  await scanNewMessages(s.app);
  await s.app.db.run("DELETE FROM web_push_outbox");
});

const queued = (who: CastName) => s.app.db.all<{ message_id: number; trigger: string }>("SELECT message_id, trigger FROM web_push_outbox WHERE user_id = ? ORDER BY id", [s.users[who].id]);
const settings = (who: CastName, changes: Record<string, unknown>) => s.users[who].client.patch("/settings", changes as any).then((r) => r.success());

describe("Web Push from the missed-message decision", () => {
  test("a direct message to someone away reaches their subscribed browser, decrypted with its keys", async () => {
    const keys = browserKeys();
    (await s.users.hamlet.client.post("/users/me/web_push_subscriptions", { endpoint: push.endpoint("/hamlet"), p256dh: keys.p256dh, auth: keys.auth })).success();
    const id = await sendDm(s, "othello", ["hamlet"], "push me");
    await scanNewMessages(s.app);
    expect(await queued("hamlet")).toEqual([{ message_id: id, trigger: "direct_message" }]);
    await deliverDueWebPushes(s.app);
    const [received, ...more] = push.receivedAt("/hamlet");
    expect(more).toEqual([]);
    verifyVapid(received!.headers.get("authorization"), push.origin);
    expect(JSON.parse(readFileSync(join(s.dataDir, "vapid.json"), "utf8")).publicKey).toBeTruthy();
    const payload = JSON.parse(decryptAes128gcm(received!.body, keys));
    expect(JSON.stringify(payload)).toContain("push me");
    expect(payload.trigger).toBe("direct_message");
  });

  test("no push for one's own message, with offline push off, or in a muted topic; a mention and a followed topic do push", async () => {
    await sendDm(s, "hamlet", ["othello"], "from me");
    await scanNewMessages(s.app);
    expect(await queued("hamlet")).toEqual([]);
    await settings("hamlet", { enable_offline_push_notifications: false });
    await sendDm(s, "othello", ["hamlet"], "offline push is off");
    await scanNewMessages(s.app);
    expect(await queued("hamlet")).toEqual([]);
    await settings("hamlet", { enable_offline_push_notifications: true });
    await settings("hamlet", { automatically_follow_topics_where_mentioned: false });
    (await s.users.hamlet.client.post("/user_topics", { stream_id: channel, topic: "quiet", visibility_policy: 1 } as any)).success();
    await sendStream(s, "iago", channel, "quiet", "@**King Hamlet** in a muted topic");
    const mention = await sendStream(s, "iago", channel, "loud", "@**King Hamlet** here");
    await scanNewMessages(s.app);
    expect(await queued("hamlet")).toEqual([{ message_id: mention, trigger: "mentioned" }]);
    await settings("hamlet", { automatically_follow_topics_where_mentioned: true });
  });

  test("with an active client a push still goes when enable_online_push_notifications is on (Zulip's default), and not when it is off", async () => {
    const keys = browserKeys();
    (await s.users.othello.client.post("/users/me/web_push_subscriptions", { endpoint: push.endpoint("/othello"), p256dh: keys.p256dh, auth: keys.auth })).success();
    await registerQueue(s, "othello");
    (await s.users.othello.client.post("/users/me/presence", { status: "active" } as any)).success();
    const online = await sendDm(s, "hamlet", ["othello"], "you are online");
    await scanNewMessages(s.app);
    expect(await queued("othello")).toEqual([{ message_id: online, trigger: "direct_message" }]);
    // (no email while the client is active)
    expect(await s.app.db.all("SELECT message_id FROM missed_message_emails WHERE user_id = ? AND message_id = ?", [s.users.othello.id, online])).toEqual([]);
    await settings("othello", { enable_online_push_notifications: false });
    await sendDm(s, "hamlet", ["othello"], "still online");
    await scanNewMessages(s.app);
    expect(await queued("othello")).toEqual([{ message_id: online, trigger: "direct_message" }]);
  });

  test("someone with no Web Push subscription gets no push row (nothing could reach them), and still their email", async () => {
    await s.app.db.run("DELETE FROM web_push_subscriptions WHERE user_id = ?", [s.users.cordelia.id]);
    const id = await sendDm(s, "iago", ["cordelia"], "no browser here");
    const batch = await sendDm(s, "iago", ["cordelia", "hamlet"], "one browser of two");
    await scanNewMessages(s.app);
    expect(await queued("cordelia")).toEqual([]);
    expect(await queued("hamlet")).toEqual([{ message_id: batch, trigger: "direct_message" }]);
    expect(await s.app.db.all("SELECT message_id, trigger FROM missed_message_emails WHERE user_id = ? AND message_id IN (?, ?) ORDER BY message_id", [s.users.cordelia.id, id, batch])).toEqual([
      { message_id: id, trigger: "direct_message" },
      { message_id: batch, trigger: "direct_message" },
    ]);
    const deliveries = await s.app.db.all<{ n: number }>(
      "SELECT count(*) AS n FROM web_push_deliveries d JOIN web_push_outbox o ON o.id = d.outbox_id WHERE o.message_id = ?",
      [batch],
    );
    expect(deliveries).toEqual([{ n: (await s.app.db.all("SELECT id FROM web_push_subscriptions WHERE user_id = ?", [s.users.hamlet.id])).length }]);
  });
});
