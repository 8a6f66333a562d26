import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { searchIndexCaughtUp } from "../../src/actions/messages/search-index";
import { closeApp, openApp } from "../../src/app";
import { createServer } from "../../src/server";
import { openDb } from "../../src/store/db";
import { Client, startServer, type TestServer } from "../helpers/server";
import { createChannel, subscribeTo } from "../helpers/channels";
import { sendDm, sendStream } from "../helpers/messages";

let s: TestServer;
let verona: number;
const ids: Record<string, number> = {};
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello"] });
  await createChannel(s, "iago", "Secret", { invite_only: true, history_public_to_subscribers: false, subscribers: ["othello"] });
  // Channel creation notices (Notification Bot) would shift every expected list: start from a clean history.
  await s.app.db.run("DELETE FROM messages WHERE sender_id IN (SELECT id FROM users WHERE is_bot = 1)");
  ids.v1 = await sendStream(s, "iago", "Verona", "balcony", "But soft, what light");
  ids.v2 = await sendStream(s, "othello", "Verona", "balcony", "Through yonder window https://example.com/window");
  ids.v3 = await sendStream(s, "hamlet", "Verona", "sword", "A rapier @**Othello, the Moor of Venice**");
  ids.dm1 = await sendDm(s, "hamlet", ["othello"], "psst, Othello");
  ids.dm2 = await sendDm(s, "othello", ["hamlet", "cordelia"], "group chat");
  ids.secret = await sendStream(s, "othello", "Secret", "plans", "hidden light");
  ids.v4 = await sendStream(s, "othello", "Verona", "", "empty topic light");
});
afterAll(() => s.close());

const get = (who: "hamlet" | "othello" | "cordelia" | "polonius" | "iago", params: Record<string, unknown>) => s.users[who].client.get("/messages", params as any);
const idsOf = (r: any) => r.messages.map((m: any) => m.id);

