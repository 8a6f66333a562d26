import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { makeUser, setRealmSettings } from "../helpers/people";
import { systemGroup } from "../helpers/invite-fixtures";
import { flagsOf, holdersOf, messageRow, queueEvents, registerQueue, sendDm, sendStream } from "../helpers/messages";
import { FLAG } from "../../src/domain/flags";
import { makePng, upload } from "../helpers/uploads";

let s: TestServer;
let denmark: number;
beforeAll(async () => {
  s = await startServer();
  denmark = await createChannel(s, "iago", "Denmark", { subscribers: ["hamlet", "othello", "cordelia", "polonius"] });
});
afterAll(() => s.close());

const send = (who: "hamlet" | "othello" | "iago" | "polonius" | "cordelia" | "desdemona" | "shiva", params: Record<string, unknown>) => s.users[who].client.post("/messages", params as any);

describe("POST /messages to a channel", () => {
  test("stores the message and one row per subscriber, and sends each subscriber the message with their flags", async () => {
    let id = 0;
    const ev = await s.captureEvents(async () => {
      id = (await send("hamlet", { type: "stream", to: "Denmark", topic: "castle", content: "Hello @**Othello, the Moor of Venice**" })).success().id;
    });
    const row = await messageRow(s, id);
    expect(row).toMatchObject({ sender_id: s.users.hamlet.id, stream_id: denmark, topic: "castle", content: "Hello @**Othello, the Moor of Venice**", dm_key: null });
    expect(row!.rendered_content).toContain('class="user-mention"');
    const subs = [s.users.iago.id, s.users.hamlet.id, s.users.othello.id, s.users.cordelia.id, s.users.polonius.id].sort((a, b) => a - b);
    expect(await holdersOf(s, id)).toEqual(subs);
    expect(await flagsOf(s, "othello", id)).toBe(FLAG.mentioned);
    expect(await flagsOf(s, "cordelia", id)).toBe(0);
    const toOthello = ev.of("othello").find((e) => e.type === "message")!;
    expect(toOthello.flags).toEqual(["mentioned"]);
    expect(toOthello.message).toMatchObject({ id, type: "stream", display_recipient: "Denmark", stream_id: denmark, subject: "castle", sender_id: s.users.hamlet.id, content_type: "text/html" });
    expect(ev.of("cordelia").find((e) => e.type === "message")!.flags).toEqual([]);
    expect(ev.of("shiva").filter((e) => e.type === "message")).toEqual([]);
  });

  test("`to` may be the channel's id, a JSON-encoded name or a one-element list", async () => {
    for (const to of [String(denmark), JSON.stringify("Denmark"), JSON.stringify([denmark])]) {
      const id = (await send("hamlet", { type: "channel", to, topic: "ids", content: "x" })).success().id;
      expect((await messageRow(s, id))!.stream_id).toBe(denmark);
    }
  });

  test("an unknown channel is STREAM_DOES_NOT_EXIST naming it the way it was given", async () => {
    const byName = (await send("hamlet", { type: "stream", to: "Nowhere", topic: "t", content: "x" })).error("Channel 'Nowhere' does not exist", "STREAM_DOES_NOT_EXIST", 400);
    expect(byName.stream).toBe("Nowhere");
    const byId = (await send("hamlet", { type: "stream", to: "99999", topic: "t", content: "x" })).error("Channel with ID '99999' does not exist", "STREAM_DOES_NOT_EXIST", 400);
    expect(byId.stream_id).toBe(99999);
  });

  test("the legacy `subject` parameter names the topic; a missing topic is refused", async () => {
    const id = (await send("hamlet", { type: "stream", to: "Denmark", subject: "legacy", content: "x" })).success().id;
    expect((await messageRow(s, id))!.topic).toBe("legacy");
    (await send("hamlet", { type: "stream", to: "Denmark", content: "x" })).error("Missing topic");
  });

  test("`topic` and `subject` together must agree: two different topics are refused, the same one is taken", async () => {
    (await send("hamlet", { type: "stream", to: "Denmark", topic: "one", subject: "two", content: "x" })).error("Can't decide between 'topic' and 'subject' arguments", "REQUEST_CONFUSING_VAR", 400);
    const id = (await send("hamlet", { type: "stream", to: "Denmark", topic: "same", subject: "same", content: "x" })).success().id;
    expect((await messageRow(s, id))!.topic).toBe("same");
  });

  test("'(no topic)' and the empty-topic display name mean the empty topic", async () => {
    for (const topic of ["(no topic)", "general chat", ""]) {
      const id = (await send("hamlet", { type: "stream", to: "Denmark", topic, content: "x" })).success().id;
      expect((await messageRow(s, id))!.topic).toBe("");
    }
  });

  test("long topics are truncated with '...' and long content with a marker", async () => {
    const id = (await send("hamlet", { type: "stream", to: "Denmark", topic: "t".repeat(70), content: "a".repeat(10_050) })).success().id;
    const row = await messageRow(s, id);
    expect(row!.topic).toBe("t".repeat(57) + "...");
    expect(row!.content.length).toBe(10_000);
    expect(row!.content.endsWith("\n[message truncated]")).toBe(true);
  });

  test("empty content, null bytes and control characters in topics are refused", async () => {
    (await send("hamlet", { type: "stream", to: "Denmark", topic: "t", content: "  \n " })).error("Message must not be empty");
    (await send("hamlet", { type: "stream", to: "Denmark", topic: "t", content: "a\u0000b" })).error("Message must not contain null bytes");
    (await send("hamlet", { type: "stream", to: "Denmark", topic: "a\u0007b", content: "x" })).error("Invalid character in topic, at position 2!");
    (await send("hamlet", { type: "carrier-pigeon", to: "Denmark", topic: "t", content: "x" })).error("Invalid type");
  });

  test("the channel's topics_policy can forbid the empty topic or allow only it", async () => {
    const ch = await createChannel(s, "iago", "Policies", { subscribers: ["hamlet"] });
    (await s.users.iago.client.patch(`/streams/${ch}`, { topics_policy: "disable_empty_topic" })).success();
    (await send("hamlet", { type: "stream", to: "Policies", topic: "", content: "x" })).error("Sending messages to the general chat topic is not allowed in this channel.");
    (await send("hamlet", { type: "stream", to: "Policies", topic: "fine", content: "x" })).success();
    (await s.users.iago.client.patch(`/streams/${ch}`, { topics_policy: "allow_empty_topic" })).success();
    (await s.users.iago.client.patch(`/streams/${ch}`, { topics_policy: "inherit" })).success();
    await setRealmSettings(s, { topics_policy: "disable_empty_topic" });
    try {
      (await send("hamlet", { type: "stream", to: "Policies", topic: "(no topic)", content: "x" })).error("Sending messages to the general chat topic is not allowed in this channel.");
    } finally {
      await setRealmSettings(s, { topics_policy: "allow_empty_topic" });
    }
  });

  test("posting needs can_send_message_group, and archived channels refuse everyone", async () => {
    const ch = await createChannel(s, "iago", "Announcements", { subscribers: ["hamlet"] });
    (await s.users.iago.client.patch(`/streams/${ch}`, { can_send_message_group: { new: systemGroup(s, "role:administrators") } })).success();
    (await send("hamlet", { type: "stream", to: "Announcements", topic: "t", content: "x" })).error("You do not have permission to post in this channel.");
    (await send("iago", { type: "stream", to: "Announcements", topic: "t", content: "x" })).success();
    (await s.users.iago.client.delete(`/streams/${ch}`)).success();
    (await send("iago", { type: "stream", to: ch, topic: "t", content: "x" })).error("Not authorized to send to channel 'Announcements'");
  });

  test("guests may post only where they are subscribed; private channels need access", async () => {
    await createChannel(s, "iago", "Public square", {});
    (await send("polonius", { type: "stream", to: "Public square", topic: "t", content: "x" })).error("Not authorized to send to channel 'Public square'");
    (await send("polonius", { type: "stream", to: "Denmark", topic: "t", content: "x" })).success();
    await createChannel(s, "iago", "Secret", { invite_only: true });
    (await send("hamlet", { type: "stream", to: "Secret", topic: "t", content: "x" })).error("Not authorized to send to channel 'Secret'");
  });

  test("can_create_topic_group: others may post only to topics with messages (case-insensitively); a topic emptied by a move or deletion is new again", async () => {
    const admins = systemGroup(s, "role:administrators");
    await createChannel(s, "iago", "Topicless", { subscribers: ["hamlet"], extra: { can_create_topic_group: admins } });
    const refused = "You do not have permission to create new topics in this channel.";
    const post = (who: "hamlet" | "iago", topic: string) => send(who, { type: "stream", to: "Topicless", topic, content: "x" });
    (await post("hamlet", "plans")).error(refused);
    const first = (await post("iago", "plans")).success().id;
    // the topic exists now, however it is spelled, for every later message too
    for (const topic of ["plans", "PLANS", "Plans"]) (await post("hamlet", topic)).success();
    const before = await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM messages WHERE topic = 'Plans' COLLATE NOCASE");
    expect(before!.n).toBe(4);
    // moved away whole: the old name has no messages left
    (await s.users.iago.client.patch(`/messages/${first}`, { topic: "moved", propagate_mode: "change_all", send_notification_to_old_thread: false, send_notification_to_new_thread: false })).success();
    (await post("hamlet", "plans")).error(refused);
    (await post("hamlet", "moved")).success();
    // deleted one by one: refused once the last one is gone
    const ids = (await s.app.db.all<{ id: number }>("SELECT id FROM messages WHERE topic = 'moved'")).map((r) => r.id);
    for (const id of ids.slice(1)) (await s.users.iago.client.delete(`/messages/${id}`)).success();
    (await post("hamlet", "moved")).success();
    const last = (await s.app.db.all<{ id: number }>("SELECT id FROM messages WHERE topic = 'moved'")).map((r) => r.id);
    for (const id of last) (await s.users.iago.client.delete(`/messages/${id}`)).success();
    (await post("hamlet", "moved")).error(refused);
  });

  test("starting a topic follows it for the sender (automatic_new_visibility_policy and a user_topic event)", async () => {
    let body: any;
    const ev = await s.captureEvents(async () => {
      body = (await send("cordelia", { type: "stream", to: "Denmark", topic: "brand new", content: "x" })).success();
    });
    expect(body.automatic_new_visibility_policy).toBe(3);
    expect(ev.of("cordelia").find((e) => e.type === "user_topic")).toEqual({ type: "user_topic", stream_id: denmark, topic_name: "brand new", last_updated: expect.any(Number), visibility_policy: 3 });
    const row = await s.app.db.get("SELECT visibility_policy FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic = ?", [s.users.cordelia.id, denmark, "brand new"]);
    expect(row).toEqual({ visibility_policy: 3 });
    const again = (await send("cordelia", { type: "stream", to: "Denmark", topic: "brand new", content: "y" })).success();
    expect(again.automatic_new_visibility_policy).toBeUndefined();
    const other = (await send("othello", { type: "stream", to: "Denmark", topic: "brand new", content: "z" })).success();
    expect(other.automatic_new_visibility_policy).toBeUndefined();
  });

  test("a mention follows the topic for the mentioned user once; after they unfollow, the next mention follows again", async () => {
    const othello = s.users.othello.id;
    const policy = async () => (await s.app.db.get<{ visibility_policy: number }>("SELECT visibility_policy FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic = ?", [othello, denmark, "summoned"]))?.visibility_policy ?? 0;
    const mention = () => send("hamlet", { type: "stream", to: "Denmark", topic: "summoned", content: "@**Othello, the Moor of Venice** come here" });
    const followEvents = (ev: Awaited<ReturnType<typeof s.captureEvents>>) => ev.of("othello").filter((e) => e.type === "user_topic");
    let ev = await s.captureEvents(async () => void (await mention()).success());
    expect(followEvents(ev)).toEqual([{ type: "user_topic", stream_id: denmark, topic_name: "summoned", last_updated: expect.any(Number), visibility_policy: 3 }]);
    expect(await policy()).toBe(3);
    // already following: no event, nothing written
    ev = await s.captureEvents(async () => void (await mention()).success());
    expect(followEvents(ev)).toEqual([]);
    (await s.users.othello.client.post("/user_topics", { stream_id: denmark, topic: "summoned", visibility_policy: 0 })).success();
    expect(await policy()).toBe(0);
    ev = await s.captureEvents(async () => void (await mention()).success());
    expect(followEvents(ev)).toEqual([{ type: "user_topic", stream_id: denmark, topic_name: "summoned", last_updated: expect.any(Number), visibility_policy: 3 }]);
    expect(await policy()).toBe(3);
    // two mentions sent at once (one write batch) follow once
    (await s.users.othello.client.post("/user_topics", { stream_id: denmark, topic: "summoned", visibility_policy: 0 })).success();
    ev = await s.captureEvents(async () => void (await Promise.all([mention(), mention()])).forEach((r) => r.success()));
    expect(followEvents(ev)).toHaveLength(1);
    expect(await policy()).toBe(3);
    // a user who turned the setting off is not made to follow
    (await s.users.cordelia.client.patch("/settings", { automatically_follow_topics_where_mentioned: false })).success();
    ev = await s.captureEvents(async () => void (await send("hamlet", { type: "stream", to: "Denmark", topic: "summoned", content: "@**Cordelia, Lear's daughter**" })).success());
    expect(ev.of("cordelia").find((e) => e.type === "message")!.flags).toEqual(["mentioned"]);
    expect(ev.of("cordelia").filter((e) => e.type === "user_topic")).toEqual([]);
  });

  test("a user renamed by another process (another Parley on the same file) is mentioned by the new name in the next message", async () => {
    const Database = (await import("libsql")).default;
    const rename = (name: string) => {
      const other = new Database(join(s.dataDir, "parley.db"));
      other.exec("PRAGMA busy_timeout = 5000");
      other.prepare("UPDATE users SET full_name = ? WHERE id = ?").run([name, s.users.othello.id]);
      other.close();
    };
    const rendered = async (content: string) => (await messageRow(s, (await send("hamlet", { type: "stream", to: "Denmark", topic: "renamed", content })).success().id))!.rendered_content;
    expect(await rendered("@**Othello, the Moor of Venice**")).toContain(`data-user-id="${s.users.othello.id}"`);
    rename("Othello Elsewhere");
    try {
      expect(await rendered("@**Othello Elsewhere**")).toContain(`data-user-id="${s.users.othello.id}"`);
    } finally {
      rename("Othello, the Moor of Venice");
    }
    expect(await rendered("@**Othello, the Moor of Venice**")).toContain(`data-user-id="${s.users.othello.id}"`);
  });

  test("a client's own messages start read for full clients, unread for API clients, or as read_by_sender says", async () => {
    const web = (await s.users.hamlet.client.post("/messages", { type: "stream", to: "Denmark", topic: "r", content: "x", client: "website" })).success().id;
    expect(await flagsOf(s, "hamlet", web)).toBe(FLAG.read);
    const api = (await send("hamlet", { type: "stream", to: "Denmark", topic: "r", content: "x" })).success().id;
    expect(await flagsOf(s, "hamlet", api)).toBe(0);
    const forced = (await send("hamlet", { type: "stream", to: "Denmark", topic: "r", content: "x", read_by_sender: true })).success().id;
    expect(await flagsOf(s, "hamlet", forced)).toBe(FLAG.read);
    const unforced = (await s.users.hamlet.client.post("/messages", { type: "stream", to: "Denmark", topic: "r", content: "x", client: "website", read_by_sender: false })).success().id;
    expect(await flagsOf(s, "hamlet", unforced)).toBe(0);
  });

  test("alert words set has_alert_word for their owner", async () => {
    (await s.users.cordelia.client.post("/users/me/alert_words", { alert_words: ["Elsinore"] })).success();
    const id = await sendStream(s, "hamlet", "Denmark", "alerts", "Off to elsinore tonight");
    expect(await flagsOf(s, "cordelia", id)).toBe(FLAG.has_alert_word);
    expect(await flagsOf(s, "othello", id)).toBe(0);
    const partial = await sendStream(s, "hamlet", "Denmark", "alerts", "Elsinorean pride");
    expect(await flagsOf(s, "cordelia", partial)).toBe(0);
  });
});

