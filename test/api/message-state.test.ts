import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { sendDm, sendStream } from "../helpers/messages";

let s: TestServer;
let verona: number;
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello"] });
});
afterAll(() => s.close());

describe("POST /user_topics", () => {
  test("sets, changes and clears a topic's visibility policy with user_topic events", async () => {
    const ev = await s.captureEvents(async () => {
      (await s.users.hamlet.client.post("/user_topics", { stream_id: verona, topic: "noise", visibility_policy: 1 })).success();
    });
    // a queue that takes every event type also gets Zulip's legacy muted_topics event, with the whole list
    expect(ev.of("hamlet")).toEqual([
      { type: "muted_topics", muted_topics: [["Verona", "noise", expect.any(Number)]] },
      { type: "user_topic", stream_id: verona, topic_name: "noise", last_updated: expect.any(Number), visibility_policy: 1 },
    ]);
    expect(ev.of("othello")).toEqual([]);
    expect(await s.app.db.get("SELECT visibility_policy FROM user_topics WHERE user_id = ? AND topic = 'noise'", [s.users.hamlet.id])).toEqual({ visibility_policy: 1 });
    (await s.users.hamlet.client.post("/user_topics", { stream_id: verona, topic: "NOISE", visibility_policy: 3 })).success();
    expect(await s.app.db.all("SELECT topic, visibility_policy FROM user_topics WHERE user_id = ?", [s.users.hamlet.id])).toEqual([{ topic: "noise", visibility_policy: 3 }]);
    (await s.users.hamlet.client.post("/user_topics", { stream_id: verona, topic: "noise", visibility_policy: 0 })).success();
    expect(await s.app.db.all("SELECT * FROM user_topics WHERE user_id = ?", [s.users.hamlet.id])).toEqual([]);
  });

  test("the legacy muted_topics event and list go only to clients that did not ask for user_topic by name", async () => {
    const hamlet = s.users.hamlet.client;
    const legacy = (await hamlet.post("/register", { event_types: ["muted_topics"] } as any)).success();
    const both = (await hamlet.post("/register", { event_types: ["user_topic", "muted_topics"] } as any)).success();
    const modern = (await hamlet.post("/register", { event_types: ["user_topic"] } as any)).success();
    expect(legacy.muted_topics).toEqual([]);
    expect(legacy.user_topics).toBeUndefined();
    expect(both.muted_topics).toBeUndefined();
    expect(both.user_topics).toEqual([]);
    expect(modern.muted_topics).toBeUndefined();
    const events = async (queue_id: string) => (await hamlet.get("/events", { queue_id, last_event_id: -1, dont_block: true } as any)).success().events;
    (await hamlet.post("/user_topics", { stream_id: verona, topic: "hush", visibility_policy: 1 })).success();
    (await hamlet.post("/user_topics", { stream_id: verona, topic: "loud", visibility_policy: 3 })).success();
    // a follow changes no mute, but Zulip sends the list again all the same
    const list = [["Verona", "hush", expect.any(Number)]];
    expect(await events(legacy.queue_id)).toEqual([
      { id: 0, type: "muted_topics", muted_topics: list },
      { id: 1, type: "muted_topics", muted_topics: list },
    ]);
    expect((await events(both.queue_id)).map((e: any) => e.type)).toEqual(["user_topic", "user_topic"]);
    expect((await hamlet.post("/register", { event_types: ["muted_topics"] } as any)).success().muted_topics).toEqual(list);
    for (const topic of ["hush", "loud"]) (await hamlet.post("/user_topics", { stream_id: verona, topic, visibility_policy: 0 })).success();
  });

  test("refuses bad policies and channels without access", async () => {
    (await s.users.hamlet.client.post("/user_topics", { stream_id: verona, topic: "x", visibility_policy: 7 })).error("Invalid visibility_policy");
    const secret = await createChannel(s, "iago", "Secret", { invite_only: true });
    (await s.users.hamlet.client.post("/user_topics", { stream_id: secret, topic: "x", visibility_policy: 1 })).error("Invalid channel ID");
  });

  test("is:muted and is:followed narrows use the policies", async () => {
    const muted = await sendStream(s, "othello", "Verona", "boring", "x");
    const followed = await sendStream(s, "othello", "Verona", "exciting", "y");
    await s.users.hamlet.client.post("/user_topics", { stream_id: verona, topic: "boring", visibility_policy: 1 });
    await s.users.hamlet.client.post("/user_topics", { stream_id: verona, topic: "exciting", visibility_policy: 3 });
    const ids = async (narrow: unknown) =>
      (await s.users.hamlet.client.get("/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow } as any)).success().messages.map((m: any) => m.id);
    expect(await ids([["is", "muted"]])).toEqual([muted]);
    expect(await ids([["is", "followed"]])).toEqual([followed]);
    expect(await ids([["in", "home"]])).not.toContain(muted);
  });
});

describe("alert words", () => {
  test("add, list and remove, with alert_words events", async () => {
    const ev = await s.captureEvents(async () => {
      const r = (await s.users.othello.client.post("/users/me/alert_words", { alert_words: ["Desdemona", " handkerchief ", "", "desdemona"] })).success();
      expect(r.alert_words).toEqual(["Desdemona", "handkerchief"]);
    });
    expect(ev.of("othello")).toEqual([{ type: "alert_words", alert_words: ["Desdemona", "handkerchief"] }]);
    expect((await s.users.othello.client.get("/users/me/alert_words")).success().alert_words).toEqual(["Desdemona", "handkerchief"]);
    const r = (await s.users.othello.client.delete("/users/me/alert_words", { alert_words: ["HANDKERCHIEF"] })).success();
    expect(r.alert_words).toEqual(["Desdemona"]);
    (await s.users.othello.client.post("/users/me/alert_words", { alert_words: ["x".repeat(101)] })).error("alert_words[0] is too long (limit: 100 characters)");
  });
});

describe("POST /register message state", () => {
  test("max_message_id, unread_msgs, starred_messages, recent_private_conversations, user_topics and alert_words", async () => {
    const c1 = await sendStream(s, "othello", "Verona", "news", "hi @**King Hamlet**");
    const d1 = await sendDm(s, "othello", ["hamlet"], "dm");
    const g1 = await sendDm(s, "othello", ["hamlet", "cordelia"], "group");
    await s.users.hamlet.client.post("/messages/flags", { messages: [c1], op: "add", flag: "starred" });
    await s.users.hamlet.client.post("/users/me/alert_words", { alert_words: ["news"] });
    const r = (
      await s.users.hamlet.client.post("/register", {
        fetch_event_types: ["message", "update_message_flags", "starred_messages", "recent_private_conversations", "user_topic", "alert_words"],
        client_capabilities: { notification_settings_null: true, empty_topic_name: true },
      })
    ).success();
    expect(r.max_message_id).toBe(g1);
    expect(r.starred_messages).toEqual([c1]);
    expect(r.alert_words).toEqual(["news"]);
    const u = r.unread_msgs;
    expect(u.streams.find((x: any) => x.topic === "news")).toEqual({ stream_id: verona, topic: "news", unread_message_ids: [c1] });
    expect(u.pms).toEqual([{ other_user_id: s.users.othello.id, sender_id: s.users.othello.id, unread_message_ids: [d1] }]);
    const key = [s.users.hamlet.id, s.users.othello.id, s.users.cordelia.id].sort((a, b) => a - b).join(",");
    expect(u.huddles).toEqual([{ user_ids_string: key, unread_message_ids: [g1] }]);
    expect(u.mentions).toEqual([c1]);
    // count leaves out the muted topic "boring" (still listed under streams), like Zulip's unmuted_stream_msgs
    const streamUnread = u.streams.reduce((n: number, x: any) => n + x.unread_message_ids.length, 0);
    const mutedUnread = u.streams.filter((x: any) => x.topic === "boring").reduce((n: number, x: any) => n + x.unread_message_ids.length, 0);
    expect(mutedUnread).toBeGreaterThan(0);
    expect(u.count).toBe(streamUnread - mutedUnread + 2);
    expect(u.old_unreads_missing).toBe(false);
    expect(r.recent_private_conversations).toEqual([
      { max_message_id: g1, user_ids: [s.users.othello.id, s.users.cordelia.id].sort((a, b) => a - b) },
      { max_message_id: d1, user_ids: [s.users.othello.id] },
    ]);
    expect(r.user_topics).toEqual(expect.arrayContaining([{ stream_id: verona, topic_name: "exciting", last_updated: expect.any(Number), visibility_policy: 3 }]));
  });
});

describe("unread count in /register", () => {
  test("leaves out muted channels and muted topics, but counts unmuted and followed topics in a muted channel", async () => {
    const quiet = await createChannel(s, "iago", "Quiet Hall", { subscribers: ["cordelia", "othello"] });
    await sendStream(s, "othello", "Quiet Hall", "idle", "a");
    await sendStream(s, "othello", "Quiet Hall", "wanted", "b");
    await sendStream(s, "othello", "Quiet Hall", "followed", "c");
    (await s.users.cordelia.client.patch(`/users/me/subscriptions/${quiet}`, { property: "is_muted", value: true })).success();
    (await s.users.cordelia.client.post("/user_topics", { stream_id: quiet, topic: "wanted", visibility_policy: 2 })).success();
    (await s.users.cordelia.client.post("/user_topics", { stream_id: quiet, topic: "followed", visibility_policy: 3 })).success();
    const u = (await s.users.cordelia.client.post("/register", { fetch_event_types: ["message", "update_message_flags"] })).success().unread_msgs;
    const n = (xs: any[]) => xs.reduce((k: number, x: any) => k + x.unread_message_ids.length, 0);
    const elsewhere = n(u.streams.filter((x: any) => x.stream_id !== quiet));
    // every topic is still listed; only "wanted" (unmuted) and "followed" count from the muted channel
    expect(u.streams.filter((x: any) => x.stream_id === quiet).map((x: any) => x.topic).sort()).toEqual(["channel events", "followed", "idle", "wanted"]);
    expect(u.count).toBe(n(u.pms) + n(u.huddles) + elsewhere + 2);
  });
});