describe("GET /messages anchors", () => {
  test("newest with num_before returns the latest messages of the user's history, oldest first", async () => {
    const r = (await get("othello", { anchor: "newest", num_before: 100, num_after: 0 })).success();
    expect(idsOf(r)).toEqual([ids.v1, ids.v2, ids.v3, ids.dm1, ids.dm2, ids.secret, ids.v4]);
    expect(r).toMatchObject({ anchor: 10_000_000_000_000_000, found_anchor: false, found_oldest: true, found_newest: true, history_limited: false });
  });

  test("an id anchor with limits on both sides reports what it found", async () => {
    const r = (await get("othello", { anchor: String(ids.v3), num_before: 1, num_after: 1 })).success();
    expect(idsOf(r)).toEqual([ids.v2, ids.v3, ids.dm1]);
    expect(r).toMatchObject({ anchor: ids.v3, found_anchor: true, found_oldest: false, found_newest: false });
    const excl = (await get("othello", { anchor: ids.v3, num_before: 1, num_after: 1, include_anchor: false })).success();
    expect(idsOf(excl)).toEqual([ids.v2, ids.dm1]);
    expect(excl.found_anchor).toBe(false);
  });

  test("oldest walks forward from the start", async () => {
    const r = (await get("othello", { anchor: "oldest", num_before: 0, num_after: 2 })).success();
    expect(idsOf(r)).toEqual([ids.v1, ids.v2]);
    expect(r).toMatchObject({ anchor: 0, found_oldest: true, found_newest: false });
  });

  test("first_unread anchors at the oldest unread message, or newest when all are read", async () => {
    await s.users.hamlet.client.post("/messages/flags", { messages: [ids.v1, ids.v2], op: "add", flag: "read" });
    const r = (await get("hamlet", { anchor: "first_unread", num_before: 0, num_after: 1 })).success();
    expect(r.anchor).toBe(ids.v3);
    (await s.users.cordelia.client.post("/mark_all_as_read")).success();
    const none = (await get("cordelia", { anchor: "first_unread", num_before: 5, num_after: 5 })).success();
    expect(none.anchor).toBe(10_000_000_000_000_000);
    expect(idsOf(none)).toEqual([ids.dm2]);
    const legacy = (await get("hamlet", { use_first_unread_anchor: true, num_before: 0, num_after: 1 })).success();
    expect(legacy.anchor).toBe(ids.v3);
  });

  test("use_first_unread_anchor wins over any anchor given with it (Zulip's parse_anchor_value; zulip-terminal sends anchor=0)", async () => {
    const alone = (await get("hamlet", { use_first_unread_anchor: true, num_before: 0, num_after: 1 })).success();
    expect(alone.anchor).toBe(ids.v3);
    for (const anchor of [0, "newest", "not a number"]) {
      const r = (await get("hamlet", { anchor, use_first_unread_anchor: true, num_before: 0, num_after: 1 })).success();
      expect(r.anchor).toBe(ids.v3);
      expect(idsOf(r)).toEqual(idsOf(alone));
    }
    // false leaves the anchor in charge
    expect((await get("hamlet", { anchor: 0, use_first_unread_anchor: false, num_before: 0, num_after: 1 })).success().anchor).toBe(0);
  });

  test("bad anchors and counts are refused", async () => {
    (await get("othello", { num_before: 1, num_after: 1 })).error("Missing 'anchor' argument.");
    (await get("othello", { anchor: "sometime", num_before: 1, num_after: 1 })).error("Invalid anchor");
    (await get("othello", { anchor: "newest", num_after: 1 })).error("Missing 'num_before' argument", "REQUEST_VARIABLE_MISSING");
    (await get("othello", { anchor: "newest", num_before: 3000, num_after: 2001 })).error("Too many messages requested (maximum 5000).");
    (await get("othello", { anchor: "newest", num_before: -1, num_after: 0 })).error("num_before is too small");
  });

  test("message_ids fetches exactly those the user may read, and excludes anchor parameters", async () => {
    const r = (await get("hamlet", { message_ids: [ids.v1, ids.secret, ids.dm1, 99999] })).success();
    expect(idsOf(r)).toEqual([ids.v1, ids.dm1]);
    expect(r.anchor).toBeUndefined();
    expect(r).toMatchObject({ found_anchor: false, found_oldest: false, found_newest: false });
    (await get("hamlet", { message_ids: [ids.v1], anchor: "newest" })).error("Unsupported parameter combination: message_ids, anchor");
  });
});

describe("message objects", () => {
  test("carry Zulip's fields, the caller's flags, and honour apply_markdown and client_gravatar", async () => {
    const r = (await get("othello", { anchor: ids.v3, num_before: 0, num_after: 0 })).success();
    const m = r.messages[0];
    expect(m).toMatchObject({
      id: ids.v3,
      sender_id: s.users.hamlet.id,
      sender_email: "hamlet@zulip.com",
      sender_full_name: "King Hamlet",
      type: "stream",
      stream_id: verona,
      display_recipient: "Verona",
      subject: "sword",
      content_type: "text/html",
      is_me_message: false,
      reactions: [],
      submessages: [],
      topic_links: [],
      avatar_url: null,
      flags: ["mentioned"],
      client: expect.any(String),
      timestamp: expect.any(Number),
    });
    expect(m.content).toContain("user-mention");
    const raw = (await get("othello", { anchor: ids.v3, num_before: 0, num_after: 0, apply_markdown: false, client_gravatar: false })).success().messages[0];
    expect(raw.content).toBe("A rapier @**Othello, the Moor of Venice**");
    expect(raw.content_type).toBe("text/x-markdown");
    expect(raw.avatar_url).toStartWith("https://secure.gravatar.com/avatar/");
  });

  test("the empty topic is shown as the display name unless allow_empty_topic_name", async () => {
    const shown = (await get("othello", { anchor: ids.v4, num_before: 0, num_after: 0 })).success().messages[0];
    expect(shown.subject).toBe("general chat");
    const empty = (await get("othello", { anchor: ids.v4, num_before: 0, num_after: 0, allow_empty_topic_name: true })).success().messages[0];
    expect(empty.subject).toBe("");
  });

  test("an incoming 1:1 message's recipient_id identifies the conversation", async () => {
    const [forHamlet] = (await get("hamlet", { message_ids: [ids.dm1] })).success().messages;
    const [forOthello] = (await get("othello", { message_ids: [ids.dm1] })).success().messages;
    const othelloRecipient = (await s.app.db.get<{ r: number }>("SELECT recipient_id AS r FROM users WHERE id = ?", [s.users.othello.id]))!.r;
    const hamletRecipient = (await s.app.db.get<{ r: number }>("SELECT recipient_id AS r FROM users WHERE id = ?", [s.users.hamlet.id]))!.r;
    expect(forHamlet.recipient_id).toBe(othelloRecipient);
    expect(forOthello.recipient_id).toBe(hamletRecipient);
  });
});

