import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createUser } from "../../src/actions/users";
import { createServer } from "../../src/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ heartbeatMs: 200 });
});
afterAll(() => s.close());

let n = 0;
/** A state change that emits an event to everyone: a new user (realm_user add). */
const addUser = () => createUser(s.app, null, { email: `new${++n}@zulip.com`, fullName: `New ${n}`, password: null, role: 400 });

describe("POST /register", () => {
  test("creates a queue and returns the versions and last_event_id -1", async () => {
    const r = (await s.users.hamlet.client.post("/register", { event_types: ["realm_user"] })).success();
    expect(r.queue_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.last_event_id).toBe(-1);
    expect(r.zulip_feature_level).toBeGreaterThanOrEqual(371);
    expect(r.zulip_version).toBeString();
    expect(r.realm_users.map((u: any) => u.user_id)).toContain(s.users.iago.id);
    // which list a user is in says whether they are active: the field itself is left out, as Zulip does
    expect(r.realm_users.filter((u: any) => "is_active" in u)).toEqual([]);
    expect(r.user_id).toBe(s.users.hamlet.id);
  });

  test("the realm state carries the configured limits", async () => {
    const r = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm"] })).success();
    expect(r).toMatchObject({ max_message_length: 10000, max_topic_length: 60, max_stream_name_length: 60, max_stream_description_length: 1024, max_file_upload_size_mib: 25 });
    expect(r.realm_name).toBe("Zulip Dev");
    expect(r.event_queue_longpoll_timeout_seconds).toBe(90);
    expect(r.server_thumbnail_formats.map((f: any) => f.name)).toContain("840x560.webp");
    expect(r.realm_default_external_accounts.github.url_pattern).toBe("https://github.com/%(username)s");
  });
});