describe("wildcard mentions", () => {
  let big: number;
  beforeAll(async () => {
    const extras = [];
    for (let i = 0; i < 16; i++) extras.push(await makeUser(s, `Extra ${i}`));
    big = await createChannel(s, "iago", "Crowd", { subscribers: ["hamlet", "othello"] });
    for (const u of extras) await s.app.db.run("INSERT INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, '#fff')", [u.id, big]);
  });

  test("a channel wildcard in a channel of more than 15 subscribers needs can_mention_many_users_group", async () => {
    (await send("hamlet", { type: "stream", to: "Crowd", topic: "t", content: "@**all** hello" })).error(
      "You do not have permission to use channel wildcard mentions in this channel.",
      "STREAM_WILDCARD_MENTION_NOT_ALLOWED",
      400,
    );
    const id = (await send("iago", { type: "stream", to: "Crowd", topic: "t", content: "@**everyone** hello" })).success().id;
    expect(await flagsOf(s, "othello", id)).toBe(FLAG.stream_wildcard_mentioned);
  });

  test("small channels allow channel wildcards to everyone, and they set the wildcard flags", async () => {
    let id = 0;
    const ev = await s.captureEvents(async () => {
      id = await sendStream(s, "hamlet", "Denmark", "wild", "@**channel** look");
    });
    expect(await flagsOf(s, "cordelia", id)).toBe(FLAG.stream_wildcard_mentioned);
    expect(ev.of("cordelia").find((e) => e.type === "message")!.flags).toEqual(["stream_wildcard_mentioned", "wildcard_mentioned"]);
  });

  test("a topic wildcard flags the topic's participants, and needs permission past 15 participants", async () => {
    await sendStream(s, "othello", "Denmark", "participants", "first");
    const id = await sendStream(s, "hamlet", "Denmark", "participants", "@**topic** ping");
    expect(await flagsOf(s, "othello", id)).toBe(FLAG.topic_wildcard_mentioned);
    expect(await flagsOf(s, "cordelia", id)).toBe(0);
    const users = await s.app.db.all<{ id: number }>("SELECT user_id AS id FROM subscriptions WHERE stream_id = ?", [big]);
    for (const u of users) {
      await s.app.db.run(
        "INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent) SELECT realm_id, ?, recipient_id, id, 'busy', 'x', '<p>x</p>', 0 FROM streams WHERE id = ?",
        [u.id, big],
      );
    }
    (await send("hamlet", { type: "stream", to: "Crowd", topic: "busy", content: "@**topic** hi" })).error(
      "You do not have permission to use topic wildcard mentions in this topic.",
      "TOPIC_WILDCARD_MENTION_NOT_ALLOWED",
      400,
    );
  });
});

