import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, CAST, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { setRealmSettings } from "../helpers/people";
import { systemGroup } from "../helpers/invite-fixtures";
import { flagsOf, holdersOf, messageRow, sendDm, sendStream } from "../helpers/messages";
import { pathIdOf, upload } from "../helpers/uploads";
import { FLAG } from "../../src/domain/flags";

let s: TestServer;
let verona: number;
let elsewhere: number;
const ALL = Object.keys(CAST) as CastName[];
const NO_EDIT = "You don't have permission to edit this message";
const WEEK_MS = 604_800_000;
/** Zulip's grace period past each edit and move limit. */
const BUFFER_MS = 20_000;

beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello", "polonius"] });
  elsewhere = await createChannel(s, "iago", "Elsewhere", { subscribers: ["cordelia"] });
});
afterAll(() => s.close());

const patch = (who: CastName, id: number, params: Record<string, unknown>) => s.users[who].client.patch(`/messages/${id}`, params as any);
const recipients = (ev: Awaited<ReturnType<TestServer["captureEvents"]>>, type: string) => ALL.filter((n) => ev.of(n).some((e) => e.type === type)).sort();
const updateOf = (ev: Awaited<ReturnType<TestServer["captureEvents"]>>, who: CastName) => ev.of(who).find((e) => e.type === "update_message") as any;
const topicOf = async (id: number) => (await messageRow(s, id))!.topic;
/** The newest message of a channel topic (the Notification Bot's notices). */
const lastIn = (streamId: number, topic: string) => s.app.db.get<any>("SELECT * FROM messages WHERE stream_id = ? AND topic = ? ORDER BY id DESC LIMIT 1", [streamId, topic]);
const notificationBotId = async () => (await s.app.db.get<{ id: number }>("SELECT id FROM users WHERE full_name = 'Notification Bot' AND is_bot = 1"))!.id;
const mention = (who: CastName) => `@_**${CAST[who].fullName}|${s.users[who].id}**`;

async function withRealm(changes: Record<string, unknown>, restore: Record<string, unknown>, fn: () => Promise<void>) {
  await setRealmSettings(s, changes);
  try {
    await fn();
  } finally {
    await setRealmSettings(s, restore);
  }
}