describe("GET /events", () => {
  test("dont_block returns at once with the queued events, each with an increasing id", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", { event_types: ["realm_user"] })).success();
    const empty = (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success();
    expect(empty.events).toEqual([]);
    await addUser();
    await addUser();
    const r = (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success();
    expect(r.events.map((e: any) => [e.type, e.op, e.id])).toEqual([["realm_user", "add", 0], ["realm_user", "add", 1]]);
    expect(r.events[0].person.email).toBe(`new${n - 1}@zulip.com`);
  });

  test("events at or below last_event_id are pruned", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", { event_types: ["realm_user"] })).success();
    await addUser();
    await addUser();
    const r = (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: 0, dont_block: true })).success();
    expect(r.events.map((e: any) => e.id)).toEqual([1]);
  });

  test("a waiting long-poll is answered by the next event", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", { event_types: ["realm_user"] })).success();
    const pending = s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1 });
    await Bun.sleep(20);
    await addUser();
    const r = (await pending).success();
    expect(r.events).toHaveLength(1);
    expect(r.events[0]).toMatchObject({ type: "realm_user", op: "add", id: 0 });
  });

  test("a waiting long-poll with nothing to say gets a heartbeat", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", { event_types: ["message"] })).success();
    const r = (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1 })).success();
    expect(r.events).toEqual([{ type: "heartbeat", id: 0 }]);
  });

  test("event_types filters what the queue receives", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", { event_types: ["message"] })).success();
    await addUser();
    const r = (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success();
    expect(r.events).toEqual([]);
  });

  test("an unknown queue, or another user's, is BAD_EVENT_QUEUE_ID with the queue_id", async () => {
    const r = (await s.users.hamlet.client.get("/events", { queue_id: "nope", last_event_id: -1 })).error("Bad event queue ID: nope", "BAD_EVENT_QUEUE_ID", 400);
    expect(r.queue_id).toBe("nope");
    const { queue_id } = (await s.users.othello.client.post("/register", {})).success();
    (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1 })).error(`Bad event queue ID: ${queue_id}`, "BAD_EVENT_QUEUE_ID", 400);
  });

  test("a missing queue_id is a plain BAD_REQUEST, and so is a missing last_event_id", async () => {
    (await s.users.hamlet.client.get("/events", {})).error("Missing 'queue_id' argument", "BAD_REQUEST", 400);
    const { queue_id } = (await s.users.hamlet.client.post("/register", { event_types: ["realm_user"] })).success();
    (await s.users.hamlet.client.get("/events", { queue_id, dont_block: true })).error("Missing 'last_event_id' argument", "BAD_REQUEST", 400);
  });

  test("a last_event_id older than what was pruned, or one the queue never had, is refused (Zulip's fetch_events)", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", { event_types: ["realm_user"] })).success();
    const poll = (last_event_id: number) => s.users.hamlet.client.get("/events", { queue_id, last_event_id, dont_block: true });
    (await poll(0)).error("Event 0 was not in this queue", "BAD_REQUEST", 400);
    await addUser();
    await addUser();
    await addUser();
    expect((await poll(-1)).success().events.map((e: any) => e.id)).toEqual([0, 1, 2]);
    expect((await poll(1)).success().events.map((e: any) => e.id)).toEqual([2]);
    expect((await poll(1)).success().events.map((e: any) => e.id)).toEqual([2]); // the same acknowledgement again
    (await poll(0)).error("An event newer than 0 has already been pruned!", "BAD_REQUEST", 400);
    (await poll(-1)).error("An event newer than -1 has already been pruned!", "BAD_REQUEST", 400);
    // beyond the newest event: what there was is pruned, and the client is told its id is unknown
    (await poll(7)).error("Event 7 was not in this queue", "BAD_REQUEST", 400);
    expect((await poll(2)).success().events).toEqual([]);
    await addUser();
    expect((await poll(2)).success().events.map((e: any) => e.id)).toEqual([3]);
  });

  test("without a queue_id but with dont_block, a queue is opened from the register parameters given", async () => {
    const r = (await s.users.hamlet.client.get("/events", { dont_block: true, event_types: ["message"], narrow: [["channel", "Denmark"], ["topic", "t"]] })).success();
    expect(r).toEqual({ result: "success", msg: "", events: [], queue_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Denmark" }, { name: "Elsewhere" }], principals: [s.users.hamlet.id] })).success();
    (await s.users.iago.client.post("/messages", { type: "stream", to: "Elsewhere", topic: "t", content: "*not here*" })).success();
    (await s.users.iago.client.post("/messages", { type: "stream", to: "Denmark", topic: "t", content: "*here*" })).success();
    await addUser(); // not an event type the queue asked for
    const events = (await s.users.hamlet.client.get("/events", { queue_id: r.queue_id, last_event_id: -1, dont_block: true })).success().events;
    // apply_markdown defaults to false here, as in Zulip's GET /events
    expect(events.map((e: any) => [e.type, e.message.display_recipient, e.message.content, e.message.content_type])).toEqual([["message", "Denmark", "*here*", "text/x-markdown"]]);
    // guests may not follow every public channel this way either
    (await s.users.polonius.client.get("/events", { dont_block: true, all_public_streams: true })).error("User not authorized for this query", "BAD_REQUEST", 400);
  });
});

describe("DELETE /events", () => {
  test("deletes the queue; deleting it again is BAD_EVENT_QUEUE_ID", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", {})).success();
    (await s.users.hamlet.client.delete("/events", { queue_id })).success();
    const again = (await s.users.hamlet.client.delete("/events", { queue_id })).error(`Bad event queue ID: ${queue_id}`, "BAD_EVENT_QUEUE_ID", 400);
    expect(again.queue_id).toBe(queue_id);
    (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1 })).error(`Bad event queue ID: ${queue_id}`, "BAD_EVENT_QUEUE_ID");
  });

  test("another user's queue cannot be deleted", async () => {
    const { queue_id } = (await s.users.othello.client.post("/register", {})).success();
    (await s.users.hamlet.client.delete("/events", { queue_id })).error(`Bad event queue ID: ${queue_id}`, "BAD_EVENT_QUEUE_ID");
    (await s.users.othello.client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success();
  });
});

