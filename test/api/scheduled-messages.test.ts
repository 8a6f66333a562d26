import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { makeUser } from "../helpers/people";
import { registerQueue } from "../helpers/messages";
import { deliverDueScheduledMessages } from "../../src/actions/scheduled-delivery";
import { FLAG } from "../../src/domain/flags";
import { closeApp } from "../../src/app";

let s: TestServer;
let denmark: number;
let secret: number;
beforeAll(async () => {
  s = await startServer();
  denmark = await createChannel(s, "iago", "Denmark", { subscribers: ["hamlet", "othello", "cordelia"] });
  secret = await createChannel(s, "iago", "Secret", { invite_only: true });
});
afterAll(() => s.close());

const now = () => Math.floor(s.clock.now() / 1000);
const schedule = (who: CastName, params: Record<string, unknown>) => s.users[who].client.post("/scheduled_messages", params as any);
const list = async (who: CastName) => (await s.users[who].client.get("/scheduled_messages")).success().scheduled_messages as any[];
const row = (id: number) => s.app.db.get<Record<string, any>>("SELECT * FROM scheduled_messages WHERE id = ?", [id]);
const later = (secs = 3600) => now() + secs;
const toDenmark = (extra: Record<string, unknown> = {}) => ({ type: "stream", to: denmark, topic: "plans", content: "Meet at the castle", scheduled_delivery_timestamp: later(), ...extra });
const lastMessage = () => s.app.db.get<Record<string, any>>("SELECT * FROM messages ORDER BY id DESC LIMIT 1");
const countMessages = async () => (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM messages"))!.n;
const scheduledEvents = (events: any[]) => events.filter((e) => e.type === "scheduled_messages");

describe("POST /scheduled_messages", () => {
  test("schedules a channel message: stored, rendered, and an add event to the sender's clients only", async () => {
    let id = 0;
    const ts = later();
    const ev = await s.captureEvents(async () => {
      id = (await schedule("hamlet", toDenmark({ content: "Hello @**Othello, the Moor of Venice**", scheduled_delivery_timestamp: ts }))).success().scheduled_message_id;
    });
    expect(id).toBeGreaterThan(0);
    const stored = await row(id);
    expect(stored).toMatchObject({ sender_id: s.users.hamlet.id, type: "stream", stream_id: denmark, to_user_ids: null, topic: "plans", scheduled_timestamp: ts, delivered: 0, failed: 0 });
    expect(stored!.rendered_content).toContain('class="user-mention"');
    const record = {
      scheduled_message_id: id,
      type: "stream",
      to: denmark,
      topic: "plans",
      content: "Hello @**Othello, the Moor of Venice**",
      rendered_content: stored!.rendered_content,
      scheduled_delivery_timestamp: ts,
      failed: false,
    };
    expect(ev.of("hamlet")).toEqual([{ type: "scheduled_messages", op: "add", scheduled_messages: [record] }]);
    expect(ev.of("othello")).toEqual([]);
    expect(ev.of("iago")).toEqual([]);
    expect((await list("hamlet")).find((m) => m.scheduled_message_id === id)).toEqual(record);
  });

  test("schedules a direct message: `to` lists the other participants, type is private", async () => {
    const id = (await schedule("hamlet", { type: "direct", to: [s.users.othello.id, s.users.hamlet.id, s.users.cordelia.id], content: "psst", scheduled_delivery_timestamp: later() })).success()
      .scheduled_message_id;
    const record = (await list("hamlet")).find((m) => m.scheduled_message_id === id);
    expect(record).toMatchObject({ type: "private", to: [s.users.othello.id, s.users.cordelia.id].sort((a, b) => a - b), content: "psst", rendered_content: "<p>psst</p>", failed: false });
    expect(record).not.toHaveProperty("topic");
    const self = (await schedule("hamlet", { type: "private", to: [s.users.hamlet.id], content: "note to self", scheduled_delivery_timestamp: later() })).success().scheduled_message_id;
    expect((await list("hamlet")).find((m) => m.scheduled_message_id === self)!.to).toEqual([s.users.hamlet.id]);
  });

  test("read_by_sender is stored as given, else read for full clients except a note to oneself", async () => {
    const given = (await schedule("hamlet", toDenmark({ read_by_sender: false, client: "website" }))).success().scheduled_message_id;
    expect((await row(given))!.read_by_sender).toBe(0);
    const website = (await schedule("hamlet", toDenmark({ client: "website" }))).success().scheduled_message_id;
    expect((await row(website))!.read_by_sender).toBe(1);
    const api = (await schedule("hamlet", toDenmark({ client: "ZulipPython" }))).success().scheduled_message_id;
    expect((await row(api))!.read_by_sender).toBe(0);
    const self = (await schedule("hamlet", { type: "direct", to: [s.users.hamlet.id], content: "x", scheduled_delivery_timestamp: later(), client: "website" })).success().scheduled_message_id;
    expect((await row(self))!.read_by_sender).toBe(0);
  });

  test("the delivery time must be in the future", async () => {
    for (const ts of [now(), now() - 60]) {
      (await schedule("hamlet", toDenmark({ scheduled_delivery_timestamp: ts }))).error("Scheduled delivery time must be in the future.", "BAD_REQUEST", 400);
    }
    (await schedule("hamlet", toDenmark({ scheduled_delivery_timestamp: "soon" }))).error("scheduled_delivery_timestamp is not valid JSON");
  });

  test("an unknown channel is STREAM_DOES_NOT_EXIST with the integer stream_id; a channel name is not accepted", async () => {
    const body = (await schedule("hamlet", toDenmark({ to: 99999 }))).error("Channel with ID '99999' does not exist", "STREAM_DOES_NOT_EXIST", 400);
    expect(body.stream_id).toBe(99999);
    (await schedule("hamlet", toDenmark({ to: "Denmark" }))).error("Invalid data type for channel ID");
  });

  test("direct recipients must be a list of valid user ids", async () => {
    (await schedule("hamlet", { type: "direct", to: [99999], content: "x", scheduled_delivery_timestamp: later() })).error("Invalid user ID 99999", "BAD_REQUEST", 400);
    (await schedule("hamlet", { type: "direct", to: s.users.othello.id, content: "x", scheduled_delivery_timestamp: later() })).error("Invalid data type for recipients");
    (await schedule("hamlet", { type: "direct", to: [s.users.othello.email], content: "x", scheduled_delivery_timestamp: later() })).error("Recipient list may only contain user IDs");
    (await schedule("hamlet", { type: "direct", to: [], content: "x", scheduled_delivery_timestamp: later() })).error("Message must have recipients");
  });

  test("the sending rules apply: type, topic, content, channel permissions, deactivated recipients", async () => {
    const before = (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM scheduled_messages"))!.n;
    (await schedule("hamlet", toDenmark({ type: "carrier pigeon" }))).error("Invalid type");
    const { topic: _t, ...noTopic } = toDenmark();
    (await schedule("hamlet", noTopic)).error("Missing topic");
    (await schedule("hamlet", toDenmark({ topic: "bad\u0001" }))).error("Invalid character in topic, at position 4!");
    (await schedule("hamlet", toDenmark({ content: "  " }))).error("Message must not be empty");
    (await schedule("hamlet", toDenmark({ content: "a\u0000b" }))).error("Message must not contain null bytes");
    (await schedule("hamlet", toDenmark({ to: secret }))).error("Not authorized to send to channel 'Secret'");
    (await schedule("polonius", toDenmark())).error("Not authorized to send to channel 'Denmark'");
    const gone = await makeUser(s, "Gone Soon");
    (await s.users.iago.client.delete(`/users/${gone.id}`)).success();
    (await schedule("hamlet", { type: "direct", to: [gone.id], content: "x", scheduled_delivery_timestamp: later() })).error(`'${gone.email}' is no longer using Zulip.`);
    expect((await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM scheduled_messages"))!.n).toBe(before);
  });

  test("missing parameters are named", async () => {
    (await schedule("hamlet", { type: "stream", to: denmark, topic: "t", content: "x" })).error("Missing 'scheduled_delivery_timestamp' argument", "REQUEST_VARIABLE_MISSING");
    (await schedule("hamlet", { type: "stream", to: denmark, topic: "t", scheduled_delivery_timestamp: later() })).error("Missing 'content' argument", "REQUEST_VARIABLE_MISSING");
  });
});

describe("GET /scheduled_messages and /register", () => {
  test("each user sees only their own undelivered messages, soonest first, in /register too", async () => {
    const u = await makeUser(s, "Lister");
    const ids: number[] = [];
    for (const offset of [300, 100, 200]) {
      ids.push((await u.client.post("/scheduled_messages", toDenmark({ to: denmark, scheduled_delivery_timestamp: later(offset) }) as any)).success().scheduled_message_id);
    }
    await s.app.db.run("UPDATE scheduled_messages SET delivered = 1 WHERE id = ?", [ids[2]!]);
    const mine = (await u.client.get("/scheduled_messages")).success().scheduled_messages;
    expect(mine.map((m: any) => m.scheduled_message_id)).toEqual([ids[1], ids[0]]);
    expect((await list("othello")).some((m) => ids.includes(m.scheduled_message_id))).toBe(false);
    const state = (await u.client.post("/register", { fetch_event_types: ["scheduled_messages"] })).success();
    expect(state.scheduled_messages).toEqual(mine);
  });
});

describe("PATCH /scheduled_messages/{id}", () => {
  test("reschedules, and the owner's clients get the updated record", async () => {
    const id = (await schedule("hamlet", toDenmark())).success().scheduled_message_id;
    const ts = later(7200);
    const ev = await s.captureEvents(async () => {
      (await s.users.hamlet.client.patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: ts })).success();
    });
    expect((await row(id))!.scheduled_timestamp).toBe(ts);
    expect(ev.of("hamlet")).toEqual([{ type: "scheduled_messages", op: "update", scheduled_message: expect.objectContaining({ scheduled_message_id: id, scheduled_delivery_timestamp: ts, topic: "plans" }) }]);
    expect(ev.of("othello")).toEqual([]);
  });

  test("content and topic are checked and rendered again", async () => {
    const id = (await schedule("hamlet", toDenmark())).success().scheduled_message_id;
    (await s.users.hamlet.client.patch(`/scheduled_messages/${id}`, { content: "**bold** move", topic: "new plans" })).success();
    expect(await row(id)).toMatchObject({ content: "**bold** move", rendered_content: "<p><strong>bold</strong> move</p>", topic: "new plans" });
    (await s.users.hamlet.client.patch(`/scheduled_messages/${id}`, { topic: "bad\u0001" })).error("Invalid character in topic, at position 4!");
    (await s.users.hamlet.client.patch(`/scheduled_messages/${id}`, { content: "" })).error("Message must not be empty");
    expect((await row(id))!.topic).toBe("new plans");
  });

  test("changing the type needs `to` (and a topic for a channel); a channel message can become a direct one", async () => {
    const id = (await schedule("hamlet", toDenmark())).success().scheduled_message_id;
    const c = s.users.hamlet.client;
    (await c.patch(`/scheduled_messages/${id}`, { type: "direct" })).error("Recipient required when updating type of scheduled message.");
    (await c.patch(`/scheduled_messages/${id}`, { type: "stream", to: denmark })).error("Topic required when updating scheduled message type to stream.");
    (await c.patch(`/scheduled_messages/${id}`, { type: "direct", to: [s.users.cordelia.id] })).success();
    expect(await row(id)).toMatchObject({ type: "private", stream_id: null, to_user_ids: JSON.stringify([s.users.cordelia.id]), topic: "" });
    (await c.patch(`/scheduled_messages/${id}`, { to: [99999] })).error("Invalid user ID 99999");
    (await c.patch(`/scheduled_messages/${id}`, { type: "stream", to: 99999, topic: "t" })).error("Channel with ID '99999' does not exist", "STREAM_DOES_NOT_EXIST");
    (await c.patch(`/scheduled_messages/${id}`, { type: "channel", to: denmark, topic: "back" })).success();
    expect(await row(id)).toMatchObject({ type: "stream", stream_id: denmark, to_user_ids: null, topic: "back" });
  });

  test("nothing to change, past times, and other users' or unknown ids are refused", async () => {
    const id = (await schedule("hamlet", toDenmark())).success().scheduled_message_id;
    (await s.users.hamlet.client.patch(`/scheduled_messages/${id}`, {})).error("Nothing to change");
    (await s.users.hamlet.client.patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: now() })).error("Scheduled delivery time must be in the future.");
    (await s.users.othello.client.patch(`/scheduled_messages/${id}`, { content: "mine now" })).error("Scheduled message does not exist", "BAD_REQUEST", 404);
    (await s.users.hamlet.client.patch("/scheduled_messages/99999", { content: "x" })).error("Scheduled message does not exist", "BAD_REQUEST", 404);
    (await s.users.hamlet.client.patch("/scheduled_messages/abc", { content: "x" })).error("Invalid scheduled_message_id");
    expect((await row(id))!.content).toBe("Meet at the castle");
  });
});