describe("narrows", () => {
  test("channel, topic and sender narrow the results (names or ids, modern or legacy form)", async () => {
    const topic = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "channel", operand: "Verona" }, { operator: "topic", operand: "BALCONY" }] })).success();
    expect(idsOf(topic)).toEqual([ids.v1, ids.v2]);
    const legacy = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["stream", "Verona"], ["sender", "othello@zulip.com"]] })).success();
    expect(idsOf(legacy)).toEqual([ids.v2, ids.v4]);
    const byId = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "channel", operand: verona }, { operator: "sender", operand: s.users.iago.id }] })).success();
    expect(idsOf(byId)).toEqual([ids.v1]);
  });

  test("negated terms exclude", async () => {
    const r = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "channel", operand: "Verona", negated: true }] })).success();
    expect(idsOf(r)).toEqual([ids.dm1, ids.dm2, ids.secret]);
    const notDm = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "is", operand: "dm", negated: true }, { operator: "topic", operand: "balcony", negated: true }] })).success();
    expect(idsOf(notDm)).toEqual([ids.v3, ids.secret, ids.v4]);
  });

  test("direct-message operators: is:dm, dm (a conversation) and dm-including", async () => {
    const all = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["is", "private"]] })).success();
    expect(idsOf(all)).toEqual([ids.dm1, ids.dm2]);
    const one = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "dm", operand: [s.users.hamlet.id] }] })).success();
    expect(idsOf(one)).toEqual([ids.dm1]);
    const group = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["pm-with", "hamlet@zulip.com,cordelia@zulip.com"]] })).success();
    expect(idsOf(group)).toEqual([ids.dm2]);
    const including = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "dm-including", operand: s.users.hamlet.id }] })).success();
    expect(idsOf(including)).toEqual([ids.dm1, ids.dm2]);
  });

  test("is:mentioned, is:starred, is:unread, has:link and id", async () => {
    const mentioned = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["is", "mentioned"]] })).success();
    expect(idsOf(mentioned)).toEqual([ids.v3]);
    await s.users.othello.client.post("/messages/flags", { messages: [ids.v1], op: "add", flag: "starred" });
    expect(idsOf((await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["is", "starred"]] })).success())).toEqual([ids.v1]);
    await s.users.othello.client.post("/messages/flags", { messages: [ids.v2], op: "add", flag: "read" });
    const unread = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["is", "unread"]] })).success();
    expect(idsOf(unread)).toContain(ids.v1);
    expect(idsOf(unread)).not.toContain(ids.v2);
    expect(idsOf((await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["has", "link"]] })).success())).toEqual([ids.v2]);
    expect(idsOf((await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "id", operand: ids.v3 }] })).success())).toEqual([ids.v3]);
  });

  test("with: resolves to the conversation holding the message", async () => {
    const r = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "with", operand: ids.v1 }] })).success();
    expect(idsOf(r)).toEqual([ids.v1, ids.v2]);
  });

  test("unknown operators, operands, channels and users are BAD_NARROW", async () => {
    (await get("othello", { anchor: "newest", num_before: 1, num_after: 0, narrow: [["color", "red"]] })).error("Invalid narrow operator: unknown operator color", "BAD_NARROW");
    (await get("othello", { anchor: "newest", num_before: 1, num_after: 0, narrow: [["stream", "Atlantis"]] })).error("Invalid narrow operator: unknown channel Atlantis", "BAD_NARROW");
    (await get("othello", { anchor: "newest", num_before: 1, num_after: 0, narrow: [["sender", "ghost@zulip.com"]] })).error("Invalid narrow operator: unknown user ghost@zulip.com", "BAD_NARROW");
    (await get("othello", { anchor: "newest", num_before: 1, num_after: 0, narrow: [["is", "sparkly"]] })).error("Invalid narrow operator: unknown 'is' operand sparkly", "BAD_NARROW");
    (await get("othello", { anchor: "newest", num_before: 1, num_after: 0, narrow: [["x"]] })).error("Invalid narrow: element is not a string pair");
    (await get("othello", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operand: "x" }] })).error('elem["operator"] key is missing from elem');
  });
});