describe("queue lifetime", () => {
  test("a queue idle past its lifespan is garbage-collected", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", { queue_lifespan_secs: 120 })).success();
    s.clock.advance(100_000);
    s.app.events.gc();
    (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success();
    s.clock.advance(121_000);
    s.app.events.gc();
    (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).error(`Bad event queue ID: ${queue_id}`, "BAD_EVENT_QUEUE_ID");
  });

  test("queues without a lifespan live for the configured idle minutes (default 10)", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", {})).success();
    s.clock.advance(9 * 60_000);
    s.app.events.gc();
    (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success();
    s.clock.advance(10 * 60_000 + 1);
    s.app.events.gc();
    (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).error(`Bad event queue ID: ${queue_id}`, "BAD_EVENT_QUEUE_ID");
  });
});

describe("long-polling on a real server", () => {
  test("a long-poll outlives the server's idle timeout and ends with the heartbeat", async () => {
    const live = await startServer({ realClock: true, heartbeatMs: 2500 });
    const http = createServer(live.app).listen({ hostname: "127.0.0.1", port: 0, reusePort: false, idleTimeout: 1 });
    try {
      const base = `http://127.0.0.1:${http.server!.port}/api/v1`;
      const auth = { authorization: "Basic " + btoa(`${live.users.hamlet.email}:${live.users.hamlet.apiKey}`) };
      const reg = await (await fetch(`${base}/register`, { method: "POST", headers: auth, body: new URLSearchParams({ event_types: '["message"]' }) })).json();
      const started = Date.now();
      const res = await fetch(`${base}/events?queue_id=${reg.queue_id}&last_event_id=-1`, { headers: auth });
      const body = await res.json();
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
      expect(body.events).toEqual([{ type: "heartbeat", id: 0 }]);
    } finally {
      await http.stop(true);
      await live.close();
    }
  }, 10_000);
});

describe("older event forms for clients without a capability", () => {
  const queue = (capabilities: Record<string, boolean>) =>
    s.app.events.register({ userId: s.users.hamlet.id, eventTypes: null, applyMarkdown: false, clientGravatar: true, allPublicStreams: false, narrow: [], capabilities, lifespanSecs: 0, clientName: "t" });

  test("a bulk delete_message becomes one event per message without bulk_message_deletion", () => {
    const bulk = queue({ bulk_message_deletion: true });
    const legacy = queue({});
    s.app.events.publish({ type: "delete_message", message_ids: [7, 9], message_type: "private" }, [s.users.hamlet.id]);
    expect(bulk.events.map(({ id: _, ...e }) => e)).toEqual([{ type: "delete_message", message_ids: [7, 9], message_type: "private" }]);
    expect(legacy.events.map(({ id: _, ...e }) => e)).toEqual([
      { type: "delete_message", message_id: 7, message_type: "private" },
      { type: "delete_message", message_id: 9, message_type: "private" },
    ]);
  });

  test("a deactivated group is a remove event without include_deactivated_groups", () => {
    const modern = queue({ include_deactivated_groups: true });
    const legacy = queue({});
    s.app.events.publish({ type: "user_group", op: "update", group_id: 42, data: { deactivated: true } }, [s.users.hamlet.id]);
    expect(modern.events[0]).toMatchObject({ type: "user_group", op: "update", group_id: 42, data: { deactivated: true } });
    expect(legacy.events.map(({ id: _, ...e }) => e)).toEqual([{ type: "user_group", op: "remove", group_id: 42 }]);
  });
});

