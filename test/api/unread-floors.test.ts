/**
 * Unread floors (migrations 0002, 0003): a user's unread messages are the unread rows of their tail
 * plus the unread rows inside their ranges below the floor. Raising a floor must change nothing a
 * client sees, and every way a row turns read or unread, or appears for an old message, must leave
 * every unread row below the floor inside a range.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel, subscribeTo } from "../helpers/channels";
import { flagsOf, sendDm, sendStream } from "../helpers/messages";
import { raiseUnreadFloorsNow, raiseUnreadFloorsWhenQuiet } from "../../src/actions/messages/unread-floors";
import { openDb } from "../../src/store/db";
import { migrate } from "../../src/store/migrate";
import { MIGRATIONS } from "../../src/store/migrations";
import { IN_RANGES, IN_RANGES_WHERE, raiseUnreadFloor } from "../../src/store/unread-floors";
import { insertUserMessages } from "../../src/store/messages";
import { changeFlag } from "../../src/store/user-messages";

let s: TestServer;
let verona: number;
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello"] });
});
afterAll(() => s.close());

const floorOf = async (who: CastName) =>
  (await s.app.db.get<{ message_id: number }>("SELECT message_id FROM unread_floors WHERE user_id = ?", [s.users[who].id]))?.message_id ?? 0;
/** The user's unread rows below their floor, as the ranges find them. */
const listedBelow = async (who: CastName) =>
  (
    await s.app.db.all<{ message_id: number }>(`SELECT um.message_id FROM ${IN_RANGES} WHERE ${IN_RANGES_WHERE} ORDER BY um.message_id`, [s.users[who].id])
  ).map((r) => r.message_id);
const rangesOf = async (who: CastName) => s.app.db.all<{ first_id: number; last_id: number }>("SELECT first_id, last_id FROM unread_ranges WHERE user_id = ? ORDER BY first_id", [s.users[who].id]);
const unreadFromRegister = async (who: CastName) => {
  const u = (await s.users[who].client.post("/register", { event_types: ["message", "update_message_flags"] })).success().unread_msgs;
  return {
    count: u.count,
    streams: u.streams.flatMap((x: any) => x.unread_message_ids).sort((a: number, b: number) => a - b),
    dms: u.pms.flatMap((x: any) => x.unread_message_ids).sort((a: number, b: number) => a - b),
    mentions: u.mentions,
  };
};
const fetchIds = async (who: CastName, params: Record<string, unknown>) =>
  (await s.users[who].client.get("/messages", params as any)).success().messages.map((m: any) => m.id);
/** What a client sees of the user's unread messages: register, the first_unread anchor, is:unread. */
const seen = async (who: CastName) => ({
  register: await unreadFromRegister(who),
  firstUnread: (await s.users[who].client.get("/messages", { anchor: "first_unread", num_before: 0, num_after: 0 } as any)).success().anchor,
  isUnread: await fetchIds(who, { anchor: "newest", num_before: 50, num_after: 0, narrow: JSON.stringify([{ operator: "is", operand: "unread" }]) }),
  notUnread: await fetchIds(who, { anchor: "newest", num_before: 50, num_after: 0, narrow: JSON.stringify([{ operator: "is", operand: "unread", negated: true }]) }),
  unreadInTopic: await fetchIds(who, {
    anchor: "newest",
    num_before: 50,
    num_after: 0,
    narrow: JSON.stringify([{ operator: "channel", operand: verona }, { operator: "topic", operand: "floors" }, { operator: "is", operand: "unread" }]),
  }),
});

