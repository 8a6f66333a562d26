import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, CAST, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { setRealmSettings } from "../helpers/people";
import { systemGroup } from "../helpers/invite-fixtures";
import { holdersOf, messageRow, registerQueue, queueEvents, sendDm, sendStream } from "../helpers/messages";
import { pathIdOf, upload } from "../helpers/uploads";

let s: TestServer;
let verona: number;
let matrix: number;
const ALL = Object.keys(CAST) as CastName[];
const ROLES: CastName[] = ["desdemona", "iago", "shiva", "hamlet", "polonius"];
const NO = "You don't have permission to delete this message";
const TOO_LATE = "The time limit for deleting this message has passed";

beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello"] });
  // Everyone, the guest included, may post here.
  matrix = await createChannel(s, "iago", "Matrix", { subscribers: ["desdemona", "shiva", "hamlet", "othello", "cordelia", "polonius"] });
});
afterAll(() => s.close());

const del = (who: CastName, id: number) => s.users[who].client.delete(`/messages/${id}`);
const recipients = (ev: Awaited<ReturnType<TestServer["captureEvents"]>>) => ALL.filter((n) => ev.of(n).length > 0).sort();
const group = (name: string) => systemGroup(s, name);

/** Sends a message as `sender` to Matrix and has `actor` delete it: "ok", or the error message. */
async function attempt(actor: CastName, sender: CastName, channel = "Matrix"): Promise<string> {
  const id = await sendStream(s, sender, channel, "matrix", `from ${sender}`);
  const r = await del(actor, id);
  if (r.json.result === "success") {
    expect(await messageRow(s, id)).toBeUndefined();
    return "ok";
  }
  expect(r.status).toBe(400);
  expect(r.json.code).toBe("BAD_REQUEST");
  expect(await messageRow(s, id)).toBeDefined();
  return r.json.msg;
}

/** What each role gets deleting their own message and Othello's. */
async function matrixOf(channel = "Matrix") {
  const out: Record<string, [string, string]> = {};
  for (const actor of ROLES) out[actor] = [await attempt(actor, actor, channel), await attempt(actor, "othello", channel)];
  return out;
}

/** Runs `fn` with organization settings changed, then restores the defaults. */
async function withRealm(changes: Record<string, unknown>, fn: () => Promise<void>) {
  await setRealmSettings(s, changes);
  try {
    await fn();
  } finally {
    await setRealmSettings(s, {
      can_delete_any_message_group: group("role:administrators"),
      can_delete_own_message_group: group("role:everyone"),
      message_content_delete_limit_seconds: null,
    });
  }
}

async function setChannel(id: number, changes: Record<string, number>) {
  const params = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, { new: v }]));
  (await s.users.iago.client.patch(`/streams/${id}`, params)).success();
}