describe("presence events", () => {
  test("clients with simplified_presence_events get the modern shape, others the legacy one", async () => {
    const q = (capabilities: Record<string, boolean>) =>
      s.app.events.register({ userId: s.users.hamlet.id, eventTypes: ["presence"], applyMarkdown: false, clientGravatar: true, allPublicStreams: false, narrow: [], capabilities, lifespanSecs: 0, clientName: "t" });
    const modern = q({ simplified_presence_events: true });
    const legacy = q({});
    (await s.users.othello.client.post("/users/me/presence", { status: "active" })).success();
    const now = Math.floor(s.clock.now() / 1000);
    expect(modern.events.map(({ id: _, ...e }) => e)).toEqual([{ type: "presence", presences: { [s.users.othello.id]: { active_timestamp: now, idle_timestamp: now } } }]);
    const old = legacy.events[0] as any;
    expect(old).toMatchObject({ type: "presence", user_id: s.users.othello.id, email: "othello@zulip.com", presence: { website: { client: "website", status: "active", timestamp: now, pushable: false } } });
    expect(old.presences).toBeUndefined();
  });

  test("a queue registered with slim_presence gets the legacy shape without the deprecated email (Zulip's slim_event)", async () => {
    const { queue_id } = (await s.users.hamlet.client.post("/register", { event_types: ["presence"], slim_presence: true })).success();
    s.clock.ms += 60 * 60 * 1000; // othello has been away: coming back is news
    (await s.users.othello.client.post("/users/me/presence", { status: "active" })).success();
    const now = Math.floor(s.clock.now() / 1000);
    const events = (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success().events;
    expect(events).toEqual([{ type: "presence", user_id: s.users.othello.id, server_timestamp: expect.any(Number), presence: { website: { client: "website", status: "active", timestamp: now, pushable: false } }, id: 0 }]);
  });

  test("presence_history_limit_days limits the presences /register returns", async () => {
    (await s.users.cordelia.client.post("/users/me/presence", { status: "active" })).success();
    s.clock.advance(3 * 86400_000);
    (await s.users.iago.client.post("/users/me/presence", { status: "active" })).success();
    const recent = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["presence"], slim_presence: true, presence_history_limit_days: 1 })).success();
    expect(Object.keys(recent.presences)).toContain(String(s.users.iago.id));
    expect(Object.keys(recent.presences)).not.toContain(String(s.users.cordelia.id));
    const all = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["presence"], slim_presence: true })).success();
    expect(Object.keys(all.presences)).toContain(String(s.users.cordelia.id));
  });
});