describe("POST /messages direct", () => {
  test("to user ids: both participants get a row and the event, and the sender in the list is ignored", async () => {
    let id = 0;
    const ev = await s.captureEvents(async () => {
      id = (await send("hamlet", { type: "direct", to: JSON.stringify([s.users.othello.id, s.users.hamlet.id]), content: "psst" })).success().id;
    });
    const row = await messageRow(s, id);
    const key = [s.users.hamlet.id, s.users.othello.id].sort((a, b) => a - b).join(",");
    expect(row).toMatchObject({ stream_id: null, dm_key: key, topic: "" });
    expect(await holdersOf(s, id)).toEqual(key.split(",").map(Number));
    const m = ev.of("othello").find((e) => e.type === "message")!.message as any;
    expect(m.type).toBe("private");
    expect(m.display_recipient.map((u: any) => u.id)).toEqual(key.split(",").map(Number));
    expect(m.display_recipient[0]).toEqual({ id: expect.any(Number), email: expect.any(String), full_name: expect.any(String), is_mirror_dummy: false });
    expect(ev.of("cordelia")).toEqual([]);
  });

  test("to emails, legacy type 'private', and to oneself", async () => {
    const id = (await send("hamlet", { type: "private", to: JSON.stringify(["othello@zulip.com"]), content: "by email" })).success().id;
    expect((await messageRow(s, id))!.dm_key).toBe([s.users.hamlet.id, s.users.othello.id].sort((a, b) => a - b).join(","));
    const self = (await send("hamlet", { type: "direct", to: JSON.stringify([s.users.hamlet.id]), content: "note to self" })).success().id;
    expect((await messageRow(s, self))!.dm_key).toBe(String(s.users.hamlet.id));
    expect(await holdersOf(s, self)).toEqual([s.users.hamlet.id]);
  });

  test("a group conversation gets one recipient, created once", async () => {
    const a = await sendDm(s, "hamlet", ["othello", "cordelia"], "group one");
    const b = await sendDm(s, "cordelia", ["hamlet", "othello"], "group two");
    const ra = await messageRow(s, a);
    const rb = await messageRow(s, b);
    expect(ra!.recipient_id).toBe(rb!.recipient_id);
    expect((await s.app.db.all("SELECT * FROM direct_message_groups")).length).toBe(1);
    expect(await holdersOf(s, b)).toHaveLength(3);
  });

  test("invalid recipients are refused", async () => {
    (await send("hamlet", { type: "direct", to: JSON.stringify(["nobody@zulip.com"]), content: "x" })).error("Invalid email 'nobody@zulip.com'");
    (await send("hamlet", { type: "direct", to: JSON.stringify([99999]), content: "x" })).error("Invalid user ID 99999");
    (await send("hamlet", { type: "direct", to: JSON.stringify([s.users.othello.id, "cordelia@zulip.com"]), content: "x" })).error(
      "Recipient lists may contain emails or user IDs, but not both.",
    );
    (await send("hamlet", { type: "direct", to: "[]", content: "x" })).error("Message must have recipients");
    const gone = await makeUser(s, "Gone");
    await s.app.db.run("UPDATE users SET is_active = 0 WHERE id = ?", [gone.id]);
    (await send("hamlet", { type: "direct", to: JSON.stringify([gone.id]), content: "x" })).error(`'${gone.email}' is no longer using Zulip.`);
  });

  test("direct_message_permission_group: a conversation needs someone in the group", async () => {
    await setRealmSettings(s, { direct_message_permission_group: systemGroup(s, "role:administrators") });
    try {
      (await send("hamlet", { type: "direct", to: JSON.stringify([s.users.othello.id]), content: "x" })).error(
        "This conversation does not include any users who can authorize it.",
      );
      (await send("hamlet", { type: "direct", to: JSON.stringify([s.users.iago.id]), content: "x" })).success();
      (await send("hamlet", { type: "direct", to: JSON.stringify([s.users.hamlet.id]), content: "self is fine" })).success();
      await setRealmSettings(s, { direct_message_permission_group: systemGroup(s, "role:nobody") });
      (await send("iago", { type: "direct", to: JSON.stringify([s.users.othello.id]), content: "x" })).error("Direct messages are disabled in this organization.");
    } finally {
      await setRealmSettings(s, { direct_message_permission_group: systemGroup(s, "role:everyone") });
    }
  });

  test("direct_message_initiator_group: others may only reply to existing conversations", async () => {
    await setRealmSettings(s, { direct_message_initiator_group: systemGroup(s, "role:administrators") });
    try {
      (await send("cordelia", { type: "direct", to: JSON.stringify([s.users.shiva.id]), content: "x" })).error(
        "You do not have permission to initiate direct message conversations.",
      );
      (await send("shiva", { type: "direct", to: JSON.stringify([s.users.iago.id]), content: "x" })).error(
        "You do not have permission to initiate direct message conversations.",
      );
      (await send("iago", { type: "direct", to: JSON.stringify([s.users.cordelia.id]), content: "hello" })).success();
      (await send("cordelia", { type: "direct", to: JSON.stringify([s.users.iago.id]), content: "reply" })).success();
    } finally {
      await setRealmSettings(s, { direct_message_initiator_group: systemGroup(s, "role:everyone") });
    }
  });
});

