import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { flagsOf, sendDm, sendStream } from "../helpers/messages";
import { FLAG } from "../../src/domain/flags";

let s: TestServer;
let verona: number;
let lonely: number;
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello"] });
  lonely = await createChannel(s, "iago", "Lonely", { subscribers: [] });
});
afterAll(() => s.close());

const flags = (who: CastName, params: Record<string, unknown>) => s.users[who].client.post("/messages/flags", params as any);

describe("POST /messages/flags", () => {
  test("adding and removing starred answers the ids that changed and sends update_message_flags", async () => {
    const a = await sendStream(s, "othello", "Verona", "t", "a");
    const b = await sendStream(s, "othello", "Verona", "t", "b");
    let r: any;
    const ev = await s.captureEvents(async () => {
      r = (await flags("hamlet", { messages: [a, b], op: "add", flag: "starred" })).success();
    });
    expect(r.messages).toEqual([a, b]);
    expect(await flagsOf(s, "hamlet", a)).toBe(FLAG.starred);
    expect(ev.of("hamlet")).toEqual([{ type: "update_message_flags", op: "add", operation: "add", flag: "starred", messages: [a, b], all: false }]);
    expect(ev.of("othello")).toEqual([]);
    expect((await flags("hamlet", { messages: [a], op: "add", flag: "starred" })).success().messages).toEqual([]);
    expect((await flags("hamlet", { messages: [a], op: "remove", flag: "starred" })).success().messages).toEqual([a]);
    expect(await flagsOf(s, "hamlet", a)).toBe(0);
  });

  test("only read, starred and collapsed may be changed", async () => {
    const a = await sendStream(s, "othello", "Verona", "t", "a");
    for (const flag of ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "has_alert_word", "historical", "wildcard_mentioned"]) {
      (await flags("hamlet", { messages: [a], op: "add", flag })).error(`Flag not editable: '${flag}'`);
    }
    (await flags("hamlet", { messages: [a], op: "add", flag: "shiny" })).error("Invalid flag: 'shiny'");
    (await flags("hamlet", { messages: [a], op: "toggle", flag: "read" })).error("Invalid message flag operation: 'toggle'");
    (await flags("hamlet", { messages: [a], op: "add", flag: "collapsed" })).success();
    expect(await flagsOf(s, "hamlet", a)).toBe(FLAG.collapsed);
  });

  test("starring a public message one never received adds it to one's history as historical", async () => {
    const a = await sendStream(s, "othello", "Verona", "t", "history");
    expect(await flagsOf(s, "cordelia", a)).toBeUndefined();
    expect((await flags("cordelia", { messages: [a], op: "add", flag: "starred" })).success().messages).toEqual([a]);
    expect(await flagsOf(s, "cordelia", a)).toBe(FLAG.read | FLAG.historical | FLAG.starred);
    const dm = await sendDm(s, "hamlet", ["othello"], "private");
    (await flags("cordelia", { messages: [dm], op: "add", flag: "starred" })).error("Invalid message(s)");
  });

  test("marking unread skips channels one is not subscribed to and names them", async () => {
    const inLonely = await sendStream(s, "iago", "Lonely", "t", "x");
    const inVerona = await sendStream(s, "othello", "Verona", "t", "y");
    await flags("cordelia", { messages: [inLonely], op: "add", flag: "starred" });
    await flags("hamlet", { messages: [inVerona], op: "add", flag: "read" });
    await flags("iago", { messages: [inLonely], op: "add", flag: "read" });
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["Lonely"] })).success();
    const ev = await s.captureEvents(async () => {
      const r = (await s.users.iago.client.post("/messages/flags", { messages: [inLonely], op: "remove", flag: "read" })).success();
      expect(r).toMatchObject({ messages: [], ignored_because_not_subscribed_channels: [lonely] });
    });
    expect(ev.of("iago")[0]).toMatchObject({ type: "update_message_flags", op: "remove", flag: "read", messages: [], message_details: {} });
    const ev2 = await s.captureEvents(async () => {
      const r = (await flags("hamlet", { messages: [inVerona], op: "remove", flag: "read" })).success();
      expect(r).toEqual({ result: "success", msg: "", messages: [inVerona], ignored_because_not_subscribed_channels: [] });
    });
    expect(ev2.of("hamlet")[0].message_details).toEqual({ [inVerona]: { type: "stream", stream_id: verona, topic: "t", unmuted_stream_msg: true } });
  });
});

