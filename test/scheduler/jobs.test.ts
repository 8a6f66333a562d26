import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { setRealmSettings } from "../helpers/people";
import { fetchRaw, pathIdOf, upload } from "../helpers/uploads";
import { Scheduler } from "../../src/scheduler";
import { defaultJobs } from "../../src/scheduler/jobs";
import { markIdlePresenceOffline } from "../../src/actions/presence";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const DAY = 86_400_000;
const jobNamed = (name: string) => {
  const job = defaultJobs().find((j) => j.name === name);
  if (!job) throw new Error(`no job ${name}`);
  return job;
};
/** A loop running only the named default job. */
const loopOf = (name: string) => new Scheduler(s.app, [jobNamed(name)]);
/** Runs the named default job once through the loop (its first tick). */
async function runJob(name: string) {
  const loop = loopOf(name);
  await loop.tick();
  await loop.stop();
  expect(loop.status()[0]!.failures).toBe(0);
}
const count = async (sql: string, args: any[] = []) => (await s.app.db.get<{ n: number }>(sql, args))!.n;

describe("the default jobs", () => {
  test("cover every clean-up the design names, and scheduled delivery runs at least every second", () => {
    const jobs = defaultJobs();
    expect(jobs.map((j) => j.name).sort()).toEqual(
      [
        "apply-message-retention",
        "backup",
        "delete-stale-invites",
        "delete-unreferenced-uploads",
        "deliver-outgoing-webhooks",
        "deliver-scheduled-messages",
        "deliver-web-pushes",
        "expire-sessions",
        "expire-tus-uploads",
        "gc-event-queues",
        "mark-presence-offline",
        "raise-unread-floors",
        "sync-full-members",
      ].sort(),
    );
    expect(jobNamed("deliver-scheduled-messages").intervalMs).toBeLessThanOrEqual(1000);
    // an outgoing-webhook bot answers within about a second of being mentioned
    expect(jobNamed("deliver-outgoing-webhooks").intervalMs).toBeLessThanOrEqual(1000);
    // unread floors are raised within a second or two of sends going quiet
    expect(jobNamed("raise-unread-floors").intervalMs).toBeLessThanOrEqual(1000);
  });

  test("deliver-scheduled-messages sends a due message on the first tick at or after its time", async () => {
    const ch = await createChannel(s, "iago", "Timely", { subscribers: ["hamlet"] });
    const at = Math.floor(s.clock.now() / 1000) + 30;
    const id = (await s.users.hamlet.client.post("/scheduled_messages", { type: "stream", to: ch, topic: "t", content: "tick tock", scheduled_delivery_timestamp: at })).success()
      .scheduled_message_id;
    const loop = loopOf("deliver-scheduled-messages");
    const sent = () => count("SELECT count(*) AS n FROM messages WHERE content = 'tick tock'");
    await loop.tick();
    s.clock.advance(29_500);
    await loop.tick();
    expect(await sent()).toBe(0);
    s.clock.advance(500);
    await loop.tick();
    await loop.stop();
    expect(await sent()).toBe(1);
    expect((await s.app.db.get<{ delivered: number }>("SELECT delivered FROM scheduled_messages WHERE id = ?", [id]))!.delivered).toBe(1);
  });

  test("gc-event-queues drops queues idle past event_queue_idle_minutes", async () => {
    const queue = (await s.users.hamlet.client.post("/register", { event_types: ["message"] })).success().queue_id;
    s.clock.advance(5 * 60_000);
    await runJob("gc-event-queues");
    expect(() => s.app.events.get(queue, s.users.hamlet.id)).not.toThrow();
    s.clock.advance(6 * 60_000);
    await runJob("gc-event-queues");
    expect(() => s.app.events.get(queue, s.users.hamlet.id)).toThrow();
  });

  test("delete-unreferenced-uploads removes uploads never used in a message after unreferenced_upload_days", async () => {
    const unused = await upload(s, "cordelia", "forgotten.txt", "forgotten");
    const used = await upload(s, "cordelia", "shared.txt", "shared");
    const ch = await createChannel(s, "cordelia", "Files");
    (await s.users.cordelia.client.post("/messages", { type: "stream", to: ch, topic: "t", content: `[shared](${used.url})` })).success();
    const exists = async (url: string) => (await count("SELECT count(*) AS n FROM attachments WHERE path_id = ?", [pathIdOf(url)])) === 1;
    s.clock.advance(s.app.config.retention.unreferenced_upload_days * DAY - 60_000);
    await runJob("delete-unreferenced-uploads");
    expect(await exists(unused.url)).toBe(true);
    s.clock.advance(120_000);
    await runJob("delete-unreferenced-uploads");
    expect(await exists(unused.url)).toBe(false);
    expect(existsSync(join(s.app.config.storage.uploads_dir, pathIdOf(unused.url)))).toBe(false);
    expect(await exists(used.url)).toBe(true);
  });

  test("expire-tus-uploads removes interrupted resumable uploads after a day", async () => {
    const r = await fetchRaw(s, "/api/v1/tus", {
      as: "hamlet",
      method: "POST",
      headers: { "tus-resumable": "1.0.0", "upload-length": "10", "upload-metadata": `filename ${Buffer.from("part.bin").toString("base64")}` },
    });
    expect(r.status).toBe(201);
    const location = r.headers.get("location")!;
    const head = async () => (await fetchRaw(s, location, { as: "hamlet", method: "HEAD", headers: { "tus-resumable": "1.0.0" } })).status;
    await runJob("expire-tus-uploads");
    expect(await head()).toBe(200);
    s.clock.advance(DAY + 60_000);
    await runJob("expire-tus-uploads");
    expect(await head()).toBe(404);
  });

  test("delete-stale-invites deletes invitation links a week after they expired", async () => {
    const link = (await s.users.iago.client.post("/invites/multiuse", { invite_expires_in_minutes: 60 })).success().invite_link as string;
    const key = link.split("/").filter(Boolean).pop()!;
    const stored = () => count("SELECT count(*) AS n FROM invites WHERE key = ?", [key]);
    s.clock.advance(2 * 3600_000);
    await runJob("delete-stale-invites");
    expect(await stored()).toBe(1);
    s.clock.advance(7 * DAY);
    await runJob("delete-stale-invites");
    expect(await stored()).toBe(0);
  });

  test("mark-presence-offline forgets users not heard from for longer than the offline threshold", async () => {
    (await s.users.shiva.client.post("/users/me/presence", { status: "active", ping_only: true })).success();
    s.clock.advance(200_000);
    await runJob("mark-presence-offline");
    expect(markIdlePresenceOffline(s.app)).toBe(0);
  });

  test("sync-full-members moves members into role:fullmembers once the waiting period has passed", async () => {
    await setRealmSettings(s, { waiting_period_threshold: 3 });
    const { createUser } = await import("../../src/actions/users");
    const u = await createUser(s.app, null, { email: "newcomer@zulip.com", fullName: "Newcomer", password: null, role: 400 });
    const full = s.app.systemGroups.get("role:fullmembers")!;
    await runJob("sync-full-members");
    expect(s.app.groups.isMember(full, u.userId)).toBe(false);
    s.clock.advance(3 * DAY + 60_000);
    const events = await s.captureEvents(() => runJob("sync-full-members"));
    expect(s.app.groups.isMember(full, u.userId)).toBe(true);
    expect(events.of("hamlet")).toContainEqual({ type: "user_group", op: "add_members", group_id: full, user_ids: [u.userId] });
  });
});