describe("local echo", () => {
  test("queue_id and local_id need each other", async () => {
    (await send("hamlet", { type: "stream", to: "Denmark", topic: "t", content: "x", queue_id: "abc" })).error("Missing 'local_id' argument");
    (await send("hamlet", { type: "stream", to: "Denmark", topic: "t", content: "x", local_id: "1.01" })).error("Missing 'queue_id' argument");
  });

  test("the sender's queue that sent the message gets local_message_id; their other queues do not", async () => {
    const q1 = await registerQueue(s, "hamlet", { event_types: ["message"] });
    const q2 = await registerQueue(s, "hamlet", { event_types: ["message"], apply_markdown: true });
    const id = (await send("hamlet", { type: "stream", to: "Denmark", topic: "echo", content: "**bold**", queue_id: q1, local_id: "100.01" })).success().id;
    const [e1] = await queueEvents(s, "hamlet", q1, true);
    const [e2] = await queueEvents(s, "hamlet", q2);
    expect(e1).toMatchObject({ type: "message", local_message_id: "100.01", message: { id, content: "**bold**", content_type: "text/x-markdown" } });
    expect(e2.local_message_id).toBeUndefined();
    expect(e2.message).toMatchObject({ id, content: "<p><strong>bold</strong></p>", content_type: "text/html" });
  });

  test("a queue registered with a narrow only gets matching messages", async () => {
    const q = await registerQueue(s, "othello", { event_types: ["message"], narrow: [["stream", "Denmark"], ["topic", "Only this"]] });
    await sendStream(s, "hamlet", "Denmark", "only this", "yes");
    await sendStream(s, "hamlet", "Denmark", "other", "no");
    await sendDm(s, "hamlet", ["othello"], "no");
    const events = await queueEvents(s, "othello", q);
    expect(events.map((e) => e.message.content)).toEqual(["yes"]);
  });
});

describe("uploads in messages", () => {
  test("an uploaded image gets Zulip's inline preview and is linked to the message", async () => {
    const png = await makePng(40, 30);
    const up = await upload(s, "hamlet", "pic.png", png, "image/png");
    const id = await sendStream(s, "hamlet", "Denmark", "pictures", `[pic.png](${up.url})`);
    const row = await messageRow(s, id);
    expect(row!.rendered_content).toContain('class="message_inline_image"');
    expect(row!.has_image).toBe(1);
    expect(row!.has_attachment).toBe(1);
    const link = await s.app.db.get("SELECT count(*) AS n FROM attachment_messages WHERE message_id = ?", [id]);
    expect(link).toEqual({ n: 1 });
  });
});

describe("POST /messages/render", () => {
  test("renders Markdown for the caller without storing anything", async () => {
    const before = (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM messages"))!.n;
    const r = (await s.users.hamlet.client.post("/messages/render", { content: "**foo** :octopus:" })).success();
    expect(r.rendered).toStartWith("<p><strong>foo</strong> <span");
    expect((await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM messages"))!.n).toBe(before);
    (await s.users.hamlet.client.post("/messages/render", { content: " " })).error("Message must not be empty");
  });
});
