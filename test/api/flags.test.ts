import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, CAST, type CastName, type TestServer } from "../helpers/server";
import { createChannel, subscribeTo } from "../helpers/channels";
import { flagsOf, holdersOf, sendDm, sendStream } from "../helpers/messages";
import { FLAG } from "../../src/domain/flags";
import { emptyTopicName } from "../../src/actions/messages/render";

let s: TestServer;
let verona: number;
let lonely: number;
let secret: number;
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello"] });
  lonely = await createChannel(s, "iago", "Lonely", { subscribers: [] });
  secret = await createChannel(s, "iago", "Secret", { invite_only: true, subscribers: ["othello"] });
});
afterAll(() => s.close());

const flags = (who: CastName, params: Record<string, unknown>) => s.users[who].client.post("/messages/flags", params as any);
const narrowFlags = (who: CastName, params: Record<string, unknown>) => s.users[who].client.post("/messages/flags/narrow", params as any);
const everyoneBut = (name: CastName) => (Object.keys(CAST) as CastName[]).filter((n) => n !== name);
const update = (op: string, flag: string, messages: number[], all = false) => ({ type: "update_message_flags", op, operation: op, flag, messages, all });

/** Asserts that only `who` received events, and returns theirs. */
function onlyFor(ev: Awaited<ReturnType<TestServer["captureEvents"]>>, who: CastName) {
  for (const other of everyoneBut(who)) expect(ev.of(other)).toEqual([]);
  return ev.of(who);
}