describe("apply-message-retention", () => {
  test("deletes messages past their channel's or the organization's retention, with their attachments and delete_message events", async () => {
    const short = await createChannel(s, "iago", "Short memory", { subscribers: ["hamlet"] });
    const inherit = await createChannel(s, "iago", "Inherits", { subscribers: ["hamlet"] });
    const forever = await createChannel(s, "iago", "Forever", { subscribers: ["hamlet"] });
    await s.app.db.run("UPDATE streams SET message_retention_days = 10 WHERE id = ?", [short]);
    await s.app.db.run("UPDATE streams SET message_retention_days = -1 WHERE id = ?", [forever]);
    const file = await upload(s, "hamlet", "old.txt", "old");
    const send = async (to: number, content: string) => (await s.users.hamlet.client.post("/messages", { type: "stream", to, topic: "old", content })).success().id as number;
    const dm = async () => (await s.users.hamlet.client.post("/messages", { type: "direct", to: [s.users.othello.id], content: "old dm" })).success().id as number;
    const oldShort = [await send(short, `[old](${file.url})`), await send(short, "two")];
    const oldInherit = await send(inherit, "kept until the organization sets a period");
    const oldForever = await send(forever, "kept");
    const oldDm = await dm();
    s.clock.advance(9 * DAY);
    const recentShort = await send(short, "recent");
    s.clock.advance(2 * DAY);
    const exists = async (id: number) => (await count("SELECT count(*) AS n FROM messages WHERE id = ?", [id])) === 1;

    const events = await s.captureEvents(() => runJob("apply-message-retention"));
    for (const id of oldShort) expect(await exists(id)).toBe(false);
    expect(await count("SELECT count(*) AS n FROM user_messages WHERE message_id IN (?, ?)", oldShort)).toBe(0);
    for (const id of [recentShort, oldInherit, oldForever, oldDm]) expect(await exists(id)).toBe(true);
    expect(await count("SELECT count(*) AS n FROM attachments WHERE path_id = ?", [pathIdOf(file.url)])).toBe(0);
    expect((await s.app.db.get<{ f: number }>("SELECT first_message_id AS f FROM streams WHERE id = ?", [short]))!.f).toBe(recentShort);
    // one event per topic (Notification Bot's "channel events" greeting was old too)
    const deletions = events.of("hamlet").filter((e) => e.type === "delete_message");
    expect(deletions).toContainEqual({ type: "delete_message", message_type: "stream", message_ids: oldShort, stream_id: short, topic: "old" });
    expect(deletions.map((e) => e.stream_id)).toEqual([short, short]);
    expect(events.of("hamlet")).toContainEqual(expect.objectContaining({ type: "attachment", op: "remove" }));
    expect(events.of("othello").filter((e) => e.type === "delete_message")).toEqual([]);

    // the organization's period: channels without their own, and direct messages
    await setRealmSettings(s, { message_retention_days: 5 });
    try {
      const more = await s.captureEvents(() => runJob("apply-message-retention"));
      for (const id of [oldInherit, oldDm]) expect(await exists(id)).toBe(false);
      // a channel's own period wins over the organization's; -1 keeps everything
      for (const id of [recentShort, oldForever]) expect(await exists(id)).toBe(true);
      expect(more.of("othello").filter((e) => e.type === "delete_message")).toEqual([{ type: "delete_message", message_type: "private", message_ids: [oldDm] }]);
    } finally {
      await setRealmSettings(s, { message_retention_days: -1 });
    }
  });
});