describe("channel history access", () => {
  test("a channel narrow shows a public channel's history to non-subscribers, as read historical messages", async () => {
    const r = (await get("cordelia", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["stream", "Verona"]] })).success();
    expect(idsOf(r)).toEqual([ids.v1, ids.v2, ids.v3, ids.v4]);
    expect(r.messages[0].flags).toEqual(["read", "historical"]);
    const feed = (await get("cordelia", { anchor: "newest", num_before: 10, num_after: 0 })).success();
    expect(idsOf(feed)).toEqual([ids.dm2]);
  });

  test("guests and non-members do not see history they may not read", async () => {
    expect(idsOf((await get("polonius", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["stream", "Verona"]] })).success())).toEqual([]);
    expect(idsOf((await get("hamlet", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["stream", "Secret"]] })).success())).toEqual([]);
  });

  test("joining a channel with protected history shows only messages after joining", async () => {
    await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Secret" }], principals: [s.users.hamlet.id] });
    const later = await sendStream(s, "othello", "Secret", "plans", "after you joined");
    const r = (await get("hamlet", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["stream", "Secret"]] })).success();
    expect(idsOf(r)).toEqual([later]);
  });
});

describe("search", () => {
  test("full-text search matches content and topic, with highlights", async () => {
    const r = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "search", operand: "light" }] })).success();
    expect(idsOf(r)).toEqual([ids.v1, ids.secret, ids.v4]);
    expect(r.messages[0].match_content).toBe('<p>But soft, what <span class="highlight">light</span></p>');
    expect(r.messages[0].match_subject).toBe("balcony");
    const topic = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["search", "sword"]] })).success();
    expect(idsOf(topic)).toEqual([ids.v3]);
    expect(topic.messages[0].match_subject).toBe('<span class="highlight">sword</span>');
    const both = (await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["stream", "Verona"], ["search", "yonder window"]] })).success();
    expect(idsOf(both)).toEqual([ids.v2]);
  });

  test("a non-subscriber searching a public channel finds its history", async () => {
    const r = (await get("cordelia", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["stream", "Verona"], ["search", "rapier"]] })).success();
    expect(idsOf(r)).toEqual([ids.v3]);
  });
});

