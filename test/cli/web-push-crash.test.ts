// Web Push through real processes killed with SIGKILL: what the outbox holds on disk when the server
// dies is sent after the restart, and nothing already acknowledged is sent again.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../helpers/executable";
import { runParley, startParley, type ServeProcess } from "../helpers/serve-process";
import { browserKeys, decryptAes128gcm, startPushService, verifyVapid, type FakePushService } from "../helpers/push-service";
import { openDb } from "../../src/store/db";
import { enqueueWebPush } from "../../src/notify/webpush/outbox";

const root = mkdtempSync(join(tmpdir(), "parley-webpush-crash-"));
let push: FakePushService;
beforeAll(() => {
  push = startPushService();
});
afterAll(() => {
  push.stop();
  rmSync(root, { recursive: true, force: true });
});
let n = 0;

/** A data dir with an owner and a member, served with [push] allow_insecure_web_push (the push service is on loopback). */
function prepare() {
  const dir = join(root, `d${++n}`);
  const config = join(root, `c${n}.toml`);
  writeFileSync(config, "[push]\nallow_insecure_web_push = true\n");
  const init = runParley(["init", "--config", config, "--data-dir", dir, "--org-name", "Crash", "--email", "owner@example.com", "--full-name", "Owner"]);
  if (init.code !== 0) throw new Error(init.err);
  const member = runParley(["create-user", "--config", config, "--data-dir", dir, "--email", "member@example.com", "--full-name", "Member"]);
  if (member.code !== 0) throw new Error(member.err);
  const owner = JSON.parse(init.out) as { user_id: number; email: string; api_key: string };
  const other = JSON.parse(member.out) as { user_id: number; email: string; api_key: string };
  const serve = () => startParley(["serve", "--config", config, "--data-dir", dir, "--port", String(freePort())]);
  const as = (u: { email: string; api_key: string }) => ({ authorization: "Basic " + btoa(`${u.email}:${u.api_key}`) });
  return { dir, owner, other, serve, as };
}

async function post(s: ServeProcess, path: string, headers: Record<string, string>, params: Record<string, string>) {
  const r = await fetch(`${s.base}/api/v1${path}`, { method: "POST", headers, body: new URLSearchParams(params) });
  const body = (await r.json()) as any;
  if (body.result !== "success") throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body;
}

async function waitUntil(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = performance.now() + ms;
  while (!(await ok())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

const kill = async (s: ServeProcess) => {
  s.proc.kill("SIGKILL");
  await s.proc.exited;
};

describe("the Web Push outbox across SIGKILL", () => {
  test("a push enqueued but not sent when the server is killed is sent once after the restart, and not again after another", async () => {
    const t = prepare();
    const keys = browserKeys();
    let s = await t.serve();
    try {
      await post(s, "/users/me/web_push_subscriptions", t.as(t.owner), { endpoint: push.endpoint("/crash/1"), p256dh: keys.p256dh, auth: keys.auth });
      const { id: messageId } = await post(s, "/messages", t.as(t.other), { type: "direct", to: JSON.stringify([t.owner.user_id]), content: "still there?" });
      // the server is frozen, the push is enqueued (committed) beside it, and the server is killed before its
      // timer loop runs again: enqueued, never sent
      s.proc.kill("SIGSTOP");
      const db = await openDb(`file:${join(t.dir, "parley.db")}`);
      await db.tx((sql) => enqueueWebPush(sql, { userId: t.owner.user_id, messageId, trigger: "private_message" }));
      db.close();
      await kill(s);
      expect(push.receivedAt("/crash/1")).toEqual([]);
      s = await t.serve();
      await waitUntil("the push", () => push.receivedAt("/crash/1").length > 0);
      await s.stop();
      s = await t.serve();
      // the job runs on the first tick and then every second: give it a few
      await Bun.sleep(2500);
      const got = push.receivedAt("/crash/1");
      expect(got).toHaveLength(1);
      verifyVapid(got[0]!.headers.get("authorization"), push.origin);
      expect(JSON.parse(decryptAes128gcm(got[0]!.body, keys))).toMatchObject({ message_id: messageId, content: "still there?", sender: { name: "Member" } });
    } finally {
      await kill(s);
    }
  }, 60_000);

  test("a server killed while the push service had not answered sends again after the restart, with the same Topic so the service keeps one", async () => {
    const t = prepare();
    const keys = browserKeys();
    let answerHeld!: () => void;
    const held = new Promise<void>((resolve) => (answerHeld = resolve));
    push.answer("/crash/2", () => held.then(() => new Response(null, { status: 201 })), 201);
    let s = await t.serve();
    try {
      await post(s, "/users/me/web_push_subscriptions", t.as(t.owner), { endpoint: push.endpoint("/crash/2"), p256dh: keys.p256dh, auth: keys.auth });
      const { id: messageId } = await post(s, "/messages", t.as(t.other), { type: "direct", to: JSON.stringify([t.owner.user_id]), content: "mid-flight" });
      // the live server sends it (claimed first); the service holds the answer; the server dies
      const db = await openDb(`file:${join(t.dir, "parley.db")}`);
      await db.tx((sql) => enqueueWebPush(sql, { userId: t.owner.user_id, messageId, trigger: "private_message" }));
      await waitUntil("the first request", () => push.receivedAt("/crash/2").length === 1);
      expect(await db.get("SELECT state, attempts FROM web_push_deliveries")).toEqual({ state: "sending", attempts: 1 });
      await kill(s);
      answerHeld();
      s = await t.serve();
      await waitUntil("the second request", () => push.receivedAt("/crash/2").length === 2);
      await waitUntil("the delivery marked sent", async () => (await db.get<{ state: string }>("SELECT state FROM web_push_deliveries"))?.state === "sent");
      const [first, second] = push.receivedAt("/crash/2");
      expect(second!.headers.get("topic")).toBe(first!.headers.get("topic"));
      expect(second!.headers.get("topic")).toBe(`m${messageId}`);
      expect(JSON.parse(decryptAes128gcm(second!.body, keys)).message_id).toBe(messageId);
      db.close();
    } finally {
      await kill(s);
    }
  }, 60_000);
});