describe("DELETE /messages/{message_id}: who may delete", () => {
  test("by default everyone deletes their own messages, and administrators anyone's", async () => {
    expect(await matrixOf()).toEqual({
      desdemona: ["ok", "ok"],
      iago: ["ok", "ok"],
      shiva: ["ok", NO],
      hamlet: ["ok", NO],
      polonius: ["ok", NO],
    });
  });

  test("the organization's can_delete_any_message_group and can_delete_own_message_group", async () => {
    await withRealm({ can_delete_any_message_group: group("role:moderators") }, async () => {
      expect(await matrixOf()).toEqual({ desdemona: ["ok", "ok"], iago: ["ok", "ok"], shiva: ["ok", "ok"], hamlet: ["ok", NO], polonius: ["ok", NO] });
    });
    await withRealm({ can_delete_own_message_group: group("role:members") }, async () => {
      expect(await matrixOf()).toEqual({ desdemona: ["ok", "ok"], iago: ["ok", "ok"], shiva: ["ok", NO], hamlet: ["ok", NO], polonius: [NO, NO] });
    });
    await withRealm({ can_delete_own_message_group: group("role:nobody"), can_delete_any_message_group: group("role:owners") }, async () => {
      expect(await matrixOf()).toEqual({ desdemona: ["ok", "ok"], iago: [NO, NO], shiva: [NO, NO], hamlet: [NO, NO], polonius: [NO, NO] });
    });
  });

  test("message_content_delete_limit_seconds limits deleting one's own messages, not deleting anyone's", async () => {
    await withRealm({ message_content_delete_limit_seconds: 60 }, async () => {
      const ids: Record<string, number> = {};
      for (const who of ["iago", "hamlet", "othello", "polonius"] as const) ids[who] = await sendStream(s, who, "Matrix", "aging", `old ${who}`);
      s.clock.advance(59_000);
      (await del("polonius", ids.polonius!)).success();
      s.clock.advance(2_000);
      (await del("hamlet", ids.hamlet!)).error(TOO_LATE, "BAD_REQUEST", 400);
      // Administrators delete anything at any time.
      (await del("iago", ids.iago!)).success();
      (await del("iago", ids.othello!)).success();
      expect(await messageRow(s, ids.hamlet!)).toBeDefined();
    });
  });

  test("a channel's can_delete_any_message_group lets its members delete anyone's messages there", async () => {
    const room = await createChannel(s, "iago", "Moderated", { subscribers: ["shiva", "hamlet", "othello", "polonius"] });
    await setChannel(room, { can_delete_any_message_group: group("role:moderators") });
    expect(await matrixOf("Moderated")).toEqual({ desdemona: ["ok", "ok"], iago: ["ok", "ok"], shiva: ["ok", "ok"], hamlet: ["ok", NO], polonius: ["ok", NO] });
    // Not in other channels, and not past the own-message time limit for others.
    expect(await attempt("shiva", "othello")).toBe(NO);
    await setChannel(room, { can_delete_any_message_group: group("role:everyone") });
    await withRealm({ message_content_delete_limit_seconds: 60 }, async () => {
      const old = await sendStream(s, "othello", "Moderated", "aging", "old");
      s.clock.advance(120_000);
      (await del("hamlet", old)).success();
      // The guest is in role:everyone too.
      expect(await attempt("polonius", "othello", "Moderated")).toBe("ok");
    });
  });

  test("a channel's can_delete_own_message_group grants deleting one's own there when the organization does not", async () => {
    const room = await createChannel(s, "iago", "Own room", { subscribers: ["shiva", "hamlet", "othello", "polonius"] });
    await setChannel(room, { can_delete_own_message_group: group("role:members") });
    await withRealm({ can_delete_own_message_group: group("role:nobody") }, async () => {
      expect(await matrixOf("Own room")).toEqual({ desdemona: ["ok", "ok"], iago: ["ok", "ok"], shiva: ["ok", NO], hamlet: ["ok", NO], polonius: [NO, NO] });
      expect(await attempt("hamlet", "hamlet")).toBe(NO);
      // The organization's time limit still applies to it.
      await setRealmSettings(s, { message_content_delete_limit_seconds: 60 });
      const old = await sendStream(s, "hamlet", "Own room", "aging", "old");
      s.clock.advance(61_000);
      (await del("hamlet", old)).error(TOO_LATE);
    });
  });

  test("the channel's groups need content access: a non-subscriber of a private channel cannot read, so cannot delete", async () => {
    await createChannel(s, "iago", "Locked", { invite_only: true, subscribers: ["hamlet"], extra: { can_delete_any_message_group: group("role:members") } });
    const id = await sendStream(s, "hamlet", "Locked", "t", "private");
    (await del("cordelia", id)).error("Invalid message(s)", "BAD_REQUEST", 400);
    // Administrators may delete in private channels they are subscribed to (or whose messages they received).
    (await del("iago", id)).success();
  });

  test("direct messages: the sender deletes their own, the recipient cannot (unless an administrator), others cannot see it", async () => {
    const dm = await sendDm(s, "hamlet", ["othello"], "private");
    (await del("othello", dm)).error(NO, "BAD_REQUEST", 400);
    (await del("cordelia", dm)).error("Invalid message(s)", "BAD_REQUEST", 400);
    (await del("iago", dm)).error("Invalid message(s)", "BAD_REQUEST", 400);
    (await del("desdemona", dm)).error("Invalid message(s)", "BAD_REQUEST", 400);
    const ev = await s.captureEvents(async () => {
      (await del("hamlet", dm)).success();
    });
    expect(recipients(ev)).toEqual(["hamlet", "othello"]);
    expect(ev.of("othello")).toEqual([{ type: "delete_message", message_type: "private", message_ids: [dm] }]);
    const toAdmin = await sendDm(s, "hamlet", ["iago"], "to an admin");
    (await del("iago", toAdmin)).success();
    // Without can_delete_own_message_group there is no channel setting to fall back on.
    await withRealm({ can_delete_own_message_group: group("role:nobody") }, async () => {
      const mine = await sendDm(s, "hamlet", ["othello"], "stuck");
      (await del("hamlet", mine)).error(NO);
    });
  });

  test("a bot's owner may delete the bot's messages as their own", async () => {
    const bot = (await s.users.hamlet.client.post("/bots", { full_name: "Hamlet's Bot", short_name: "hamlet-del" })).success();
    const botEmail = (await s.app.db.get<{ email: string }>("SELECT email FROM users WHERE id = ?", [bot.user_id]))!.email;
    const botClient = s.clientFor(botEmail, bot.api_key);
    const say = async () => (await botClient.post("/messages", { type: "stream", to: "Matrix", topic: "bot", content: "beep" })).success().id as number;
    const a = await say();
    (await del("othello", a)).error(NO);
    (await del("hamlet", a)).success();
    expect(await messageRow(s, a)).toBeUndefined();
    await withRealm({ message_content_delete_limit_seconds: 60 }, async () => {
      const b = await say();
      s.clock.advance(61_000);
      (await del("hamlet", b)).error(TOO_LATE);
    });
  });

  test("a missing message, or one in an archived channel, is 'Invalid message(s)'", async () => {
    (await del("hamlet", 999999)).error("Invalid message(s)", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.delete("/messages/abc")).error("Invalid message_id", "BAD_REQUEST", 400);
    const attic = await createChannel(s, "iago", "Attic", { subscribers: ["hamlet"] });
    const id = await sendStream(s, "hamlet", "Attic", "t", "dusty");
    (await s.users.iago.client.delete(`/streams/${attic}`)).success();
    (await del("hamlet", id)).error("Invalid message(s)", "BAD_REQUEST", 400);
    (await del("iago", id)).error("Invalid message(s)", "BAD_REQUEST", 400);
    expect(await messageRow(s, id)).toBeDefined();
  });
});