describe("POST /messages/flags", () => {
  test("adding and removing starred answers the ids that changed and tells only the user's own queues", async () => {
    const a = await sendStream(s, "othello", "Verona", "t", "a");
    const b = await sendStream(s, "othello", "Verona", "t", "b");
    let r: any;
    const ev = await s.captureEvents(async () => {
      r = (await flags("hamlet", { messages: [a, b], op: "add", flag: "starred" })).success();
    });
    expect(r).toEqual({ result: "success", msg: "", messages: [a, b] });
    expect(await flagsOf(s, "hamlet", a)).toBe(FLAG.starred);
    expect(await flagsOf(s, "hamlet", b)).toBe(FLAG.starred);
    expect(await flagsOf(s, "othello", a)).toBe(0);
    expect(onlyFor(ev, "hamlet")).toEqual([update("add", "starred", [a, b])]);
    // Already starred: nothing changes, and the event says so.
    const again = await s.captureEvents(async () => {
      expect((await flags("hamlet", { messages: [a], op: "add", flag: "starred" })).success().messages).toEqual([]);
    });
    expect(again.of("hamlet")).toEqual([update("add", "starred", [])]);
    const off = await s.captureEvents(async () => {
      expect((await flags("hamlet", { messages: [a, b, a], op: "remove", flag: "starred" })).success().messages).toEqual([a, b]);
    });
    expect(onlyFor(off, "hamlet")).toEqual([update("remove", "starred", [a, b])]);
    expect(await flagsOf(s, "hamlet", a)).toBe(0);
  });

  test("marking read and unread sets the read bit; unread events carry the details clients count unreads with", async () => {
    const a = await sendStream(s, "othello", "Verona", "counting", "a");
    const mention = await sendStream(s, "othello", "Verona", "counting", "hi @**King Hamlet**");
    const dm = await sendDm(s, "othello", ["hamlet"], "psst");
    const group = await sendDm(s, "othello", ["hamlet", "cordelia"], "all of us");
    expect(await flagsOf(s, "hamlet", a)).toBe(0);
    const read = await s.captureEvents(async () => {
      expect((await flags("hamlet", { messages: [a, mention, dm, group], op: "add", flag: "read" })).success()).toEqual({ result: "success", msg: "", messages: [a, mention, dm, group] });
    });
    expect(onlyFor(read, "hamlet")).toEqual([update("add", "read", [a, mention, dm, group])]);
    expect(await flagsOf(s, "hamlet", mention)).toBe(FLAG.read | FLAG.mentioned);
    let r: any;
    const unread = await s.captureEvents(async () => {
      r = (await flags("hamlet", { messages: [a, mention, dm, group], op: "remove", flag: "read" })).success();
    });
    expect(r).toEqual({ result: "success", msg: "", messages: [a, mention, dm, group], ignored_because_not_subscribed_channels: [] });
    expect(onlyFor(unread, "hamlet")).toEqual([
      {
        ...update("remove", "read", [a, mention, dm, group]),
        message_details: {
          [a]: { type: "stream", stream_id: verona, topic: "counting", unmuted_stream_msg: true },
          [mention]: { type: "stream", stream_id: verona, topic: "counting", unmuted_stream_msg: true, mentioned: true },
          [dm]: { type: "private", user_ids: [s.users.othello.id] },
          [group]: { type: "private", user_ids: [s.users.othello.id, s.users.cordelia.id].sort((x, y) => x - y) },
        },
      },
    ]);
    expect(await flagsOf(s, "hamlet", mention)).toBe(FLAG.mentioned);
    expect(await flagsOf(s, "hamlet", dm)).toBe(0);
  });

  test("unread details say when the message's channel is muted", async () => {
    const a = await sendStream(s, "othello", "Verona", "muted", "a");
    await flags("hamlet", { messages: [a], op: "add", flag: "read" });
    (await s.users.hamlet.client.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: verona, property: "is_muted", value: true }] })).success();
    try {
      const ev = await s.captureEvents(async () => {
        (await flags("hamlet", { messages: [a], op: "remove", flag: "read" })).success();
      });
      expect((ev.of("hamlet")[0] as any).message_details).toEqual({ [a]: { type: "stream", stream_id: verona, topic: "muted", unmuted_stream_msg: false } });
    } finally {
      (await s.users.hamlet.client.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: verona, property: "is_muted", value: false }] })).success();
    }
  });

  test("collapsed is set and cleared like starred", async () => {
    const a = await sendStream(s, "othello", "Verona", "long", "a very long message");
    await flags("hamlet", { messages: [a], op: "add", flag: "read" });
    const ev = await s.captureEvents(async () => {
      expect((await flags("hamlet", { messages: [a], op: "add", flag: "collapsed" })).success().messages).toEqual([a]);
    });
    expect(onlyFor(ev, "hamlet")).toEqual([update("add", "collapsed", [a])]);
    expect(await flagsOf(s, "hamlet", a)).toBe(FLAG.read | FLAG.collapsed);
    expect((await flags("hamlet", { messages: [a], op: "remove", flag: "collapsed" })).success()).toEqual({ result: "success", msg: "", messages: [a] });
    expect(await flagsOf(s, "hamlet", a)).toBe(FLAG.read);
  });

  test("only read, starred and collapsed may be changed: the others are Zulip's 'Flag not editable', unknown ones 'Invalid flag'", async () => {
    const a = await sendStream(s, "othello", "Verona", "t", "a");
    const ev = await s.captureEvents(async () => {
      for (const flag of ["mentioned", "wildcard_mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "has_alert_word", "historical"]) {
        for (const op of ["add", "remove"]) (await flags("hamlet", { messages: [a], op, flag })).error(`Flag not editable: '${flag}'`, "BAD_REQUEST", 400);
      }
      (await flags("hamlet", { messages: [a], op: "add", flag: "shiny" })).error("Invalid flag: 'shiny'", "BAD_REQUEST", 400);
      (await flags("hamlet", { messages: [a], op: "add", flag: "is_private" })).error("Invalid flag: 'is_private'", "BAD_REQUEST", 400);
      (await flags("hamlet", { messages: [a], op: "toggle", flag: "read" })).error("Invalid message flag operation: 'toggle'", "BAD_REQUEST", 400);
    });
    expect(ev.types()).toEqual([]);
    expect(await flagsOf(s, "hamlet", a)).toBe(0);
  });

  test("missing and malformed parameters are refused", async () => {
    (await flags("hamlet", { op: "add", flag: "read" })).error("Missing 'messages' argument", "REQUEST_VARIABLE_MISSING", 400);
    (await flags("hamlet", { messages: [1], flag: "read" })).error("Missing 'op' argument", "REQUEST_VARIABLE_MISSING", 400);
    (await flags("hamlet", { messages: [1], op: "add" })).error("Missing 'flag' argument", "REQUEST_VARIABLE_MISSING", 400);
    (await flags("hamlet", { messages: "1,2", op: "add", flag: "read" })).error("messages is not valid JSON", "BAD_REQUEST", 400);
    (await flags("hamlet", { messages: ["x"], op: "add", flag: "read" })).error("messages[0] is not an integer", "BAD_REQUEST", 400);
  });

  test("messages the user cannot read are 'Invalid message(s)' and nothing changes, not even the readable ones", async () => {
    const ok = await sendStream(s, "othello", "Verona", "t", "fine");
    const dm = await sendDm(s, "hamlet", ["othello"], "private");
    const hidden = await sendStream(s, "othello", "Secret", "t", "hidden");
    const ev = await s.captureEvents(async () => {
      for (const target of [dm, hidden, 999999]) {
        (await flags("cordelia", { messages: [ok, target], op: "add", flag: "starred" })).error("Invalid message(s)", "BAD_REQUEST", 400);
        (await flags("cordelia", { messages: [target], op: "remove", flag: "read" })).error("Invalid message(s)", "BAD_REQUEST", 400);
      }
    });
    expect(ev.types()).toEqual([]);
    expect(await flagsOf(s, "cordelia", ok)).toBeUndefined();
    expect(await holdersOf(s, hidden)).toEqual([s.users.iago.id, s.users.othello.id].sort((x, y) => x - y));
    // Marking read changes nothing for messages without a row (they count as read), so Zulip does not object.
    expect((await flags("cordelia", { messages: [dm, hidden, 999999], op: "add", flag: "read" })).success().messages).toEqual([]);
    expect((await flags("cordelia", { messages: [dm], op: "remove", flag: "starred" })).success().messages).toEqual([]);
    expect(await flagsOf(s, "cordelia", dm)).toBeUndefined();
  });

  test("guests and former subscribers of private channels cannot flag what they may no longer read", async () => {
    const pub = await sendStream(s, "othello", "Verona", "guests", "not for guests");
    (await flags("polonius", { messages: [pub], op: "add", flag: "starred" })).error("Invalid message(s)");
    expect(await flagsOf(s, "polonius", pub)).toBeUndefined();
    await createChannel(s, "iago", "Closed", { invite_only: true, history_public_to_subscribers: true, subscribers: ["othello"] });
    const before = await sendStream(s, "iago", "Closed", "t", "before cordelia");
    await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Closed" }], principals: [s.users.cordelia.id] });
    const later = await sendStream(s, "iago", "Closed", "t", "while cordelia is here");
    // A subscriber may star the shared history of the channel.
    expect((await flags("cordelia", { messages: [before], op: "add", flag: "starred" })).success().messages).toEqual([before]);
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["Closed"], principals: [s.users.cordelia.id] })).success();
    // Her rows remain, but a message she never had is out of reach now.
    const after = await sendStream(s, "iago", "Closed", "t", "after cordelia");
    (await flags("cordelia", { messages: [after], op: "add", flag: "starred" })).error("Invalid message(s)");
    expect((await flags("cordelia", { messages: [later], op: "add", flag: "starred" })).success().messages).toEqual([later]);
  });

  test("a public message one never received gets a historical row when a flag differs from a historical message's", async () => {
    const a = await sendStream(s, "othello", "Verona", "history", "history");
    expect(await flagsOf(s, "cordelia", a)).toBeUndefined();
    // Historical messages already count as read: no row, no change.
    expect((await flags("cordelia", { messages: [a], op: "add", flag: "read" })).success().messages).toEqual([]);
    expect(await flagsOf(s, "cordelia", a)).toBeUndefined();
    const ev = await s.captureEvents(async () => {
      expect((await flags("cordelia", { messages: [a], op: "add", flag: "starred" })).success().messages).toEqual([a]);
    });
    expect(onlyFor(ev, "cordelia")).toEqual([update("add", "starred", [a])]);
    expect(await flagsOf(s, "cordelia", a)).toBe(FLAG.read | FLAG.historical | FLAG.starred);
    expect((await flags("cordelia", { messages: [a], op: "remove", flag: "starred" })).success().messages).toEqual([a]);
    expect(await flagsOf(s, "cordelia", a)).toBe(FLAG.read | FLAG.historical);
    // Marking it unread once subscribed: the historical row becomes unread.
    const b = await sendStream(s, "othello", "Verona", "history", "before she joins");
    await subscribeTo(s, "cordelia", "Verona");
    try {
      expect((await flags("cordelia", { messages: [b], op: "remove", flag: "read" })).success()).toEqual({ result: "success", msg: "", messages: [b], ignored_because_not_subscribed_channels: [] });
      expect(await flagsOf(s, "cordelia", b)).toBe(FLAG.historical);
    } finally {
      (await s.users.cordelia.client.delete("/users/me/subscriptions", { subscriptions: ["Verona"] })).success();
    }
  });

  test("marking unread skips channels one is not subscribed to and names them", async () => {
    const inLonely = await sendStream(s, "iago", "Lonely", "t", "x");
    const inVerona = await sendStream(s, "othello", "Verona", "t", "y");
    await flags("iago", { messages: [inLonely, inVerona], op: "add", flag: "read" });
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["Lonely"] })).success();
    const ev = await s.captureEvents(async () => {
      const r = (await flags("iago", { messages: [inLonely, inVerona], op: "remove", flag: "read" })).success();
      expect(r).toEqual({ result: "success", msg: "", messages: [inVerona], ignored_because_not_subscribed_channels: [lonely] });
    });
    expect(onlyFor(ev, "iago")).toEqual([
      { ...update("remove", "read", [inVerona]), message_details: { [inVerona]: { type: "stream", stream_id: verona, topic: "t", unmuted_stream_msg: true } } },
    ]);
    expect(await flagsOf(s, "iago", inLonely)).toBe(FLAG.read);
    expect(await flagsOf(s, "iago", inVerona)).toBe(0);
    // Cordelia never had the message: it is readable history, skipped the same way.
    expect((await flags("cordelia", { messages: [inLonely], op: "remove", flag: "read" })).success()).toMatchObject({ messages: [], ignored_because_not_subscribed_channels: [lonely] });
    expect(await flagsOf(s, "cordelia", inLonely)).toBeUndefined();
    // Other flags still work there.
    expect((await flags("iago", { messages: [inLonely], op: "add", flag: "starred" })).success()).toEqual({ result: "success", msg: "", messages: [inLonely] });
  });
});