describe("raising a user's unread floor", () => {
  test("changes nothing a client sees, and lists exactly the unread rows it passes", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await sendStream(s, "othello", "Verona", "floors", i === 2 ? "hi @**King Hamlet**" : `m${i}`));
    ids.push(await sendDm(s, "othello", ["hamlet"], "psst"));
    (await s.users.hamlet.client.post("/messages/flags", { messages: [ids[0], ids[3]], op: "add", flag: "read" } as any)).success();
    const before = await seen("hamlet");
    expect(before.register.streams.filter((id: number) => ids.includes(id))).toEqual([ids[1], ids[2], ids[4], ids[5]]);
    expect(before.register.mentions).toEqual([ids[2]]);

    await raiseUnreadFloorsNow(s.app, [s.users.hamlet.id]);
    expect(await floorOf("hamlet")).toBe(ids[6]! + 1);
    const unread = [ids[1], ids[2], ids[4], ids[5], ids[6]];
    expect((await listedBelow("hamlet")).filter((id) => ids.includes(id))).toEqual(unread as number[]);
    expect(await seen("hamlet")).toEqual(before);
    // othello's floor did not move: all his rows are still his tail
    expect(await floorOf("othello")).toBe(0);
  });

  test("reads and unreads on both sides of the floor keep register, first_unread and is:unread right", async () => {
    const old = [await sendStream(s, "othello", "Verona", "floors", "o1"), await sendStream(s, "othello", "Verona", "floors", "o2")];
    await raiseUnreadFloorsNow(s.app, [s.users.hamlet.id]);
    const fresh = [await sendStream(s, "othello", "Verona", "floors", "n1"), await sendStream(s, "othello", "Verona", "floors", "n2")];
    expect(old[1]!).toBeLessThan(await floorOf("hamlet"));
    expect(fresh[0]!).toBeGreaterThanOrEqual(await floorOf("hamlet"));

    // read one below the floor and one in the tail: the list loses only the one below
    (await s.users.hamlet.client.post("/messages/flags", { messages: [old[0], fresh[0]], op: "add", flag: "read" } as any)).success();
    let listed = await listedBelow("hamlet");
    expect(listed).not.toContain(old[0]);
    expect(listed).toContain(old[1]);
    expect(listed).not.toContain(fresh[0]);
    let v = await seen("hamlet");
    expect(v.register.streams).not.toContain(old[0]);
    expect(v.register.streams).toContain(old[1]);
    expect(v.register.streams).toContain(fresh[1]);
    expect(v.isUnread).toContain(old[1]);
    expect(v.notUnread).toContain(old[0]);
    expect(v.notUnread).toContain(fresh[0]);

    // the range that held both was tightened around the unread rows left: old[1] is in one, old[0] in none
    const covered = async (id: number) => (await rangesOf("hamlet")).some((r) => r.first_id <= id && r.last_id >= id);
    expect(await covered(old[1]!)).toBe(true);
    expect(await covered(old[0]!)).toBe(false);
    // unread again: a range of its own
    (await s.users.hamlet.client.post("/messages/flags", { messages: [old[0]], op: "remove", flag: "read" } as any)).success();
    expect(await listedBelow("hamlet")).toContain(old[0]);
    expect(await rangesOf("hamlet")).toContainEqual({ first_id: old[0]!, last_id: old[0]! });
    // everything read: no range is left to scan
    (await s.users.hamlet.client.post("/mark_all_as_read", {} as any)).success();
    expect(await listedBelow("hamlet")).toEqual([]);
    expect(await rangesOf("hamlet")).toEqual([]);
    expect((await unreadFromRegister("hamlet")).count).toBe(0);
    // unread again with no range left: a range of its own, and the first unread of the topic
    (await s.users.hamlet.client.post("/messages/flags", { messages: [old[0]], op: "remove", flag: "read" } as any)).success();
    expect(await rangesOf("hamlet")).toEqual([{ first_id: old[0]!, last_id: old[0]! }]);
    v = await seen("hamlet");
    expect(v.firstUnread).toBe(old[0]);
    expect(v.register.streams).toEqual([old[0]]);
    expect(v.unreadInTopic).toEqual([old[0]]);

    // a topic read and a channel read clear both parts
    const tail = await sendStream(s, "othello", "Verona", "floors", "n3");
    const r = (await s.users.hamlet.client.post("/mark_topic_as_read", { stream_id: verona, topic_name: "floors" } as any)).success();
    expect(r.result).toBe("success");
    expect(await flagsOf(s, "hamlet", old[0]!)).toBe(1);
    expect(await flagsOf(s, "hamlet", tail)).toBe(1);
    expect(await listedBelow("hamlet")).toEqual([]);
    expect(await rangesOf("hamlet")).toEqual([]);
    expect((await unreadFromRegister("hamlet")).count).toBe(0);
  });

  test("an old message first marked unread after the floor passed it (no row yet) is listed", async () => {
    const old = await sendStream(s, "othello", "Verona", "history", "before cordelia joined");
    await subscribeTo(s, "cordelia", "Verona");
    await sendDm(s, "othello", ["cordelia"], "welcome");
    await raiseUnreadFloorsNow(s.app, [s.users.cordelia.id]);
    expect(await flagsOf(s, "cordelia", old)).toBeUndefined();
    expect(old).toBeLessThan(await floorOf("cordelia"));
    (await s.users.cordelia.client.post("/messages/flags", { messages: [old], op: "remove", flag: "read" } as any)).success();
    expect(await flagsOf(s, "cordelia", old)).toBe(128); // historical, unread
    expect(await listedBelow("cordelia")).toContain(old);
    expect((await unreadFromRegister("cordelia")).streams).toContain(old);
    // a deleted message leaves the list with its rows
    (await s.users.iago.client.delete(`/messages/${old}`)).success();
    expect(await listedBelow("cordelia")).not.toContain(old);
  });

  test("the timer loop's step waits for a quiet second, then raises everyone who received rows", async () => {
    const m = await sendStream(s, "othello", "Verona", "quiet", "shh");
    const floor = await floorOf("othello");
    await raiseUnreadFloorsWhenQuiet(s.app);
    expect(await floorOf("othello")).toBe(floor); // a send just now: not quiet yet
    await Bun.sleep(1050);
    await raiseUnreadFloorsWhenQuiet(s.app);
    expect(await floorOf("othello")).toBe(m + 1);
    expect(await floorOf("hamlet")).toBe(m + 1);
    expect(await listedBelow("hamlet")).toContain(m);
    // what othello left unread, his own messages from this API client among them (Zulip's read_by_sender)
    const othellosUnread = await s.app.db.all<{ message_id: number }>("SELECT message_id FROM user_messages WHERE user_id = ? AND (flags & 1) = 0 ORDER BY message_id", [s.users.othello.id]);
    expect(await listedBelow("othello")).toEqual(othellosUnread.map((r) => r.message_id));
  });
});