describe("DELETE /scheduled_messages/{id}", () => {
  test("cancels the owner's message with a remove event; others get 404 and it stays", async () => {
    const id = (await schedule("hamlet", toDenmark())).success().scheduled_message_id;
    (await s.users.othello.client.delete(`/scheduled_messages/${id}`)).error("Scheduled message does not exist", "BAD_REQUEST", 404);
    expect(await row(id)).toBeDefined();
    const ev = await s.captureEvents(async () => {
      (await s.users.hamlet.client.delete(`/scheduled_messages/${id}`)).success();
    });
    expect(await row(id)).toBeUndefined();
    expect(ev.of("hamlet")).toEqual([{ type: "scheduled_messages", op: "remove", scheduled_message_id: id }]);
    expect(ev.of("othello")).toEqual([]);
    (await s.users.hamlet.client.delete(`/scheduled_messages/${id}`)).error("Scheduled message does not exist", "BAD_REQUEST", 404);
  });
});

describe("delivery", () => {
  /** Moves the clock to each pending message's time in turn is not needed: tests cancel what they leave behind. */
  const clearPending = () => s.app.db.run("DELETE FROM scheduled_messages WHERE delivered = 0");

  test("at its time the message is sent as its sender, then leaves the list", async () => {
    await clearPending();
    const ts = later(60);
    const id = (await schedule("hamlet", toDenmark({ scheduled_delivery_timestamp: ts, read_by_sender: true, client: "website" }))).success().scheduled_message_id;
    s.clock.advance(59_000);
    expect(await deliverDueScheduledMessages(s.app)).toBe(0);
    expect((await row(id))!.delivered).toBe(0);
    s.clock.advance(1000);
    let delivered = 0;
    const ev = await s.captureEvents(async () => {
      delivered = await deliverDueScheduledMessages(s.app);
    });
    expect(delivered).toBe(1);
    const sent = await lastMessage();
    expect(sent).toMatchObject({ sender_id: s.users.hamlet.id, stream_id: denmark, topic: "plans", content: "Meet at the castle", client: "website", date_sent: ts });
    expect(await row(id)).toMatchObject({ delivered: 1, delivered_message_id: sent!.id, failed: 0 });
    expect(scheduledEvents(ev.of("hamlet"))).toEqual([{ type: "scheduled_messages", op: "remove", scheduled_message_id: id }]);
    expect(ev.of("othello").find((e) => e.type === "message")!.message).toMatchObject({ id: sent!.id, sender_id: s.users.hamlet.id, subject: "plans" });
    expect(ev.of("hamlet").some((e) => e.type === "message")).toBe(true);
    const flags = await s.app.db.get<{ flags: number }>("SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?", [s.users.hamlet.id, sent!.id]);
    expect(flags!.flags & FLAG.read).toBe(FLAG.read);
    expect((await list("hamlet")).some((m) => m.scheduled_message_id === id)).toBe(false);
    (await s.users.hamlet.client.patch(`/scheduled_messages/${id}`, { content: "too late" })).error("Scheduled message was already sent");
    expect(await deliverDueScheduledMessages(s.app)).toBe(0);
  });

  test("a direct message goes to the same participants", async () => {
    await clearPending();
    const id = (await schedule("othello", { type: "direct", to: [s.users.hamlet.id, s.users.cordelia.id], content: "group hello", scheduled_delivery_timestamp: later(5) })).success()
      .scheduled_message_id;
    s.clock.advance(5000);
    const ev = await s.captureEvents(() => deliverDueScheduledMessages(s.app));
    const sent = await lastMessage();
    expect(sent!.dm_key).toBe([s.users.othello.id, s.users.hamlet.id, s.users.cordelia.id].sort((a, b) => a - b).join(","));
    expect((await row(id))!.delivered_message_id).toBe(sent!.id);
    for (const who of ["hamlet", "cordelia", "othello"] as const) expect(ev.of(who).some((e) => e.type === "message" && (e.message as any).id === sent!.id)).toBe(true);
    expect(ev.of("iago").some((e) => e.type === "message")).toBe(false);
  });

  test("a message that can no longer be sent stays, marked failed, with an update event and Notification Bot's notice", async () => {
    await clearPending();
    const ch = await createChannel(s, "iago", "Elsinore", { subscribers: ["hamlet"] });
    const ts = later(10);
    const id = (await schedule("hamlet", { type: "stream", to: ch, topic: "ghost", content: "Who's there?", scheduled_delivery_timestamp: ts })).success().scheduled_message_id;
    (await s.users.iago.client.delete(`/streams/${ch}`)).success();
    s.clock.advance(10_000);
    const before = await countMessages();
    const ev = await s.captureEvents(() => deliverDueScheduledMessages(s.app));
    expect(await row(id)).toMatchObject({ delivered: 0, failed: 1, failure_message: "Not authorized to send to channel 'Elsinore'" });
    expect(scheduledEvents(ev.of("hamlet"))).toEqual([{ type: "scheduled_messages", op: "update", scheduled_message: expect.objectContaining({ scheduled_message_id: id, failed: true }) }]);
    expect(await countMessages()).toBe(before + 1);
    const notice = await lastMessage();
    const bot = await s.app.db.get<Record<string, any>>("SELECT * FROM users WHERE id = ?", [notice!.sender_id]);
    expect(bot).toMatchObject({ is_bot: 1, full_name: "Notification Bot" });
    expect(notice!.dm_key).toBe([bot!.id, s.users.hamlet.id].sort((a, b) => a - b).join(","));
    const when = new Date(ts * 1000).toISOString().replace(".000Z", "+00:00");
    expect(notice!.content).toBe(
      `The message you scheduled for <time:${when}> was not sent because of the following error:\n\n> Not authorized to send to channel 'Elsinore'\n\n[View scheduled messages](#scheduled)`,
    );
    expect(ev.of("hamlet").some((e) => e.type === "message" && (e.message as any).id === notice!.id)).toBe(true);
    // it stays listed, failed, and is not retried
    expect((await list("hamlet")).find((m) => m.scheduled_message_id === id)).toMatchObject({ failed: true });
    s.clock.advance(60_000);
    expect(await deliverDueScheduledMessages(s.app)).toBe(0);
    expect(await countMessages()).toBe(before + 1);
    // editing needs a new time, clears the failure, and the message then goes out
    (await s.users.hamlet.client.patch(`/scheduled_messages/${id}`, { topic: "ghost" })).error("Scheduled delivery time must be in the future.");
    (await s.users.hamlet.client.patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: later(5), to: denmark })).success();
    expect(await row(id)).toMatchObject({ failed: 0, failure_message: null, stream_id: denmark });
    s.clock.advance(5000);
    expect(await deliverDueScheduledMessages(s.app)).toBe(1);
  });

  test("losing permission or a deactivated recipient fails delivery with Zulip's error text", async () => {
    await clearPending();
    const victim = await makeUser(s, "Yorick");
    const dm = (await schedule("hamlet", { type: "direct", to: [victim.id], content: "alas", scheduled_delivery_timestamp: later(5) })).success().scheduled_message_id;
    const priv = await createChannel(s, "iago", "Privy", { invite_only: true, subscribers: ["othello"] });
    const ch = (await schedule("othello", { type: "stream", to: priv, topic: "t", content: "x", scheduled_delivery_timestamp: later(5) })).success().scheduled_message_id;
    (await s.users.iago.client.delete(`/users/${victim.id}`)).success();
    (await s.users.othello.client.delete("/users/me/subscriptions", { subscriptions: ["Privy"] })).success();
    s.clock.advance(5000);
    expect(await deliverDueScheduledMessages(s.app)).toBe(0);
    expect(await row(dm)).toMatchObject({ failed: 1, failure_message: `'${victim.email}' is no longer using Zulip.` });
    expect(await row(ch)).toMatchObject({ failed: 1, failure_message: "Not authorized to send to channel 'Privy'" });
  });

  test("a deactivated sender's message fails silently", async () => {
    await clearPending();
    const ghost = await makeUser(s, "Ghost");
    const id = (await ghost.client.post("/scheduled_messages", toDenmark({ scheduled_delivery_timestamp: later(5) }) as any)).success().scheduled_message_id;
    (await s.users.iago.client.delete(`/users/${ghost.id}`)).success();
    s.clock.advance(5000);
    const before = await countMessages();
    await deliverDueScheduledMessages(s.app);
    expect(await row(id)).toMatchObject({ delivered: 0, failed: 1, failure_message: "Account is deactivated" });
    expect(await countMessages()).toBe(before);
  });

  test("overlapping runs send each message exactly once", async () => {
    await clearPending();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await schedule("hamlet", toDenmark({ content: `race ${i}`, scheduled_delivery_timestamp: later(5) }))).success().scheduled_message_id);
    s.clock.advance(5000);
    const before = await countMessages();
    const results = await Promise.all([deliverDueScheduledMessages(s.app), deliverDueScheduledMessages(s.app), deliverDueScheduledMessages(s.app)]);
    expect(results.reduce((a, b) => a + b, 0)).toBe(5);
    expect(await countMessages()).toBe(before + 5);
    for (const id of ids) expect((await row(id))!.delivered).toBe(1);
    const sent = await s.app.db.all<{ content: string }>("SELECT content FROM messages WHERE content LIKE 'race %' ORDER BY id");
    expect(sent.map((m) => m.content)).toEqual([0, 1, 2, 3, 4].map((i) => `race ${i}`));
  });

  test("an edit or cancellation racing the send wins: the stale version is not sent", async () => {
    await clearPending();
    const id = (await schedule("hamlet", toDenmark({ content: "old words", scheduled_delivery_timestamp: later(5) }))).success().scheduled_message_id;
    s.clock.advance(5000);
    // the edit lands while the delivery is between reading the row and committing (here inside the
    // send's own transaction, so the claim sees the changed row, refuses, and everything rolls back)
    await s.app.db.exec(`CREATE TRIGGER edit_during_send AFTER INSERT ON messages WHEN new.content = 'old words' BEGIN
      UPDATE scheduled_messages SET content = 'new words' WHERE id = ${id}; END`);
    const before = await countMessages();
    try {
      expect(await deliverDueScheduledMessages(s.app)).toBe(0);
    } finally {
      await s.app.db.exec("DROP TRIGGER edit_during_send");
    }
    expect(await countMessages()).toBe(before);
    expect(await row(id)).toMatchObject({ delivered: 0, failed: 0, content: "old words" });
  });
});