describe("editing content", () => {
  test("the sender edits content: stored with history, and everyone with access gets update_message with their flags", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "edits", "first draft");
    s.clock.advance(5_000);
    let r: any;
    const ev = await s.captureEvents(async () => {
      r = (await patch("hamlet", id, { content: "second draft @**Othello, the Moor of Venice**" })).success();
    });
    expect(r).toEqual({ result: "success", msg: "", detached_uploads: [] });
    const row = await messageRow(s, id);
    expect(row!.content).toBe("second draft @**Othello, the Moor of Venice**");
    expect(row!.rendered_content).toContain('class="user-mention"');
    expect(row!.last_edit_time).toBe(row!.date_sent + 5);
    expect(JSON.parse(row!.edit_history)).toEqual([{ user_id: s.users.hamlet.id, timestamp: Math.floor(row!.last_edit_time), prev_content: "first draft", prev_rendered_content: "<p>first draft</p>" }]);
    expect(await flagsOf(s, "othello", id)).toBe(FLAG.mentioned);
    const e = updateOf(ev, "othello");
    expect(e).toEqual({
      type: "update_message",
      user_id: s.users.hamlet.id,
      edit_timestamp: Math.floor(row!.last_edit_time),
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      stream_id: verona,
      stream_name: "Verona",
      orig_content: "first draft",
      orig_rendered_content: "<p>first draft</p>",
      content: "second draft @**Othello, the Moor of Venice**",
      rendered_content: row!.rendered_content,
      is_me_message: false,
      flags: ["mentioned"],
    });
    expect(updateOf(ev, "polonius").flags).toEqual([]);
    expect(recipients(ev, "update_message")).toEqual(["hamlet", "iago", "othello", "polonius"]);
    const fetched = (await s.users.othello.client.get(`/messages/${id}`)).success().message;
    expect(fetched.last_edit_timestamp).toBe(Math.floor(row!.last_edit_time));
    expect(fetched.edit_history[0].prev_content).toBe("first draft");
    // Editing the mention away clears the flag.
    (await patch("hamlet", id, { content: "third draft" })).success();
    expect(await flagsOf(s, "othello", id)).toBe(0);
  });

  test("subscribers who joined later (no row) get the edit of a public channel's message as read", async () => {
    const id = await sendStream(s, "hamlet", "Elsewhere", "later", "before you came");
    await s.users.shiva.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Elsewhere" }] });
    const ev = await s.captureEvents(async () => {
      (await patch("hamlet", id, { content: "edited" })).success();
    });
    expect(await flagsOf(s, "shiva", id)).toBeUndefined();
    expect(updateOf(ev, "shiva").flags).toEqual(["read"]);
    (await s.users.shiva.client.delete("/users/me/subscriptions", { subscriptions: ["Elsewhere"] })).success();
  });

  test("direct messages: only the participants hear of the edit", async () => {
    const dm = await sendDm(s, "hamlet", ["othello"], "dm v1");
    const ev = await s.captureEvents(async () => {
      (await patch("hamlet", dm, { content: "dm v2" })).success();
    });
    expect(recipients(ev, "update_message")).toEqual(["hamlet", "othello"]);
    const e = updateOf(ev, "othello");
    expect(e).toMatchObject({ message_id: dm, message_ids: [dm], orig_content: "dm v1", content: "dm v2", flags: [] });
    expect(e.stream_id).toBeUndefined();
    expect((await messageRow(s, dm))!.content).toBe("dm v2");
  });

  test("GET /messages/{id}/history lists snapshots oldest first", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "history", "v1");
    (await patch("hamlet", id, { content: "v2" })).success();
    (await patch("hamlet", id, { topic: "history moved" })).success();
    const r = (await s.users.othello.client.get(`/messages/${id}/history`)).success();
    expect(r.message_history.map((h: any) => [h.content, h.topic, h.user_id])).toEqual([
      ["v1", "history", s.users.hamlet.id],
      ["v2", "history", s.users.hamlet.id],
      ["v2", "history moved", s.users.hamlet.id],
    ]);
    expect(r.message_history[1]).toMatchObject({ prev_content: "v1", prev_rendered_content: "<p>v1</p>", rendered_content: "<p>v2</p>" });
    expect(r.message_history[1].content_html_diff).toBe('<div><p><span class="highlight_text_deleted">v1</span><span class="highlight_text_inserted">v2</span></p></div>');
    expect(r.message_history[2].content_html_diff).toBeUndefined(); // a topic move changes no content
    expect(r.message_history[2]).toMatchObject({ prev_topic: "history", topic: "history moved" });
    (await s.users.cordelia.client.get(`/messages/${await sendDm(s, "hamlet", ["othello"], "x")}/history`)).error("Invalid message(s)");
  });

  test("only the sender edits content, when the organization allows editing, within its time limit (plus 20 s)", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "limits", "mine");
    (await patch("othello", id, { content: "not yours" })).error(NO_EDIT, "BAD_REQUEST", 400);
    (await patch("iago", id, { content: "not even an admin's" })).error(NO_EDIT, "BAD_REQUEST", 400);
    await withRealm({ allow_message_editing: false }, { allow_message_editing: true }, async () => {
      (await patch("hamlet", id, { content: "nope" })).error("Your organization has turned off message editing", "BAD_REQUEST", 400);
    });
    s.clock.advance(600_000 + BUFFER_MS);
    (await patch("hamlet", id, { content: "just in time" })).success();
    s.clock.advance(1_000);
    const ev = await s.captureEvents(async () => {
      (await patch("hamlet", id, { content: "too late" })).error("The time limit for editing this message has passed", "BAD_REQUEST", 400);
    });
    expect(ev.types()).toEqual([]);
    expect((await messageRow(s, id))!.content).toBe("just in time");
    await withRealm({ message_content_edit_limit_seconds: null }, { message_content_edit_limit_seconds: 600 }, async () => {
      (await patch("hamlet", id, { content: "no limit" })).success();
    });
  });

  test("clearing the content leaves '(deleted)', as in Zulip", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "clear", "something");
    (await patch("hamlet", id, { content: "  " })).success();
    expect((await messageRow(s, id))!.content).toBe("(deleted)");
  });

  test("prev_content_sha256 must match the current content", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "sha", "original");
    const sha = new Bun.CryptoHasher("sha256").update("original").digest("hex");
    (await patch("hamlet", id, { content: "x", prev_content_sha256: "0".repeat(64) })).error("'prev_content_sha256' value does not match the expected value.", "EXPECTATION_MISMATCH", 400);
    (await patch("hamlet", id, { content: "checked", prev_content_sha256: sha })).success();
    expect((await messageRow(s, id))!.content).toBe("checked");
  });

  test("removing the last link to one's upload reports it in detached_uploads", async () => {
    const up = await upload(s, "hamlet", "draft.txt", "draft text", "text/plain");
    const id = await sendStream(s, "hamlet", "Verona", "uploads", `see [draft](${up.url})`);
    const r = (await patch("hamlet", id, { content: "never mind" })).success();
    const row = (await s.app.db.get<any>("SELECT * FROM attachments WHERE path_id = ?", [pathIdOf(up.url)]))!;
    expect(r.detached_uploads).toEqual([{ id: row.id, name: "draft.txt", path_id: row.path_id, size: row.size, create_time: expect.any(Number), messages: [] }]);
    // Linking it again attaches it again.
    expect((await patch("hamlet", id, { content: `see [draft](${up.url}) after all` })).success().detached_uploads).toEqual([]);
  });

  test("bad combinations are refused", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "combos", "x");
    (await patch("hamlet", id, {})).error("Nothing to change", "BAD_REQUEST", 400);
    (await patch("hamlet", id, { topic: "combos" })).error("Nothing to change", "BAD_REQUEST", 400);
    (await patch("hamlet", id, { content: "y", propagate_mode: "change_all" })).error("Invalid propagate_mode without topic edit");
    (await patch("hamlet", id, { topic: "z", propagate_mode: "change_some" })).error("Invalid propagate_mode");
    (await patch("hamlet", id, { content: "y", stream_id: elsewhere })).error("Cannot change message content while changing channel");
    (await patch("hamlet", 99999, { content: "y" })).error("Invalid message(s)", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.patch("/messages/abc", { content: "y" })).error("Invalid message_id", "BAD_REQUEST", 400);
    const dm = await sendDm(s, "hamlet", ["othello"], "dm");
    (await patch("hamlet", dm, { topic: "x" })).error("Direct messages cannot have topics.");
    (await patch("hamlet", dm, { stream_id: verona })).error("Direct messages cannot be moved to channels.");
    (await patch("cordelia", dm, { content: "x" })).error("Invalid message(s)");
  });

  test("messages in archived channels cannot be edited", async () => {
    const attic = await createChannel(s, "iago", "Attic", { subscribers: ["hamlet"] });
    const id = await sendStream(s, "hamlet", "Attic", "t", "dusty");
    (await s.users.iago.client.delete(`/streams/${attic}`)).success();
    (await patch("hamlet", id, { content: "polished" })).error("Invalid message(s)", "BAD_REQUEST", 400);
    (await patch("iago", id, { topic: "renamed" })).error("Invalid message(s)", "BAD_REQUEST", 400);
  });
});