describe("POST /messages/flags/narrow", () => {
  test("marks a range of a narrow and reports the processed range", async () => {
    const ch = await createChannel(s, "iago", "Range", { subscribers: ["hamlet"] });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await sendStream(s, "iago", "Range", "r", `m${i}`));
    await flags("hamlet", { messages: [ids[1]], op: "add", flag: "read" });
    let r: any;
    const ev = await s.captureEvents(async () => {
      r = (await narrowFlags("hamlet", { anchor: String(ids[0]), num_before: 0, num_after: 3, narrow: [{ operator: "channel", operand: ch }, { operator: "topic", operand: "r" }], op: "add", flag: "read" })).success();
    });
    expect(r).toEqual({ result: "success", msg: "", processed_count: 4, updated_count: 3, first_processed_id: ids[0], last_processed_id: ids[3], found_oldest: false, found_newest: false });
    expect(onlyFor(ev, "hamlet")).toEqual([update("add", "read", [ids[0]!, ids[2]!, ids[3]!])]);
    expect(await flagsOf(s, "hamlet", ids[3]!)).toBe(FLAG.read);
    expect(await flagsOf(s, "hamlet", ids[4]!)).toBe(0);
    const rest = (await narrowFlags("hamlet", { anchor: "oldest", num_before: 0, num_after: 100, narrow: [["is", "unread"], ["stream", "Range"], ["topic", "r"]], op: "add", flag: "read" })).success();
    expect(rest).toEqual({ result: "success", msg: "", processed_count: 1, updated_count: 1, first_processed_id: ids[4], last_processed_id: ids[4], found_oldest: true, found_newest: true });
    const none = (await narrowFlags("hamlet", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["is", "unread"], ["stream", "Range"], ["topic", "r"]], op: "add", flag: "read" })).success();
    expect(none).toEqual({ result: "success", msg: "", processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null, found_oldest: true, found_newest: true });
  });

  test("anchors: newest backwards, first_unread, and an excluded anchor at an end of the range", async () => {
    await createChannel(s, "iago", "Anchors", { subscribers: ["hamlet"] });
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await sendStream(s, "iago", "Anchors", "a", `m${i}`));
    const narrow = [{ operator: "channel", operand: "Anchors" }, { operator: "topic", operand: "a" }];
    const back = (await narrowFlags("hamlet", { anchor: "newest", num_before: 2, num_after: 0, narrow, op: "add", flag: "starred" })).success();
    expect(back).toMatchObject({ processed_count: 2, updated_count: 2, first_processed_id: ids[2], last_processed_id: ids[3], found_oldest: false, found_newest: true });
    await flags("hamlet", { messages: [ids[0], ids[1]], op: "add", flag: "read" });
    const unread = (await narrowFlags("hamlet", { anchor: "first_unread", num_before: 0, num_after: 1, narrow, op: "add", flag: "collapsed" })).success();
    expect(unread).toMatchObject({ processed_count: 2, first_processed_id: ids[2], last_processed_id: ids[3] });
    const excluded = (await narrowFlags("hamlet", { anchor: String(ids[3]), include_anchor: false, num_before: 5, num_after: 0, narrow, op: "add", flag: "read" })).success();
    expect(excluded).toMatchObject({ processed_count: 3, updated_count: 1, first_processed_id: ids[0], last_processed_id: ids[2], found_oldest: true, found_newest: false });
    expect(await flagsOf(s, "hamlet", ids[3]!)).toBe(FLAG.starred | FLAG.collapsed);
    (await narrowFlags("hamlet", { anchor: String(ids[1]), include_anchor: false, num_before: 1, num_after: 1, narrow, op: "add", flag: "read" })).error(
      "The anchor can only be excluded at an end of the range",
      "BAD_REQUEST",
      400,
    );
  });

  test("refusals: flags, operations, narrows and missing parameters", async () => {
    const base = { anchor: "newest", num_before: 1, num_after: 0, narrow: [], op: "add", flag: "read" };
    (await narrowFlags("hamlet", { ...base, flag: "mentioned" })).error("Flag not editable: 'mentioned'");
    (await narrowFlags("hamlet", { ...base, flag: "nope" })).error("Invalid flag: 'nope'");
    (await narrowFlags("hamlet", { ...base, op: "flip" })).error("Invalid message flag operation: 'flip'");
    (await narrowFlags("hamlet", { ...base, narrow: [["stream", "No such channel"]] })).error("Invalid narrow operator: unknown channel No such channel", "BAD_NARROW", 400);
    (await narrowFlags("hamlet", { ...base, num_before: -1 })).error("num_before is too small");
    const { anchor: _a, ...noAnchor } = base;
    (await narrowFlags("hamlet", noAnchor)).error("Missing 'anchor' argument", "REQUEST_VARIABLE_MISSING");
    const { num_after: _n, ...noAfter } = base;
    (await narrowFlags("hamlet", noAfter)).error("Missing 'num_after' argument", "REQUEST_VARIABLE_MISSING");
  });

  test("a channel narrow covers the channel's history: starring creates historical rows, unread skips unsubscribed channels", async () => {
    const ch = await createChannel(s, "iago", "Archive room", { subscribers: ["othello"] });
    const a = await sendStream(s, "othello", "Archive room", "old", "one");
    const b = await sendStream(s, "othello", "Archive room", "old", "two");
    const narrow = [{ operator: "channel", operand: ch }, { operator: "topic", operand: "old" }];
    const read = (await narrowFlags("cordelia", { anchor: "oldest", num_before: 0, num_after: 10, narrow, op: "add", flag: "read" })).success();
    expect(read).toMatchObject({ processed_count: 2, updated_count: 0, first_processed_id: a, last_processed_id: b });
    expect(await flagsOf(s, "cordelia", a)).toBeUndefined();
    const ev = await s.captureEvents(async () => {
      const r = (await narrowFlags("cordelia", { anchor: "oldest", num_before: 0, num_after: 10, narrow, op: "add", flag: "starred" })).success();
      expect(r).toEqual({ result: "success", msg: "", processed_count: 2, updated_count: 2, first_processed_id: a, last_processed_id: b, found_oldest: true, found_newest: true });
    });
    expect(onlyFor(ev, "cordelia")).toEqual([update("add", "starred", [a, b])]);
    expect(await flagsOf(s, "cordelia", b)).toBe(FLAG.read | FLAG.historical | FLAG.starred);
    const unread = (await narrowFlags("cordelia", { anchor: "oldest", num_before: 0, num_after: 10, narrow, op: "remove", flag: "read" })).success();
    expect(unread).toEqual({
      result: "success",
      msg: "",
      processed_count: 2,
      updated_count: 0,
      first_processed_id: a,
      last_processed_id: b,
      found_oldest: true,
      found_newest: true,
      ignored_because_not_subscribed_channels: [ch],
    });
    expect(await flagsOf(s, "cordelia", b)).toBe(FLAG.read | FLAG.historical | FLAG.starred);
  });
});