describe("search index (updated after the send; a search scans what is not indexed yet)", () => {
  const search = (who: "hamlet" | "othello", words: string, more: unknown[] = []) =>
    get(who, { anchor: "newest", num_before: 10, num_after: 0, narrow: [...more, { operator: "search", operand: words }] }).then((r) => idsOf(r.success()));
  /** FTS5's own check that the index matches the messages table exactly (after a search caught it up). */
  const integrityCheck = () => s.app.db.run("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')");

  test("a message searched for right after it is sent is found, also by matches_narrow and flags/narrow", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "zoo", "a quokka eating marmalade");
    expect(await search("othello", "quokka")).toEqual([id]);
    const dm = await sendDm(s, "hamlet", ["othello"], "wombat at the door");
    const m = (await s.users.othello.client.get("/messages/matches_narrow", { msg_ids: [dm], narrow: [{ operator: "search", operand: "wombat" }] })).success();
    expect(Object.keys(m.messages).map(Number)).toEqual([dm]);
    const dm2 = await sendDm(s, "hamlet", ["othello"], "numbat in the garden");
    const f = (await s.users.othello.client.post("/messages/flags/narrow", { anchor: "oldest", num_before: 0, num_after: 10, narrow: [{ operator: "search", operand: "numbat" }], op: "add", flag: "starred" })).success();
    expect([f.processed_count, f.updated_count, f.first_processed_id]).toEqual([1, 1, dm2]);
    // a negated search sees the new message too (pending rows are scanned, indexed ones read from the index)
    const neg = await get("othello", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "dm", operand: [s.users.hamlet.id] }, { operator: "search", operand: "numbat", negated: true }] });
    expect(idsOf(neg.success())).not.toContain(dm2);
    // the background pass indexes it a moment later
    await searchIndexCaughtUp(s.app);
    const indexed = await s.app.db.get<{ last_id: number }>("SELECT last_id FROM messages_fts_indexed");
    expect(indexed!.last_id).toBeGreaterThanOrEqual(dm2);
  });

  test("an edited message is found by its new words and no longer by its old ones, indexed or not yet", async () => {
    // edited before any search: the row may not be indexed yet
    const fresh = await sendStream(s, "hamlet", "Verona", "kitchen", "a saucepan of porridge");
    (await s.users.hamlet.client.patch(`/messages/${fresh}`, { content: "a kettle of porridge", topic: "scullery", send_notification_to_old_thread: false, send_notification_to_new_thread: false })).success();
    expect(await search("othello", "saucepan")).toEqual([]);
    expect(await search("othello", "kettle")).toEqual([fresh]);
    expect(await search("othello", "kitchen")).toEqual([]);
    expect(await search("othello", "scullery")).toEqual([fresh]);
    // edited after a search indexed it
    (await s.users.hamlet.client.patch(`/messages/${fresh}`, { content: "a teapot of porridge" })).success();
    expect(await search("othello", "kettle")).toEqual([]);
    expect(await search("othello", "teapot")).toEqual([fresh]);
    const m = (await s.users.othello.client.get("/messages/matches_narrow", { msg_ids: [fresh], narrow: [{ operator: "search", operand: "teapot" }] })).success();
    expect(m.messages[fresh].match_content).toBe('<p>a <span class="highlight">teapot</span> of porridge</p>');
    await integrityCheck();
  });

  test("a deleted message is gone from search results, indexed or not yet", async () => {
    const early = await sendStream(s, "hamlet", "Verona", "attic", "a dusty harpsichord");
    (await s.users.iago.client.delete(`/messages/${early}`)).success();
    const late = await sendStream(s, "hamlet", "Verona", "attic", "another harpsichord");
    expect(await search("othello", "harpsichord")).toEqual([late]);
    (await s.users.iago.client.delete(`/messages/${late}`)).success();
    expect(await search("othello", "harpsichord")).toEqual([]);
    expect(await s.app.db.all("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'harpsichord'")).toEqual([]);
    await integrityCheck();
  });

  test("a restart indexes the backlog an earlier process left unindexed", async () => {
    const r = await startServer();
    await createChannel(r, "iago", "Elsinore", { subscribers: ["hamlet"] });
    await sendStream(r, "hamlet", "Elsinore", "ghost", "the undiscovered country");
    // closing catches the index up, so a clean restart has nothing to do
    await closeApp(r.app);
    const db = await openDb(r.app.config.storage.database);
    const state = async () => (await db.get<{ newest: number; indexed: number }>("SELECT (SELECT max(id) FROM messages) AS newest, (SELECT last_id FROM messages_fts_indexed) AS indexed"))!;
    expect((await state()).indexed).toBe((await state()).newest);
    // a process that died before indexing: rows in messages, none in the index
    const cols = "realm_id, sender_id, recipient_id, stream_id, dm_key, topic, content, rendered_content, date_sent";
    const sql = `INSERT INTO messages (${cols}) SELECT realm_id, sender_id, recipient_id, stream_id, dm_key, topic, ?, ?, date_sent FROM messages WHERE content = 'the undiscovered country'`;
    const lost = [(await db.run(sql, ["alas poor yorick", "<p>alas poor yorick</p>"])).lastId, (await db.run(sql, ["yorick again", "<p>yorick again</p>"])).lastId];
    expect((await state()).indexed).toBeLessThan(lost[0]!);
    db.close();

    const app = await openApp(r.app.config, { quiet: true, clock: r.clock });
    try {
      const hamlet = new Client(createServer(app), { email: r.users.hamlet.email, apiKey: r.users.hamlet.apiKey });
      // the first send after start-up indexes the backlog in the background, no search needed
      const next = (await hamlet.post("/messages", { type: "stream", to: "Elsinore", topic: "ghost", content: "to be or not" })).success().id;
      for (let i = 0; i < 50 && (await app.db.get<{ last_id: number }>("SELECT last_id FROM messages_fts_indexed"))!.last_id < next; i++) await Bun.sleep(20);
      expect(await app.db.get("SELECT last_id FROM messages_fts_indexed")).toEqual({ last_id: next });
      expect((await app.db.all<{ rowid: number }>("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'yorick' ORDER BY rowid")).map((x) => x.rowid)).toEqual(lost);
      const found = (await hamlet.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "channel", operand: "Elsinore" }, { operator: "search", operand: "yorick" }] })).success();
      expect(idsOf(found)).toEqual(lost);
    } finally {
      await closeApp(app);
      await r.close();
    }
  });
});

