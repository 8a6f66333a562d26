import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { setRealmSettings } from "../helpers/people";
import { systemGroup } from "../helpers/invite-fixtures";
import { flagsOf, holdersOf, messageRow, sendDm, sendStream } from "../helpers/messages";
import { FLAG } from "../../src/domain/flags";

let s: TestServer;
let verona: number;
let elsewhere: number;
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello", "polonius"] });
  elsewhere = await createChannel(s, "iago", "Elsewhere", { subscribers: ["cordelia"] });
});
afterAll(() => s.close());

const patch = (who: "hamlet" | "othello" | "iago" | "polonius" | "cordelia" | "shiva", id: number, params: Record<string, unknown>) => s.users[who].client.patch(`/messages/${id}`, params as any);

describe("editing content", () => {
  test("the sender edits content: stored with history, and recipients get update_message with their new flags", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "edits", "first draft");
    s.clock.advance(5_000);
    const ev = await s.captureEvents(async () => {
      (await patch("hamlet", id, { content: "second draft @**Othello, the Moor of Venice**" })).success();
    });
    const row = await messageRow(s, id);
    expect(row!.content).toBe("second draft @**Othello, the Moor of Venice**");
    expect(row!.last_edit_time).toBeGreaterThan(row!.date_sent);
    const history = JSON.parse(row!.edit_history);
    expect(history).toEqual([{ user_id: s.users.hamlet.id, timestamp: expect.any(Number), prev_content: "first draft", prev_rendered_content: "<p>first draft</p>" }]);
    expect(await flagsOf(s, "othello", id)).toBe(FLAG.mentioned);
    const e = ev.of("othello").find((x) => x.type === "update_message")!;
    expect(e).toMatchObject({
      type: "update_message",
      user_id: s.users.hamlet.id,
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      orig_content: "first draft",
      orig_rendered_content: "<p>first draft</p>",
      content: "second draft @**Othello, the Moor of Venice**",
      is_me_message: false,
      stream_id: verona,
      stream_name: "Verona",
      flags: ["mentioned"],
    });
    expect(ev.of("polonius").find((x) => x.type === "update_message")!.flags).toEqual([]);
    const fetched = (await s.users.othello.client.get(`/messages/${id}`)).success().message;
    expect(fetched.last_edit_timestamp).toBe(Math.floor(row!.last_edit_time));
    expect(fetched.edit_history[0].prev_content).toBe("first draft");
  });

  test("GET /messages/{id}/history lists snapshots oldest first", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "history", "v1");
    (await patch("hamlet", id, { content: "v2" })).success();
    (await patch("hamlet", id, { topic: "history moved" })).success();
    const r = (await s.users.othello.client.get(`/messages/${id}/history`)).success();
    expect(r.message_history.map((h: any) => [h.content, h.topic])).toEqual([
      ["v1", "history"],
      ["v2", "history"],
      ["v2", "history moved"],
    ]);
    expect(r.message_history[1].prev_content).toBe("v1");
    expect(r.message_history[2].prev_topic).toBe("history");
    (await s.users.cordelia.client.get(`/messages/${await sendDm(s, "hamlet", ["othello"], "x")}/history`)).error("Invalid message(s)");
  });

  test("only the sender edits content, within the organization's limit, when editing is allowed", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "limits", "mine");
    (await patch("othello", id, { content: "not yours" })).error("You don't have permission to edit this message");
    await setRealmSettings(s, { allow_message_editing: false });
    (await patch("hamlet", id, { content: "nope" })).error("Your organization has turned off message editing");
    await setRealmSettings(s, { allow_message_editing: true });
    s.clock.advance(621_000);
    (await patch("hamlet", id, { content: "too late" })).error("The time limit for editing this message has passed");
    expect((await messageRow(s, id))!.content).toBe("mine");
  });

  test("bad combinations are refused", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "combos", "x");
    (await patch("hamlet", id, {})).error("Nothing to change");
    (await patch("hamlet", id, { content: "y", propagate_mode: "change_all" })).error("Invalid propagate_mode without topic edit");
    (await patch("hamlet", id, { content: "y", stream_id: elsewhere })).error("Cannot change message content while changing channel");
    (await patch("hamlet", id, { content: "" })).error("Message must not be empty");
    (await patch("hamlet", 99999, { content: "y" })).error("Invalid message(s)");
    const dm = await sendDm(s, "hamlet", ["othello"], "dm");
    (await patch("hamlet", dm, { topic: "x" })).error("Direct messages cannot have topics.");
    (await patch("hamlet", dm, { stream_id: verona })).error("Direct messages cannot be moved to channels.");
  });
});