describe("mark as read", () => {
  test("mark_topic_as_read marks one topic (any case) and tells only the user", async () => {
    const ch = await createChannel(s, "iago", "Marks", { subscribers: ["othello"] });
    const t1 = await sendStream(s, "iago", "Marks", "one", "x");
    const t1b = await sendStream(s, "iago", "Marks", "ONE", "x again");
    const t2 = await sendStream(s, "iago", "Marks", "two", "y");
    const ev = await s.captureEvents(async () => {
      expect((await s.users.othello.client.post("/mark_topic_as_read", { stream_id: ch, topic_name: "One" })).success()).toEqual({ result: "success", msg: "" });
    });
    expect(onlyFor(ev, "othello")).toEqual([update("add", "read", [t1, t1b])]);
    expect(await flagsOf(s, "othello", t1)).toBe(FLAG.read);
    expect(await flagsOf(s, "othello", t2)).toBe(0);
    expect(await flagsOf(s, "iago", t1)).toBe(0);
  });

  test("mark_topic_as_read: the empty topic by its display name, and refusals", async () => {
    const ch = await createChannel(s, "iago", "General", { subscribers: ["othello"] });
    const general = await sendStream(s, "iago", "General", "", "no topic here");
    const named = await sendStream(s, "iago", "General", "named", "a topic");
    (await s.users.othello.client.post("/mark_topic_as_read", { stream_id: ch, topic_name: emptyTopicName(s.app) })).success();
    expect(await flagsOf(s, "othello", general)).toBe(FLAG.read);
    expect(await flagsOf(s, "othello", named)).toBe(0);
    (await s.users.othello.client.post("/mark_topic_as_read", { stream_id: ch, topic_name: "nothing here" })).error("No such topic 'nothing here'", "BAD_REQUEST", 400);
    (await s.users.othello.client.post("/mark_topic_as_read", { stream_id: 99999, topic_name: "named" })).error("Invalid channel ID", "BAD_REQUEST", 400);
    (await s.users.cordelia.client.post("/mark_topic_as_read", { stream_id: secret, topic_name: "t" })).error("Invalid channel ID", "BAD_REQUEST", 400);
    (await s.users.othello.client.post("/mark_topic_as_read", { stream_id: ch })).error("Missing 'topic_name' argument", "REQUEST_VARIABLE_MISSING");
    expect(await flagsOf(s, "othello", named)).toBe(0);
  });

  test("mark_stream_as_read marks one channel and nothing else", async () => {
    const ch = await createChannel(s, "iago", "Whole", { subscribers: ["othello"] });
    const a = await sendStream(s, "iago", "Whole", "a", "x");
    const b = await sendStream(s, "iago", "Whole", "b", "y");
    const other = await sendStream(s, "hamlet", "Verona", "elsewhere", "z");
    const dm = await sendDm(s, "iago", ["othello"], "dm");
    const ev = await s.captureEvents(async () => {
      expect((await s.users.othello.client.post("/mark_stream_as_read", { stream_id: ch })).success()).toEqual({ result: "success", msg: "" });
    });
    // The channel's creation notice is part of it too.
    const notice = (await s.app.db.get<{ id: number }>("SELECT min(id) AS id FROM messages WHERE stream_id = ?", [ch]))!.id;
    expect(notice).toBeLessThan(a);
    expect(onlyFor(ev, "othello")).toEqual([update("add", "read", [notice, a, b])]);
    expect(await flagsOf(s, "othello", b)).toBe(FLAG.read);
    expect(await flagsOf(s, "othello", other)).toBe(0);
    expect(await flagsOf(s, "othello", dm)).toBe(0);
    (await s.users.othello.client.post("/mark_stream_as_read", { stream_id: 99999 })).error("Invalid channel ID", "BAD_REQUEST", 400);
    (await s.users.cordelia.client.post("/mark_stream_as_read", { stream_id: secret })).error("Invalid channel ID", "BAD_REQUEST", 400);
    (await s.users.othello.client.post("/mark_stream_as_read", {})).error("Missing 'stream_id' argument", "REQUEST_VARIABLE_MISSING");
  });

  test("mark_all_as_read marks every unread message and sends one 'all' event", async () => {
    const a = await sendStream(s, "iago", "Verona", "all", "x");
    const dm = await sendDm(s, "iago", ["othello"], "z");
    const before = (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM user_messages WHERE user_id = ? AND (flags & 1) = 0", [s.users.othello.id]))!.n;
    expect(before).toBeGreaterThan(1);
    const ev = await s.captureEvents(async () => {
      expect((await s.users.othello.client.post("/mark_all_as_read")).success()).toEqual({ result: "success", msg: "", complete: true });
    });
    expect(await flagsOf(s, "othello", dm)).toBe(FLAG.read);
    expect(await flagsOf(s, "othello", a)).toBe(FLAG.read);
    expect((await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM user_messages WHERE user_id = ? AND (flags & 1) = 0", [s.users.othello.id]))!.n).toBe(0);
    expect(await flagsOf(s, "hamlet", a)).toBe(0);
    expect(onlyFor(ev, "othello")).toEqual([update("add", "read", [], true)]);
  });
});