describe("moving between topics", () => {
  test("change_one, change_later and change_all move the right messages, keep history, and say so in update_message", async () => {
    const a = await sendStream(s, "hamlet", "Verona", "t1", "a");
    const b = await sendStream(s, "othello", "Verona", "t1", "b");
    const c = await sendStream(s, "hamlet", "Verona", "t1", "c");
    const one = await s.captureEvents(async () => {
      expect((await patch("othello", a, { topic: "one", send_notification_to_new_thread: false })).success()).toEqual({ result: "success", msg: "", detached_uploads: [] });
    });
    expect([await topicOf(a), await topicOf(b), await topicOf(c)]).toEqual(["one", "t1", "t1"]);
    expect(updateOf(one, "hamlet")).toMatchObject({ message_ids: [a], propagate_mode: "change_one", orig_subject: "t1", subject: "one", topic_links: [] });
    expect(updateOf(one, "hamlet").orig_content).toBeUndefined();
    const ev = await s.captureEvents(async () => {
      (await patch("othello", b, { topic: "later", propagate_mode: "change_later", send_notification_to_new_thread: false })).success();
    });
    expect([await topicOf(b), await topicOf(c)]).toEqual(["later", "later"]);
    expect(updateOf(ev, "hamlet")).toMatchObject({
      type: "update_message",
      user_id: s.users.othello.id,
      message_id: b,
      message_ids: [b, c],
      propagate_mode: "change_later",
      orig_subject: "t1",
      subject: "later",
      stream_id: verona,
      stream_name: "Verona",
      rendering_only: false,
    });
    expect(recipients(ev, "update_message")).toEqual(["hamlet", "iago", "othello", "polonius"]);
    (await patch("hamlet", c, { topic: "all", propagate_mode: "change_all", send_notification_to_new_thread: false })).success();
    expect([await topicOf(a), await topicOf(b), await topicOf(c)]).toEqual(["one", "all", "all"]);
    const moved = (await s.users.othello.client.get(`/messages/${b}`)).success().message;
    expect(moved.last_moved_timestamp).toBe(Math.floor((await messageRow(s, b))!.last_moved_time));
    expect(moved.edit_history.map((h: any) => [h.prev_topic, h.topic, h.user_id])).toEqual([
      ["later", "all", s.users.hamlet.id],
      ["t1", "later", s.users.othello.id],
    ]);
  });

  test("a topic change and a content change together by the sender", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "both", "old words");
    const ev = await s.captureEvents(async () => {
      (await patch("hamlet", id, { topic: "both changed", content: "new words", send_notification_to_new_thread: false })).success();
    });
    expect(await messageRow(s, id)).toMatchObject({ topic: "both changed", content: "new words" });
    expect(updateOf(ev, "othello")).toMatchObject({ orig_subject: "both", subject: "both changed", orig_content: "old words", content: "new words", propagate_mode: "change_one" });
    expect(JSON.parse((await messageRow(s, id))!.edit_history)[0]).toMatchObject({ prev_content: "old words", prev_topic: "both", topic: "both changed" });
  });

  test("moving topics follows can_move_messages_between_topics_group, the channel's group, and the time limit (plus 20 s)", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "perm", "x");
    const everyone = systemGroup(s, "role:everyone");
    await withRealm({ can_move_messages_between_topics_group: systemGroup(s, "role:moderators") }, { can_move_messages_between_topics_group: everyone }, async () => {
      (await patch("othello", id, { topic: "nope" })).error(NO_EDIT, "BAD_REQUEST", 400);
      (await patch("hamlet", id, { topic: "not even the sender" })).error(NO_EDIT, "BAD_REQUEST", 400);
      (await patch("shiva", id, { topic: "moderated", send_notification_to_new_thread: false })).success();
      // The channel's can_move_messages_within_channel_group grants it there.
      (await s.users.iago.client.patch(`/streams/${verona}`, { can_move_messages_within_channel_group: { new: systemGroup(s, "role:members") } })).success();
      try {
        (await patch("othello", id, { topic: "channel says yes", send_notification_to_new_thread: false })).success();
        (await patch("polonius", id, { topic: "but not guests" })).error(NO_EDIT);
      } finally {
        (await s.users.iago.client.patch(`/streams/${verona}`, { can_move_messages_within_channel_group: { new: systemGroup(s, "role:nobody") } })).success();
      }
    });
    expect(await topicOf(id)).toBe("channel says yes");
    s.clock.advance(WEEK_MS + BUFFER_MS);
    (await patch("othello", id, { topic: "still in time", send_notification_to_new_thread: false })).success();
    s.clock.advance(1_000);
    (await patch("othello", id, { topic: "too late" })).error("The time limit for editing this message's topic has passed.", "BAD_REQUEST", 400);
    (await patch("shiva", id, { topic: "moderators have no limit", send_notification_to_new_thread: false })).success();
    await withRealm({ move_messages_within_stream_limit_seconds: null }, { move_messages_within_stream_limit_seconds: 604800 }, async () => {
      (await patch("othello", id, { topic: "no limit at all", send_notification_to_new_thread: false })).success();
    });
  });

  test("change_all beyond the time limit is MOVE_MESSAGES_TIME_LIMIT_EXCEEDED with the movable part; moderators move it all", async () => {
    const old = await sendStream(s, "hamlet", "Verona", "aging", "old");
    s.clock.advance(WEEK_MS + BUFFER_MS + 1_000);
    const fresh = await sendStream(s, "hamlet", "Verona", "aging", "fresh");
    const ev = await s.captureEvents(async () => {
      const err = (await patch("othello", fresh, { topic: "aged", propagate_mode: "change_all" })).error(
        "You only have permission to move the 1/2 most recent messages in this topic.",
        "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
        400,
      );
      expect(err).toMatchObject({ first_message_id_allowed_to_move: fresh, total_messages_in_topic: 2, total_messages_allowed_to_move: 1 });
    });
    expect(ev.types()).toEqual([]);
    expect(await topicOf(old)).toBe("aging");
    (await patch("othello", fresh, { topic: "aged", propagate_mode: "change_later", send_notification_to_new_thread: false })).success();
    expect([await topicOf(old), await topicOf(fresh)]).toEqual(["aging", "aged"]);
    (await patch("shiva", old, { topic: "aged", propagate_mode: "change_all", send_notification_to_new_thread: false })).success();
    expect(await topicOf(old)).toBe("aged");
  });
});