describe("moving between topics", () => {
  test("change_one, change_later and change_all move the right messages and say so in update_message", async () => {
    const a = await sendStream(s, "hamlet", "Verona", "t1", "a");
    const b = await sendStream(s, "othello", "Verona", "t1", "b");
    const c = await sendStream(s, "hamlet", "Verona", "t1", "c");
    (await patch("othello", a, { topic: "one" })).success();
    expect((await messageRow(s, a))!.topic).toBe("one");
    expect((await messageRow(s, b))!.topic).toBe("t1");
    const ev = await s.captureEvents(async () => {
      (await patch("othello", b, { topic: "later", propagate_mode: "change_later" })).success();
    });
    expect((await messageRow(s, b))!.topic).toBe("later");
    expect((await messageRow(s, c))!.topic).toBe("later");
    expect(ev.of("hamlet").find((e) => e.type === "update_message")).toMatchObject({
      message_id: b,
      message_ids: [b, c],
      propagate_mode: "change_later",
      orig_subject: "t1",
      subject: "later",
      stream_id: verona,
    });
    (await patch("hamlet", c, { topic: "all", propagate_mode: "change_all" })).success();
    expect((await messageRow(s, b))!.topic).toBe("all");
    const moved = (await s.users.othello.client.get(`/messages/${b}`)).success().message;
    expect(moved.last_moved_timestamp).toEqual(expect.any(Number));
    expect(moved.edit_history[0]).toMatchObject({ prev_topic: "later", topic: "all", user_id: s.users.hamlet.id });
  });

  test("moving topics follows can_move_messages_between_topics_group and its time limit", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "perm", "x");
    await setRealmSettings(s, { can_move_messages_between_topics_group: systemGroup(s, "role:moderators") });
    try {
      (await patch("othello", id, { topic: "nope" })).error("You don't have permission to edit this message");
      (await patch("shiva", id, { topic: "moderated" })).success();
    } finally {
      await setRealmSettings(s, { can_move_messages_between_topics_group: systemGroup(s, "role:everyone") });
    }
    s.clock.advance(604_801_000);
    (await patch("othello", id, { topic: "too late" })).error("The time limit for editing this message's topic has passed.");
    (await patch("shiva", id, { topic: "moderators have no limit" })).success();
  });

  test("change_all beyond the time limit is MOVE_MESSAGES_TIME_LIMIT_EXCEEDED with the movable part", async () => {
    const old = await sendStream(s, "hamlet", "Verona", "aging", "old");
    s.clock.advance(604_801_000);
    const fresh = await sendStream(s, "hamlet", "Verona", "aging", "fresh");
    const err = (await patch("othello", fresh, { topic: "aged", propagate_mode: "change_all" })).error(
      "You only have permission to move the 1/2 most recent messages in this topic.",
      "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
      400,
    );
    expect(err).toMatchObject({ first_message_id_allowed_to_move: fresh, total_messages_in_topic: 2, total_messages_allowed_to_move: 1 });
    expect((await messageRow(s, old))!.topic).toBe("aging");
  });

  test("resolving a topic prefixes ✔, notifies the topic as Notification Bot, and is not a move", async () => {
    const a = await sendStream(s, "hamlet", "Verona", "bug", "it broke");
    await sendStream(s, "othello", "Verona", "bug", "fixed");
    const ev = await s.captureEvents(async () => {
      (await patch("othello", a, { topic: "✔ bug", propagate_mode: "change_all" })).success();
    });
    const rows = await s.app.db.all<any>("SELECT * FROM messages WHERE stream_id = ? AND topic = ? ORDER BY id", [verona, "✔ bug"]);
    expect(rows).toHaveLength(3);
    expect(rows[0].last_moved_time).toBeNull();
    const notice = rows[2];
    expect(notice.content).toBe(`@_**Othello, the Moor of Venice|${s.users.othello.id}** has marked this topic as resolved.`);
    const bot = await s.app.db.get<any>("SELECT * FROM users WHERE id = ?", [notice.sender_id]);
    expect(bot).toMatchObject({ full_name: "Notification Bot", is_bot: 1 });
    expect(ev.of("hamlet").filter((e) => e.type === "message").map((e: any) => e.message.subject)).toEqual(["✔ bug"]);
    (await patch("othello", a, { topic: "bug", propagate_mode: "change_all" })).success();
    const last = await s.app.db.get<any>("SELECT content FROM messages WHERE stream_id = ? ORDER BY id DESC LIMIT 1", [verona]);
    expect(last.content).toContain("has marked this topic as unresolved.");
  });

  test("resolving needs can_resolve_topics_group", async () => {
    const a = await sendStream(s, "hamlet", "Verona", "unresolvable", "x");
    await setRealmSettings(s, { can_resolve_topics_group: systemGroup(s, "role:administrators") });
    try {
      (await patch("othello", a, { topic: "✔ unresolvable", propagate_mode: "change_all" })).error("You don't have permission to resolve topics.");
    } finally {
      await setRealmSettings(s, { can_resolve_topics_group: systemGroup(s, "role:everyone") });
    }
  });
});