describe("a real-clock server", () => {
  test("a message scheduled 2 s ahead arrives through GET /events", async () => {
    const { startScheduler } = await import("../../src/scheduler");
    const r = await startServer({ realClock: true });
    try {
      startScheduler(r.app);
      const channel = await createChannel(r, "iago", "Realtime", { subscribers: ["othello"] });
      const queue = await registerQueue(r, "othello", { event_types: ["message"] });
      const at = Math.floor(Date.now() / 1000) + 2;
      (await r.users.othello.client.post("/scheduled_messages", { type: "stream", to: channel, topic: "soon", content: "on time", scheduled_delivery_timestamp: at } as any)).success();
      const events = (await r.users.othello.client.get("/events", { queue_id: queue, last_event_id: -1 })).success().events;
      const arrived = Date.now() / 1000;
      const message = events.find((e: any) => e.type === "message");
      expect(message.message).toMatchObject({ content: "on time", subject: "soon", sender_id: r.users.othello.id });
      expect(arrived).toBeGreaterThanOrEqual(at);
      expect(arrived).toBeLessThan(at + 1.5);
    } finally {
      await r.close();
    }
  }, 10_000);
});

describe("restart", () => {
  test("a crash between send and removal sends nothing; after a restart the message goes out exactly once", async () => {
    const { reopenApp } = await import("../helpers/reopen");
    const r = await startServer();
    const ch = await createChannel(r, "iago", "Durable", { subscribers: ["hamlet"] });
    const at = Math.floor(r.clock.now() / 1000) + 60;
    const id = (await r.users.hamlet.client.post("/scheduled_messages", { type: "stream", to: ch, topic: "t", content: "exactly once", scheduled_delivery_timestamp: at } as any)).success()
      .scheduled_message_id;
    r.clock.advance(60_000);
    const sentCount = async (app: typeof r.app) => (await app.db.get<{ n: number }>("SELECT count(*) AS n FROM messages WHERE content = 'exactly once'"))!.n;
    // the process "dies" after the message is written, before the row is marked: the transaction never commits
    await r.app.db.exec("CREATE TRIGGER crash BEFORE UPDATE OF delivered ON scheduled_messages BEGIN SELECT RAISE(ABORT, 'simulated crash'); END");
    const ev = await r.captureEvents(() => deliverDueScheduledMessages(r.app));
    expect(await sentCount(r.app)).toBe(0);
    expect(await r.app.db.get("SELECT delivered, failed FROM scheduled_messages WHERE id = ?", [id])).toMatchObject({ delivered: 0, failed: 0 });
    expect(ev.of("hamlet")).toEqual([]);
    await r.app.db.exec("DROP TRIGGER crash");
    // restart on the same data dir, an hour later: overdue, delivered on the first tick
    r.clock.advance(3600_000);
    const app = await reopenApp(r);
    try {
      const { Scheduler } = await import("../../src/scheduler");
      const { defaultJobs } = await import("../../src/scheduler/jobs");
      const loop = new Scheduler(app, defaultJobs());
      await loop.tick();
      await Promise.all([loop.tick(), deliverDueScheduledMessages(app)]);
      await loop.stop();
      expect(await sentCount(app)).toBe(1);
      const stored = await app.db.get<Record<string, any>>("SELECT * FROM scheduled_messages WHERE id = ?", [id]);
      const msg = await app.db.get<{ id: number }>("SELECT id FROM messages WHERE content = 'exactly once'");
      expect(stored).toMatchObject({ delivered: 1, delivered_message_id: msg!.id, failed: 0 });
    } finally {
      await closeApp(app);
      await r.close();
    }
  });
});