test("a raise adds a range per 1,000 rows passed, from the first to the last unread among them", async () => {
  const user = 999_999; // rows straight into the store: user_messages has no foreign keys
  const rows = Array.from({ length: 2500 }, (_, i) => ({ userId: user, messageId: 1_000_000 + i, flags: [10, 900, 1500].includes(i) ? 0 : 1 }));
  await s.app.db.tx((sql) => insertUserMessages(sql, rows, { newMessages: true }));
  expect(await s.app.db.tx((sql) => raiseUnreadFloor(sql, user, 1200))).toBe(1200);
  expect(await s.app.db.tx((sql) => raiseUnreadFloor(sql, user, 5000))).toBe(1300);
  expect(await s.app.db.tx((sql) => raiseUnreadFloor(sql, user, 5000))).toBe(0);
  expect(await s.app.db.all("SELECT first_id, last_id FROM unread_ranges WHERE user_id = ? ORDER BY first_id", [user])).toEqual([
    { first_id: 1_000_010, last_id: 1_000_900 },
    { first_id: 1_001_500, last_id: 1_001_500 },
  ]);
  expect(await s.app.db.get("SELECT message_id FROM unread_floors WHERE user_id = ?", [user])).toEqual({ message_id: 1_002_500 });
  const unread = await s.app.db.all(`SELECT um.message_id FROM ${IN_RANGES} WHERE ${IN_RANGES_WHERE} ORDER BY um.message_id`, [user]);
  expect(unread).toEqual([{ message_id: 1_000_010 }, { message_id: 1_000_900 }, { message_id: 1_001_500 }]);
});