describe("moving between channels", () => {
  test("moves to another channel: its subscribers get the messages, notices go where asked", async () => {
    const a = await sendStream(s, "hamlet", "Verona", "travel", "going");
    const b = await sendStream(s, "hamlet", "Verona", "travel", "gone");
    const ev = await s.captureEvents(async () => {
      (await patch("hamlet", a, { stream_id: elsewhere, propagate_mode: "change_all", send_notification_to_old_thread: true, send_notification_to_new_thread: false })).success();
    });
    for (const id of [a, b]) expect((await messageRow(s, id))!.stream_id).toBe(elsewhere);
    expect(await holdersOf(s, a)).toContain(s.users.cordelia.id);
    expect(await flagsOf(s, "cordelia", a)).toBe(FLAG.read);
    const update = ev.of("hamlet").find((e) => e.type === "update_message")!;
    expect(update).toMatchObject({ message_ids: [a, b], stream_id: verona, new_stream_id: elsewhere, orig_subject: "travel", propagate_mode: "change_all" });
    expect(update.subject).toBeUndefined();
    const notice = await s.app.db.get<any>("SELECT * FROM messages WHERE stream_id = ? AND topic = 'travel' ORDER BY id DESC LIMIT 1", [verona]);
    expect(notice.content).toBe(`This topic was moved to #**Elsewhere>travel** by @_**King Hamlet|${s.users.hamlet.id}**.`);
  });

  test("moving out needs can_move_messages_between_channels_group, and posting rights in the target", async () => {
    const id = await sendStream(s, "polonius", "Verona", "guest", "x");
    (await patch("polonius", id, { stream_id: elsewhere })).error("You don't have permission to move this message");
    const secret = await createChannel(s, "iago", "Locked", { invite_only: true });
    const mine = await sendStream(s, "hamlet", "Verona", "locked", "x");
    (await patch("hamlet", mine, { stream_id: secret })).error("Invalid channel ID");
    (await patch("hamlet", mine, { stream_id: 99999 })).error("Invalid channel ID");
  });
});