describe("POST /messages/flags/narrow", () => {
  test("marks a range of a narrow and reports the processed range", async () => {
    const ch = await createChannel(s, "iago", "Range", { subscribers: ["hamlet"] });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await sendStream(s, "iago", "Range", "r", `m${i}`));
    await flags("hamlet", { messages: [ids[1]], op: "add", flag: "read" });
    const r = (
      await s.users.hamlet.client.post("/messages/flags/narrow", { anchor: String(ids[0]), num_before: 0, num_after: 3, narrow: [{ operator: "channel", operand: ch }, { operator: "topic", operand: "r" }], op: "add", flag: "read" })
    ).success();
    expect(r).toMatchObject({ processed_count: 4, updated_count: 3, first_processed_id: ids[0], last_processed_id: ids[3], found_oldest: false, found_newest: false });
    expect(await flagsOf(s, "hamlet", ids[3]!)).toBe(FLAG.read);
    expect(await flagsOf(s, "hamlet", ids[4]!)).toBe(0);
    const rest = (await s.users.hamlet.client.post("/messages/flags/narrow", { anchor: "oldest", num_before: 0, num_after: 100, narrow: [["is", "unread"], ["stream", "Range"], ["topic", "r"]], op: "add", flag: "read" })).success();
    expect(rest).toMatchObject({ processed_count: 1, updated_count: 1, first_processed_id: ids[4], last_processed_id: ids[4], found_oldest: true, found_newest: true });
    const none = (await s.users.hamlet.client.post("/messages/flags/narrow", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["is", "unread"], ["stream", "Range"], ["topic", "r"]], op: "add", flag: "read" })).success();
    expect(none).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null, found_newest: true });
  });
});

describe("mark as read", () => {
  test("mark_topic_as_read, mark_stream_as_read and mark_all_as_read", async () => {
    await createChannel(s, "iago", "Marks", { subscribers: ["othello"] });
    const ch = (await s.app.db.get<{ id: number }>("SELECT id FROM streams WHERE name = 'Marks'"))!.id;
    const t1 = await sendStream(s, "iago", "Marks", "one", "x");
    const t2 = await sendStream(s, "iago", "Marks", "two", "y");
    const dm = await sendDm(s, "iago", ["othello"], "z");
    const ev = await s.captureEvents(async () => {
      (await s.users.othello.client.post("/mark_topic_as_read", { stream_id: ch, topic_name: "one" })).success();
    });
    expect(ev.of("othello")).toEqual([{ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: [t1], all: false }]);
    expect(await flagsOf(s, "othello", t2)).toBe(0);
    (await s.users.othello.client.post("/mark_topic_as_read", { stream_id: ch, topic_name: "nothing here" })).error("No such topic 'nothing here'");
    (await s.users.othello.client.post("/mark_stream_as_read", { stream_id: ch })).success();
    expect(await flagsOf(s, "othello", t2)).toBe(FLAG.read);
    expect(await flagsOf(s, "othello", dm)).toBe(0);
    (await s.users.othello.client.post("/mark_stream_as_read", { stream_id: 99999 })).error("Invalid channel ID");
    const all = await s.captureEvents(async () => {
      expect((await s.users.othello.client.post("/mark_all_as_read")).success().complete).toBe(true);
    });
    expect(await flagsOf(s, "othello", dm)).toBe(FLAG.read);
    expect(all.of("othello")).toEqual([{ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: [], all: true }]);
  });
});