test("marking read tightens the ranges that held the rows: gone when empty, a range per row when few, shrunk when many", async () => {
  const user = 999_998;
  const base = 2_000_000;
  // 1,000 rows, every 10th unread: one range of 100 unread rows over all 1,000
  const rows = Array.from({ length: 1000 }, (_, i) => ({ userId: user, messageId: base + i, flags: i % 10 === 5 ? 0 : 1 }));
  await s.app.db.tx((sql) => insertUserMessages(sql, rows, { newMessages: true }));
  await s.app.db.tx((sql) => raiseUnreadFloor(sql, user, 5000));
  const ranges = () => s.app.db.all<{ first_id: number; last_id: number }>("SELECT first_id, last_id FROM unread_ranges WHERE user_id = ? ORDER BY first_id", [user]);
  expect(await ranges()).toEqual([{ first_id: base + 5, last_id: base + 995 }]);
  const read = (ids: number[]) => s.app.db.tx((sql) => changeFlag(sql, user, ids, 1, true));
  // the first ten and the last ten unread read: shrunk to the unread rows left
  await read([...Array.from({ length: 10 }, (_, i) => base + 5 + 10 * i), ...Array.from({ length: 10 }, (_, i) => base + 995 - 10 * i)]);
  expect(await ranges()).toEqual([{ first_id: base + 105, last_id: base + 895 }]);
  // all but three read: a range per unread row
  const left = [base + 305, base + 505, base + 705];
  await read(Array.from({ length: 80 }, (_, i) => base + 105 + 10 * i).filter((id) => !left.includes(id)));
  expect(await ranges()).toEqual(left.map((id) => ({ first_id: id, last_id: id })));
  // the rest read: nothing left to scan
  await read(left);
  expect(await ranges()).toEqual([]);
});

test("one pass raises long and short tails alike, several users to a transaction", async () => {
  const [long, short] = [999_997, 999_996];
  const base = 3_000_000;
  const rows = [
    ...Array.from({ length: 6_000 }, (_, i) => ({ userId: long, messageId: base + i, flags: i === 5_500 ? 0 : 1 })),
    ...Array.from({ length: 3 }, (_, i) => ({ userId: short, messageId: base + i, flags: 0 })),
  ];
  await s.app.db.tx((sql) => insertUserMessages(sql, rows, { newMessages: true }));
  await raiseUnreadFloorsNow(s.app, [long, short]);
  const floors = await s.app.db.all("SELECT user_id, message_id FROM unread_floors WHERE user_id IN (?, ?) ORDER BY user_id", [short, long]);
  expect(floors).toEqual([
    { user_id: short, message_id: base + 3 },
    { user_id: long, message_id: base + 6_000 },
  ]);
  expect(await s.app.db.all("SELECT user_id, first_id, last_id FROM unread_ranges WHERE user_id IN (?, ?) ORDER BY user_id", [short, long])).toEqual([
    { user_id: short, first_id: base, last_id: base + 2 },
    { user_id: long, first_id: base + 5_500, last_id: base + 5_500 },
  ]);
});

test("migrating a database from before floors puts every row below a floor, each unread one in a range", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-floors-"));
  const db = await openDb(`file:${join(dir, "old.db")}`);
  try {
    await migrate(db, MIGRATIONS.filter((m) => m.version === 1));
    await db.exec("INSERT INTO user_messages (user_id, message_id, flags) VALUES (1, 10, 0), (1, 11, 1), (1, 12, 8), (2, 11, 0)");
    expect(await migrate(db, MIGRATIONS.filter((m) => m.version <= 3))).toEqual([2, 3]);
    expect(await db.all("SELECT user_id, message_id FROM unread_floors ORDER BY user_id")).toEqual([{ user_id: 1, message_id: 13 }, { user_id: 2, message_id: 12 }]);
    expect(await db.all("SELECT user_id, first_id, last_id FROM unread_ranges ORDER BY user_id, first_id")).toEqual([
      { user_id: 1, first_id: 10, last_id: 10 },
      { user_id: 1, first_id: 12, last_id: 12 },
      { user_id: 2, first_id: 11, last_id: 11 },
    ]);
    expect(await db.all("SELECT name FROM sqlite_master WHERE name IN ('user_messages_unread', 'unread_before_floor')")).toEqual([]);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