describe("DELETE /messages/{message_id}: what happens", () => {
  test("the rows go, and delete_message reaches the subscribers, readers who hold it and the deleting user", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "oops", "typo");
    // Cordelia (not subscribed) starred it: she holds a historical row.
    (await s.users.cordelia.client.post("/messages/flags", { messages: [id], op: "add", flag: "starred" })).success();
    (await s.users.hamlet.client.post(`/messages/${id}/reactions`, { emoji_name: "tada" })).success();
    const ev = await s.captureEvents(async () => {
      expect((await del("hamlet", id)).success()).toEqual({ result: "success", msg: "" });
    });
    expect(await messageRow(s, id)).toBeUndefined();
    expect(await holdersOf(s, id)).toEqual([]);
    expect(await s.app.db.all("SELECT * FROM reactions WHERE message_id = ?", [id])).toEqual([]);
    const event = { type: "delete_message", message_type: "stream", message_ids: [id], stream_id: verona, topic: "oops" };
    expect(ev.of("othello")).toEqual([event]);
    expect(recipients(ev)).toEqual(["cordelia", "hamlet", "iago", "othello"]);
    // An administrator who never had the message hears of their own deletion.
    const other = await sendStream(s, "hamlet", "Verona", "oops", "again");
    const byOwner = await s.captureEvents(async () => {
      (await del("desdemona", other)).success();
    });
    expect(recipients(byOwner)).toEqual(["desdemona", "hamlet", "iago", "othello"]);
  });

  test("in private channels only those who may still read the message hear of it", async () => {
    await createChannel(s, "iago", "Shared", { invite_only: true, history_public_to_subscribers: true, subscribers: ["hamlet", "othello", "polonius"] });
    const shared = await sendStream(s, "hamlet", "Shared", "t", "shared history");
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["Shared"], principals: [s.users.othello.id] })).success();
    const ev = await s.captureEvents(async () => {
      (await del("hamlet", shared)).success();
    });
    expect(recipients(ev)).toEqual(["hamlet", "iago", "polonius"]);
    await createChannel(s, "iago", "Protected", { invite_only: true, history_public_to_subscribers: false, subscribers: ["hamlet", "othello"] });
    const protectedId = await sendStream(s, "hamlet", "Protected", "t", "protected history");
    await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Protected" }], principals: [s.users.cordelia.id] });
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["Protected"], principals: [s.users.othello.id] })).success();
    const ev2 = await s.captureEvents(async () => {
      (await del("hamlet", protectedId)).success();
    });
    // Cordelia joined after it was sent (no row), Othello left: neither may read it.
    expect(recipients(ev2)).toEqual(["hamlet", "iago"]);
  });

  test("clients without bulk_message_deletion get message_id", async () => {
    const q = await registerQueue(s, "othello", { event_types: ["delete_message"], client_capabilities: { notification_settings_null: true } });
    const id = await sendDm(s, "hamlet", ["othello"], "secret");
    (await del("hamlet", id)).success();
    expect(await queueEvents(s, "othello", q)).toEqual([{ id: 0, type: "delete_message", message_type: "private", message_id: id }]);
  });

  test("deleting a channel's oldest message moves its first_message_id, with a stream update event", async () => {
    const ch = await createChannel(s, "iago", "Fresh", { subscribers: ["hamlet"] });
    const first = (await s.app.db.get<{ first_message_id: number }>("SELECT first_message_id FROM streams WHERE id = ?", [ch]))!.first_message_id;
    const second = await sendStream(s, "hamlet", "Fresh", "t", "second");
    const ev = await s.captureEvents(async () => {
      (await del("iago", first)).success();
    });
    expect((await s.app.db.get<{ first_message_id: number }>("SELECT first_message_id FROM streams WHERE id = ?", [ch]))!.first_message_id).toBe(second);
    expect(ev.of("hamlet")).toEqual([
      { type: "delete_message", message_type: "stream", message_ids: [first], stream_id: ch, topic: expect.any(String) },
      { type: "stream", op: "update", stream_id: ch, name: "Fresh", property: "first_message_id", value: second },
    ]);
    const last = await s.captureEvents(async () => {
      (await del("hamlet", second)).success();
    });
    expect(last.of("hamlet")[1]).toEqual({ type: "stream", op: "update", stream_id: ch, name: "Fresh", property: "first_message_id", value: null });
    // Deleting a later message leaves it alone.
    const a = await sendStream(s, "hamlet", "Fresh", "t", "a");
    const b = await sendStream(s, "hamlet", "Fresh", "t", "b");
    const later = await s.captureEvents(async () => {
      (await del("hamlet", b)).success();
    });
    expect(later.of("hamlet").map((e) => e.type)).toEqual(["delete_message"]);
    expect((await s.app.db.get<{ first_message_id: number }>("SELECT first_message_id FROM streams WHERE id = ?", [ch]))!.first_message_id).toBe(a);
  });

  test("deleting the last message that links an upload deletes the upload, and tells its owner", async () => {
    const up = await upload(s, "hamlet", "notes.txt", "some notes", "text/plain");
    const url = up.url as string;
    const a = await sendStream(s, "hamlet", "Verona", "files", `see [notes](${url})`);
    const b = await sendStream(s, "hamlet", "Verona", "files", `again [notes](${url})`);
    const path = pathIdOf(url);
    const attachment = async () => s.app.db.get<{ id: number }>("SELECT id FROM attachments WHERE path_id = ?", [path]);
    const { id } = (await attachment())!;
    const first = await s.captureEvents(async () => {
      (await del("hamlet", a)).success();
    });
    expect(await attachment()).toBeDefined();
    expect(first.of("hamlet").find((e) => e.type === "attachment")).toMatchObject({ op: "update", attachment: { id, messages: [{ id: b }] } });
    const second = await s.captureEvents(async () => {
      (await del("iago", b)).success();
    });
    expect(await attachment()).toBeUndefined();
    expect(second.of("hamlet").find((e) => e.type === "attachment")).toMatchObject({ op: "remove", attachment: { id } });
    expect(second.of("iago").some((e) => e.type === "attachment")).toBe(false);
  });
});