describe("GET /messages/{id} and matches_narrow", () => {
  test("a single message with raw_content, for recipients and readers of public history", async () => {
    const r = (await s.users.othello.client.get(`/messages/${ids.v3}`)).success();
    expect(r.raw_content).toBe("A rapier @**Othello, the Moor of Venice**");
    expect(r.message).toMatchObject({ id: ids.v3, flags: ["mentioned"], content_type: "text/html" });
    const md = (await s.users.othello.client.get(`/messages/${ids.v3}`, { apply_markdown: false })).success();
    expect(md.message.content).toBe(r.raw_content);
    const historical = (await s.users.cordelia.client.get(`/messages/${ids.v1}`)).success();
    expect(historical.message.flags).toEqual(["read", "historical"]);
  });

  test("messages one may not read are 'Invalid message(s)'", async () => {
    (await s.users.cordelia.client.get(`/messages/${ids.dm1}`)).error("Invalid message(s)");
    (await s.users.cordelia.client.get(`/messages/${ids.secret}`)).error("Invalid message(s)");
    (await s.users.cordelia.client.get("/messages/99999")).error("Invalid message(s)");
    (await s.users.cordelia.client.get("/messages/abc")).error("Invalid message_id");
  });

  test("matches_narrow answers which of the user's messages match, with highlights", async () => {
    const r = (await s.users.othello.client.get("/messages/matches_narrow", { msg_ids: [ids.v1, ids.v2, ids.v3], narrow: [{ operator: "search", operand: "light" }] })).success();
    expect(Object.keys(r.messages).map(Number)).toEqual([ids.v1]);
    expect(r.messages[ids.v1]).toEqual({ match_content: '<p>But soft, what <span class="highlight">light</span></p>', match_subject: "balcony" });
  });
});