describe("all_public_streams", () => {
  test("a queue registered with it gets public channels' messages the user is not subscribed to, but not private ones", async () => {
    const iago = s.users.iago.client;
    (await iago.post("/users/me/subscriptions", { subscriptions: [{ name: "open plaza" }] })).success();
    (await iago.post("/users/me/subscriptions", { subscriptions: [{ name: "back room" }], invite_only: true })).success();
    const wide = (await s.users.cordelia.client.post("/register", { event_types: ["message"], all_public_streams: true })).success();
    const narrow = (await s.users.cordelia.client.post("/register", { event_types: ["message"] })).success();
    const pub = (await iago.post("/messages", { type: "channel", to: "open plaza", topic: "t", content: "for everyone" })).success();
    (await iago.post("/messages", { type: "channel", to: "back room", topic: "t", content: "secret" })).success();
    const got = (await s.users.cordelia.client.get("/events", { queue_id: wide.queue_id, last_event_id: -1, dont_block: true })).success();
    expect(got.events.map((e: any) => [e.type, e.message.id, e.flags])).toEqual([["message", pub.id, []]]);
    const none = (await s.users.cordelia.client.get("/events", { queue_id: narrow.queue_id, last_event_id: -1, dont_block: true })).success();
    expect(none.events).toEqual([]);
  });

  test("guests may not ask for it", async () => {
    (await s.users.polonius.client.post("/register", { all_public_streams: true })).error("User not authorized for this query", "BAD_REQUEST", 400);
  });

  test("a queue narrow takes only the operators events can be matched on", async () => {
    (await s.users.hamlet.client.post("/register", { narrow: [["search", "hello"]] })).error("Operator search not supported.", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.get("/events", { dont_block: true, narrow: [["channel", "x"], ["has", "link"]] })).error("Operator has not supported.", "BAD_REQUEST", 400);
    for (const op of ["stream", "channel", "topic", "sender", "is"]) (await s.users.hamlet.client.post("/register", { event_types: ["message"], narrow: [[op, "x"]] })).success();
  });

  test("a narrowed queue follows the public channels its narrow names, subscribed or not (not a guest's, not private ones)", async () => {
    const iago = s.users.iago.client;
    (await iago.post("/users/me/subscriptions", { subscriptions: [{ name: "town square" }] })).success();
    (await iago.post("/users/me/subscriptions", { subscriptions: [{ name: "locked hall" }], invite_only: true })).success();
    const open = (await s.users.cordelia.client.post("/register", { event_types: ["message"], narrow: [["channel", "town square"]] })).success();
    const closed = (await s.users.cordelia.client.post("/register", { event_types: ["message"], narrow: [["channel", "locked hall"]] })).success();
    const guest = (await s.users.polonius.client.post("/register", { event_types: ["message"], narrow: [["channel", "town square"]] })).success();
    const sent = (await iago.post("/messages", { type: "channel", to: "town square", topic: "t", content: "news" })).success();
    (await iago.post("/messages", { type: "channel", to: "open plaza", topic: "t", content: "elsewhere" })).success();
    (await iago.post("/messages", { type: "channel", to: "locked hall", topic: "t", content: "secret" })).success();
    const events = async (who: "cordelia" | "polonius", queue_id: string) =>
      (await s.users[who].client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success().events.map((e: any) => [e.message.id, e.flags]);
    expect(await events("cordelia", open.queue_id)).toEqual([[sent.id, []]]);
    expect(await events("cordelia", closed.queue_id)).toEqual([]);
    expect(await events("polonius", guest.queue_id)).toEqual([]);
  });

  test("a bot's default_events_register_stream and default_all_public_streams apply when the client does not say", async () => {
    const iago = s.users.iago.client;
    (await iago.post("/users/me/subscriptions", { subscriptions: [{ name: "bot feed" }, { name: "other feed" }] })).success();
    const make = async (short_name: string, extra: Record<string, unknown>) => {
      const bot = (await s.users.hamlet.client.post("/bots", { full_name: `Bot ${short_name}`, short_name, ...extra })).success();
      return s.clientFor(bot.bot_email ?? (await s.app.db.get<{ email: string }>("SELECT email FROM users WHERE id = ?", [bot.user_id]))!.email, bot.api_key);
    };
    const feedBot = await make("feedwatch", { default_events_register_stream: "bot feed" });
    const wideBot = await make("widewatch", { default_all_public_streams: true });
    const feedQueue = (await feedBot.post("/register", { event_types: ["message"] })).success().queue_id;
    const wideQueue = (await wideBot.post("/register", { event_types: ["message"] })).success().queue_id;
    const wideOff = (await wideBot.post("/register", { event_types: ["message"], all_public_streams: false })).success().queue_id;
    const inFeed = (await iago.post("/messages", { type: "channel", to: "bot feed", topic: "t", content: "one" })).success().id;
    const inOther = (await iago.post("/messages", { type: "channel", to: "other feed", topic: "t", content: "two" })).success().id;
    const ids = async (client: typeof feedBot, queue_id: string) =>
      (await client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success().events.map((e: any) => e.message.id);
    expect(await ids(feedBot, feedQueue)).toEqual([inFeed]);
    expect(await ids(wideBot, wideQueue)).toEqual([inFeed, inOther]);
    expect(await ids(wideBot, wideOff)).toEqual([]);
  });
});