describe("resolving topics", () => {
  test("resolving prefixes ✔ to every message, is not a move, and the Notification Bot says so (read for the resolver)", async () => {
    const a = await sendStream(s, "hamlet", "Verona", "bug", "it broke");
    const b = await sendStream(s, "othello", "Verona", "bug", "fixed");
    const ev = await s.captureEvents(async () => {
      (await patch("othello", a, { topic: "✔ bug", propagate_mode: "change_all" })).success();
    });
    expect([await topicOf(a), await topicOf(b)]).toEqual(["✔ bug", "✔ bug"]);
    expect((await messageRow(s, a))!.last_moved_time).toBeNull();
    expect(updateOf(ev, "hamlet")).toMatchObject({ message_ids: [a, b], orig_subject: "bug", subject: "✔ bug", propagate_mode: "change_all" });
    const notice = await lastIn(verona, "✔ bug");
    expect(notice.content).toBe(`${mention("othello")} has marked this topic as resolved.`);
    expect(notice.sender_id).toBe(await notificationBotId());
    expect(await flagsOf(s, "othello", notice.id)).toBe(FLAG.read);
    expect(await flagsOf(s, "hamlet", notice.id)).toBe(0);
    // No "moved here" notice for a resolve, only the resolve notice.
    expect(ev.of("hamlet").filter((e) => e.type === "message").map((e: any) => e.message.content)).toEqual([notice.rendered_content]);
  });

  test("unresolving soon after deletes the resolve notice instead of adding one; later it adds its own", async () => {
    const a = await sendStream(s, "hamlet", "Verona", "flaky", "oops");
    (await patch("othello", a, { topic: "✔ flaky", propagate_mode: "change_all" })).success();
    const notice = await lastIn(verona, "✔ flaky");
    s.clock.advance(30_000);
    const ev = await s.captureEvents(async () => {
      (await patch("othello", a, { topic: "flaky", propagate_mode: "change_all" })).success();
    });
    expect(await messageRow(s, notice.id)).toBeUndefined();
    expect(ev.of("hamlet").filter((e) => e.type === "delete_message")).toEqual([{ type: "delete_message", message_type: "stream", message_ids: [notice.id], stream_id: verona, topic: "flaky" }]);
    expect(ev.of("hamlet").some((e) => e.type === "message")).toBe(false);
    expect((await lastIn(verona, "flaky")).id).toBe(a);
    (await patch("othello", a, { topic: "✔ flaky", propagate_mode: "change_all" })).success();
    s.clock.advance(61_000);
    (await patch("hamlet", a, { topic: "flaky", propagate_mode: "change_all" })).success();
    const unresolved = await lastIn(verona, "flaky");
    expect(unresolved.content).toBe(`${mention("hamlet")} has marked this topic as unresolved.`);
    expect(await s.app.db.all("SELECT id FROM messages WHERE stream_id = ? AND topic = 'flaky' ORDER BY id", [verona])).toHaveLength(3);
  });

  test("resolving needs can_resolve_topics_group (the organization's or the channel's), not the move permissions or time limit", async () => {
    const a = await sendStream(s, "hamlet", "Verona", "unresolvable", "x");
    const everyone = systemGroup(s, "role:everyone");
    await withRealm({ can_resolve_topics_group: systemGroup(s, "role:administrators") }, { can_resolve_topics_group: everyone }, async () => {
      (await patch("othello", a, { topic: "✔ unresolvable", propagate_mode: "change_all" })).error("You don't have permission to resolve topics.", "BAD_REQUEST", 400);
      expect(await topicOf(a)).toBe("unresolvable");
      (await s.users.iago.client.patch(`/streams/${verona}`, { can_resolve_topics_group: { new: systemGroup(s, "role:members") } })).success();
      try {
        (await patch("othello", a, { topic: "✔ unresolvable", propagate_mode: "change_all" })).success();
      } finally {
        (await s.users.iago.client.patch(`/streams/${verona}`, { can_resolve_topics_group: { new: systemGroup(s, "role:nobody") } })).success();
      }
    });
    await withRealm({ can_move_messages_between_topics_group: systemGroup(s, "role:nobody") }, { can_move_messages_between_topics_group: everyone }, async () => {
      s.clock.advance(WEEK_MS * 2);
      (await patch("hamlet", a, { topic: "unresolvable", propagate_mode: "change_all" })).success();
      (await patch("hamlet", a, { topic: "renamed" })).error(NO_EDIT);
    });
  });

  test("the empty topic cannot be marked as resolved", async () => {
    const a = await sendStream(s, "hamlet", "Verona", "", "general");
    (await patch("hamlet", a, { topic: "✔ ", propagate_mode: "change_all" })).error("General chat cannot be marked as resolved", "BAD_REQUEST", 400);
    (await patch("hamlet", a, { topic: "✔", propagate_mode: "change_all" })).error("General chat cannot be marked as resolved", "BAD_REQUEST", 400);
    expect(await topicOf(a)).toBe("");
  });
});

describe("moving between channels", () => {
  test("a whole topic moves: rows stay only with the new channel's subscribers, guests lose it, notices go where asked (read for the mover)", async () => {
    const a = await sendStream(s, "hamlet", "Verona", "travel", "going");
    const b = await sendStream(s, "hamlet", "Verona", "travel", "gone");
    const ev = await s.captureEvents(async () => {
      (await patch("hamlet", a, { stream_id: elsewhere, propagate_mode: "change_all", send_notification_to_old_thread: true })).success();
    });
    for (const id of [a, b]) expect(await messageRow(s, id)).toMatchObject({ stream_id: elsewhere, topic: "travel" });
    // Zulip keeps rows only for subscribers of the new channel (its history is public to Cordelia without one);
    // Hamlet and Othello may still read the public channel, the guest may not.
    expect(await holdersOf(s, a)).toEqual([s.users.iago.id]);
    expect(await flagsOf(s, "cordelia", a)).toBeUndefined();
    const update = updateOf(ev, "hamlet");
    expect(update).toMatchObject({ message_ids: [a, b], stream_id: verona, stream_name: "Verona", new_stream_id: elsewhere, orig_subject: "travel", propagate_mode: "change_all", flags: ["read"] });
    expect(update.subject).toBeUndefined();
    expect(recipients(ev, "update_message")).toEqual(["cordelia", "hamlet", "iago", "othello"]);
    expect(ev.of("polonius").filter((e) => e.type !== "message")).toEqual([{ type: "delete_message", message_type: "stream", message_ids: [a, b], stream_id: verona, topic: "travel" }]);
    (await s.users.hamlet.client.get(`/messages/${a}`)).success();
    (await s.users.polonius.client.get(`/messages/${a}`)).error("Invalid message(s)");
    const oldNotice = await lastIn(verona, "travel");
    expect(oldNotice.content).toBe(`This topic was moved to #**Elsewhere>travel** by ${mention("hamlet")}.`);
    const newNotice = await lastIn(elsewhere, "travel");
    expect(newNotice.content).toBe(`This topic was moved here from #**Verona>travel** by ${mention("hamlet")}.`);
    expect(newNotice.id).toBeLessThan(oldNotice.id);
    expect(await flagsOf(s, "hamlet", oldNotice.id)).toBe(FLAG.read);
    expect(await flagsOf(s, "othello", oldNotice.id)).toBe(0);
    expect(await flagsOf(s, "cordelia", newNotice.id)).toBe(0);
    const history = JSON.parse((await messageRow(s, b))!.edit_history);
    expect(history[0]).toEqual({ user_id: s.users.hamlet.id, timestamp: expect.any(Number), prev_stream: verona, stream: elsewhere });
  });

  test("moving one message or a few says how many, with a link to a single one", async () => {
    const a = await sendStream(s, "hamlet", "Verona", "split", "one");
    const b = await sendStream(s, "hamlet", "Verona", "split", "two");
    const c = await sendStream(s, "hamlet", "Verona", "split", "three");
    (await patch("hamlet", c, { stream_id: elsewhere, topic: "split off", send_notification_to_old_thread: true })).success();
    const link = `http://parley.test/#narrow/channel/${elsewhere}-Elsewhere/topic/split.20off/near/${c}`;
    expect((await lastIn(elsewhere, "split off")).content).toBe(`[A message](${link}) was moved here from #**Verona>split** by ${mention("hamlet")}.`);
    expect((await lastIn(verona, "split")).content).toBe(`A message was moved from this topic to #**Elsewhere>split off** by ${mention("hamlet")}.`);
    // change_later from the first message moves the rest of the topic, the notice included: the whole topic.
    (await patch("hamlet", a, { topic: "regrouped", propagate_mode: "change_later", send_notification_to_old_thread: true })).success();
    expect([await topicOf(a), await topicOf(b)]).toEqual(["regrouped", "regrouped"]);
    expect((await lastIn(verona, "regrouped")).content).toBe(`This topic was moved here from #**Verona>split** by ${mention("hamlet")}.`);
    expect((await lastIn(verona, "split")).content).toBe(`This topic was moved to #**Verona>regrouped** by ${mention("hamlet")}.`);
    // Into a topic that already has messages: counted, not "this topic".
    const d = await sendStream(s, "hamlet", "Verona", "extra", "four");
    const e = await sendStream(s, "hamlet", "Verona", "extra", "five");
    (await patch("hamlet", d, { topic: "regrouped", propagate_mode: "change_all" })).success();
    expect((await lastIn(verona, "regrouped")).content).toBe(`2 messages were moved here from #**Verona>extra** by ${mention("hamlet")}.`);
    expect(await topicOf(e)).toBe("regrouped");
    // send_notification_to_new_thread: false sends nothing (no message). The sender followed the topic
    // they started; moving all of it carries that along, with user_topic events for both names.
    const quiet = await sendStream(s, "hamlet", "Verona", "quiet", "shh");
    const ev = await s.captureEvents(async () => {
      (await patch("hamlet", quiet, { topic: "quieter", send_notification_to_new_thread: false })).success();
    });
    // (muted_topics: Zulip's legacy event beside each user_topic one, for queues that take every type)
    expect(ev.types().sort()).toEqual(["muted_topics", "update_message", "user_topic"]);
    expect(ev.of("hamlet").filter((e) => e.type === "user_topic").map((e: any) => [e.topic_name, e.visibility_policy])).toEqual([
      ["quiet", 0],
      ["quieter", 3],
    ]);
  });

  test("moving into a private channel: non-subscribers lose the messages and get delete_message instead", async () => {
    await createChannel(s, "iago", "Private", { invite_only: true, subscribers: ["hamlet"] });
    const priv = (await s.app.db.get<{ id: number }>("SELECT id FROM streams WHERE name = 'Private'"))!.id;
    const a = await sendStream(s, "hamlet", "Verona", "secrets", "hush");
    const ev = await s.captureEvents(async () => {
      (await patch("hamlet", a, { stream_id: priv, propagate_mode: "change_all", send_notification_to_new_thread: false })).success();
    });
    expect(await holdersOf(s, a)).toEqual([s.users.iago.id, s.users.hamlet.id].sort((x, y) => x - y));
    for (const who of ["othello", "polonius"] as const) {
      expect(ev.of(who)).toEqual([{ type: "delete_message", message_type: "stream", message_ids: [a], stream_id: verona, topic: "secrets" }]);
    }
    expect(recipients(ev, "update_message")).toEqual(["hamlet", "iago"]);
    (await s.users.othello.client.get(`/messages/${a}`)).error("Invalid message(s)");
  });

  test("moving out needs can_move_messages_between_channels_group or the channel's group; the target must take one's posts", async () => {
    const guestMsg = await sendStream(s, "polonius", "Verona", "guest", "x");
    (await patch("polonius", guestMsg, { stream_id: elsewhere })).error("You don't have permission to move this message", "BAD_REQUEST", 400);
    const mine = await sendStream(s, "hamlet", "Verona", "locked", "x");
    const members = systemGroup(s, "role:members");
    await withRealm({ can_move_messages_between_channels_group: systemGroup(s, "role:administrators") }, { can_move_messages_between_channels_group: members }, async () => {
      (await patch("hamlet", mine, { stream_id: elsewhere })).error("You don't have permission to move this message");
      (await s.users.iago.client.patch(`/streams/${verona}`, { can_move_messages_out_of_channel_group: { new: members } })).success();
      try {
        (await patch("hamlet", mine, { stream_id: elsewhere, send_notification_to_new_thread: false })).success();
      } finally {
        (await s.users.iago.client.patch(`/streams/${verona}`, { can_move_messages_out_of_channel_group: { new: systemGroup(s, "role:nobody") } })).success();
      }
    });
    expect((await messageRow(s, mine))!.stream_id).toBe(elsewhere);
    const other = await sendStream(s, "hamlet", "Verona", "locked", "y");
    const secret = await createChannel(s, "iago", "Locked", { invite_only: true });
    (await patch("hamlet", other, { stream_id: secret })).error("Invalid channel ID", "BAD_REQUEST", 400);
    (await patch("hamlet", other, { stream_id: 99999 })).error("Invalid channel ID", "BAD_REQUEST", 400);
    const announce = await createChannel(s, "iago", "Announce", { subscribers: ["hamlet"], extra: { can_send_message_group: systemGroup(s, "role:administrators") } });
    (await patch("hamlet", other, { stream_id: announce })).error("You do not have permission to post in this channel.", "BAD_REQUEST", 400);
    expect((await messageRow(s, other))!.stream_id).toBe(verona);
  });

  test("moving between channels has its own time limit (plus 20 s); moderators have none", async () => {
    const id = await sendStream(s, "hamlet", "Verona", "slow", "x");
    s.clock.advance(WEEK_MS + BUFFER_MS + 1_000);
    (await patch("hamlet", id, { stream_id: elsewhere })).error("The time limit for editing this message's channel has passed", "BAD_REQUEST", 400);
    (await patch("shiva", id, { stream_id: elsewhere, send_notification_to_new_thread: false })).success();
    expect((await messageRow(s, id))!.stream_id).toBe(elsewhere);
  });
});

describe("topic policies follow a moved topic", () => {
  const setPolicy = (who: CastName, streamId: number, topic: string, policy: number) =>
    s.users[who].client.post("/user_topics", { stream_id: streamId, topic, visibility_policy: policy }).then((r) => r.success());
  const policyOf = async (who: CastName, streamId: number, topic: string) =>
    (await s.app.db.get<{ v: number }>("SELECT visibility_policy AS v FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic = ?", [s.users[who].id, streamId, topic]))?.v ?? 0;
  const topicEvents = (ev: Awaited<ReturnType<TestServer["captureEvents"]>>, who: CastName) =>
    ev.of(who).filter((e) => e.type === "user_topic").map((e: any) => [e.stream_id, e.topic_name, e.visibility_policy]);

  test("a whole topic moved to a new name takes everyone's policy along, with user_topic events", async () => {
    const id = await sendStream(s, "othello", "Verona", "carry me", "hello");
    await setPolicy("hamlet", verona, "carry me", 1);
    await setPolicy("polonius", verona, "carry me", 2);
    const ev = await s.captureEvents(async () => {
      (await patch("iago", id, { topic: "carried", propagate_mode: "change_all", send_notification_to_new_thread: false })).success();
    });
    expect([await policyOf("hamlet", verona, "carried"), await policyOf("hamlet", verona, "carry me")]).toEqual([1, 0]);
    expect([await policyOf("polonius", verona, "carried"), await policyOf("othello", verona, "carried")]).toEqual([2, 3]);
    expect(topicEvents(ev, "hamlet")).toEqual([
      [verona, "carry me", 0],
      [verona, "carried", 1],
    ]);
    expect(topicEvents(ev, "othello")).toEqual([
      [verona, "carry me", 0],
      [verona, "carried", 3],
    ]);
    expect(topicEvents(ev, "cordelia")).toEqual([]);
  });

  test("into a topic with messages, the more visible policy of the two stays (Zulip's merge)", async () => {
    const from = await sendStream(s, "hamlet", "Verona", "merge from", "a");
    await sendStream(s, "hamlet", "Verona", "merge into", "b");
    await setPolicy("othello", verona, "merge from", 3); // followed + muted: followed
    await setPolicy("othello", verona, "merge into", 1);
    await setPolicy("polonius", verona, "merge into", 1); // nothing + muted: unmuted, i.e. no policy
    await setPolicy("iago", verona, "merge from", 1); // muted + nothing: nothing
    const ev = await s.captureEvents(async () => {
      (await patch("iago", from, { topic: "merge into", propagate_mode: "change_all", send_notification_to_new_thread: false })).success();
    });
    expect(await policyOf("othello", verona, "merge into")).toBe(3);
    expect(await policyOf("polonius", verona, "merge into")).toBe(0);
    expect(await policyOf("iago", verona, "merge into")).toBe(0);
    expect(await policyOf("iago", verona, "merge from")).toBe(0);
    expect(topicEvents(ev, "polonius")).toEqual([[verona, "merge into", 0]]);
    expect(topicEvents(ev, "iago")).toEqual([[verona, "merge from", 0]]);
  });

  test("a partial move keeps policies where they are, but the sender follows a topic their message now starts", async () => {
    const first = await sendStream(s, "othello", "Verona", "partial", "one");
    const second = await sendStream(s, "hamlet", "Verona", "partial", "two");
    await setPolicy("cordelia", verona, "partial", 0);
    await setPolicy("polonius", verona, "partial", 1);
    const ev = await s.captureEvents(async () => {
      (await patch("iago", second, { topic: "offshoot", propagate_mode: "change_one", send_notification_to_new_thread: false })).success();
    });
    expect(await topicOf(first)).toBe("partial");
    expect(await policyOf("polonius", verona, "partial")).toBe(1);
    expect(await policyOf("polonius", verona, "offshoot")).toBe(0);
    // hamlet's message is the first of "offshoot": automatically_follow_topics_policy "on initiation"
    expect(await policyOf("hamlet", verona, "offshoot")).toBe(3);
    expect(topicEvents(ev, "hamlet")).toEqual([[verona, "offshoot", 3]]);
    expect(topicEvents(ev, "polonius")).toEqual([]);
  });
});

describe("message_edit_history_visibility_policy", () => {
  async function editedAndMoved() {
    const id = await sendStream(s, "hamlet", "Verona", "policy", "first");
    (await patch("hamlet", id, { content: "second" })).success();
    (await patch("hamlet", id, { topic: "policy moved" })).success();
    return id;
  }
  const historyOf = (id: number) => s.users.othello.client.get(`/messages/${id}/history`);
  const fetched = async (id: number) => (await s.users.othello.client.get(`/messages/${id}`)).success().message;

  test("PATCH /realm sets it and keeps the legacy allow_edit_history in step", async () => {
    const ev = await s.captureEvents(async () => {
      (await s.users.desdemona.client.patch("/realm", { message_edit_history_visibility_policy: "moves" })).success();
    });
    expect(s.app.realm!.settings.allow_edit_history).toBe(true);
    expect(ev.of("hamlet")).toContainEqual({ type: "realm", op: "update", property: "message_edit_history_visibility_policy", value: "moves" });
    (await s.users.desdemona.client.patch("/realm", { allow_edit_history: false })).success();
    expect(s.app.realm!.settings.message_edit_history_visibility_policy).toBe("none");
    (await s.users.desdemona.client.patch("/realm", { message_edit_history_visibility_policy: "all" })).success();
    expect(s.app.realm!.settings.allow_edit_history).toBe(true);
    (await s.users.desdemona.client.patch("/realm", { message_edit_history_visibility_policy: "some" })).error("Invalid message_edit_history_visibility_policy");
  });

  test('"moves" shows only moves, without the content edits', async () => {
    const id = await editedAndMoved();
    await withRealm({ message_edit_history_visibility_policy: "moves" }, { message_edit_history_visibility_policy: "all" }, async () => {
      const h = (await historyOf(id)).success().message_history;
      expect(h.map((x: any) => [x.topic, x.content])).toEqual([
        ["policy", "second"],
        ["policy moved", "second"],
      ]);
      expect(h.some((x: any) => "prev_content" in x || "content_html_diff" in x)).toBe(false);
      const m = await fetched(id);
      expect(m.edit_history).toHaveLength(1);
      expect(m.edit_history[0]).toMatchObject({ prev_topic: "policy", topic: "policy moved" });
      expect(m.edit_history[0].prev_content).toBeUndefined();
    });
  });

  test('"none" hides all edit history', async () => {
    const id = await editedAndMoved();
    await withRealm({ message_edit_history_visibility_policy: "none" }, { message_edit_history_visibility_policy: "all" }, async () => {
      (await historyOf(id)).error("Message edit history is disabled in this organization");
      expect((await fetched(id)).edit_history).toBeUndefined();
    });
    expect((await fetched(id)).edit_history).toHaveLength(2);
  });
});
