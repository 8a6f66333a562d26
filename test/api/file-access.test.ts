// Losing access to a channel ends access to its files: the file, its thumbnails, new temporary
// URLs and the ones issued before. The uploader and those who still read the message keep them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { waitForThumbnails } from "../../src/actions/uploads";
import { createChannel } from "../helpers/channels";
import { flagsOf, sendDm, sendStream } from "../helpers/messages";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { setRealmSettings } from "../helpers/people";
import { fetchRaw, makePng, pathIdOf, upload } from "../helpers/uploads";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

interface Shared {
  url: string;
  pathId: string;
  thumbnail: string;
  messageId: number;
}

let counter = 0;

/** `uploader` uploads an image and links it in a message to `channel` (or a DM with `dmWith`). */
async function share(uploader: CastName, to: { channel: number } | { dmWith: CastName[] }): Promise<Shared> {
  const name = `photo${++counter}.png`;
  const { url } = await upload(s, uploader, name, await makePng(900, 600));
  const content = `[${name}](${url})`;
  const messageId = "channel" in to ? await sendStream(s, uploader, to.channel, `files ${counter}`, content) : await sendDm(s, uploader, to.dmWith, content);
  await waitForThumbnails(s.app);
  const pathId = pathIdOf(url);
  return { url, pathId, thumbnail: `/user_uploads/thumbnail/${pathId}/840x560.webp`, messageId };
}

/** A temporary URL for `who`, made now (while they may still read the file). */
async function temporaryUrl(who: CastName, f: Shared): Promise<string> {
  return (await s.users[who].client.get(f.url)).success().url;
}

/** What `who` gets for the file, its thumbnail, a new temporary URL, and an earlier temporary URL. */
async function expectAllowed(who: CastName, f: Shared, earlier?: string) {
  const file = await fetchRaw(s, f.url, { as: who });
  expect({ who, status: file.status }).toEqual({ who, status: 200 });
  expect((await fetchRaw(s, f.thumbnail, { as: who })).headers.get("content-type")).toBe("image/webp");
  const fresh = await temporaryUrl(who, f);
  expect((await fetchRaw(s, fresh)).status).toBe(200);
  if (earlier) expect((await fetchRaw(s, earlier)).status).toBe(200);
}

const DENIED = { result: "error", msg: "Access denied", code: "BAD_REQUEST" };

async function expectRefused(who: CastName, f: Shared, earlier: string) {
  for (const path of [f.url, f.thumbnail]) {
    const r = await fetchRaw(s, path, { as: who });
    expect({ who, path, status: r.status }).toEqual({ who, path, status: 403 });
    expect(await r.json()).toEqual(DENIED);
  }
  (await s.users[who].client.get(f.url)).error("Access denied", "BAD_REQUEST", 403);
  const old = await fetchRaw(s, earlier);
  expect({ who, status: old.status }).toEqual({ who, status: 403 });
  expect(await old.json()).toEqual(DENIED);
}

describe("every way of losing access to a channel ends access to its files", () => {
  test("leaving a private channel with shared history", async () => {
    const channel = await createChannel(s, "desdemona", "shared vault", { invite_only: true, history_public_to_subscribers: true, subscribers: ["shiva", "cordelia"] });
    const f = await share("desdemona", { channel });
    const earlier = await temporaryUrl("shiva", f);
    await expectAllowed("shiva", f, earlier);
    (await s.users.shiva.client.delete("/users/me/subscriptions", { subscriptions: ["shared vault"] })).success();
    await expectRefused("shiva", f, earlier);
    await expectAllowed("desdemona", f);
    await expectAllowed("cordelia", f);
  });

  test("leaving a private channel with protected history, where the moderator received the message", async () => {
    const channel = await createChannel(s, "desdemona", "protected vault", { invite_only: true, history_public_to_subscribers: false, subscribers: ["shiva", "cordelia"] });
    const f = await share("desdemona", { channel });
    expect(await flagsOf(s, "shiva", f.messageId)).toBeDefined();
    const earlier = await temporaryUrl("shiva", f);
    await expectAllowed("shiva", f, earlier);
    (await s.users.shiva.client.delete("/users/me/subscriptions", { subscriptions: ["protected vault"] })).success();
    // The row stays (the message still lists in shiva's own history, as in Zulip), the file does not.
    expect(await flagsOf(s, "shiva", f.messageId)).toBeDefined();
    await expectRefused("shiva", f, earlier);
    await expectAllowed("desdemona", f);
    await expectAllowed("cordelia", f);
    // Rejoining restores it: access follows the subscription, nothing was forgotten.
    (await s.users.desdemona.client.post("/users/me/subscriptions", { subscriptions: [{ name: "protected vault" }], principals: [s.users.shiva.id] })).success();
    await expectAllowed("shiva", f);
  });

  test("being removed from a private channel by an administrator", async () => {
    const channel = await createChannel(s, "hamlet", "council", { invite_only: true, subscribers: ["othello", "iago"] });
    const f = await share("hamlet", { channel });
    const earlier = await temporaryUrl("othello", f);
    await expectAllowed("othello", f, earlier);
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["council"], principals: [s.users.othello.id] })).success();
    await expectRefused("othello", f, earlier);
    await expectAllowed("hamlet", f);
    await expectAllowed("iago", f);
  });

  test("a guest leaving a public channel (members who never joined keep the file)", async () => {
    const channel = await createChannel(s, "hamlet", "town square", { subscribers: ["polonius"] });
    const f = await share("hamlet", { channel });
    const earlier = await temporaryUrl("polonius", f);
    await expectAllowed("polonius", f, earlier);
    (await s.users.polonius.client.delete("/users/me/subscriptions", { subscriptions: ["town square"] })).success();
    await expectRefused("polonius", f, earlier);
    await expectAllowed("hamlet", f);
    await expectAllowed("cordelia", f);
  });

  test("the message moved to a channel the person cannot read", async () => {
    const from = await createChannel(s, "desdemona", "lobby", { subscribers: ["othello"] });
    const to = await createChannel(s, "desdemona", "back office", { invite_only: true, subscribers: ["iago"] });
    const f = await share("desdemona", { channel: from });
    const earlier = await temporaryUrl("othello", f);
    await expectAllowed("othello", f, earlier);
    (await s.users.desdemona.client.patch(`/messages/${f.messageId}`, { stream_id: to, propagate_mode: "change_one" })).success();
    await expectRefused("othello", f, earlier);
    await expectAllowed("desdemona", f);
    await expectAllowed("iago", f);
  });

  test("a public channel made private", async () => {
    const channel = await createChannel(s, "desdemona", "open plan", { subscribers: ["iago"] });
    const f = await share("desdemona", { channel });
    // cordelia never subscribed: a public channel's files are every member's
    const earlier = await temporaryUrl("cordelia", f);
    await expectAllowed("cordelia", f, earlier);
    (await s.users.desdemona.client.patch(`/streams/${channel}`, { is_private: true })).success();
    await expectRefused("cordelia", f, earlier);
    await expectAllowed("desdemona", f);
    await expectAllowed("iago", f);
  });

  test("a deactivated user: their credentials stop working and so does the temporary URL they made", async () => {
    const channel = await createChannel(s, "desdemona", "alumni", { invite_only: true, subscribers: ["othello", "cordelia"] });
    const f = await share("othello", { channel });
    const theirs = await share("desdemona", { channel });
    const own = await temporaryUrl("othello", f);
    const other = await temporaryUrl("othello", theirs);
    (await s.users.iago.client.delete(`/users/${s.users.othello.id}`)).success();
    expect((await fetchRaw(s, f.url, { as: "othello" })).status).toBe(401);
    for (const url of [own, other]) {
      const r = await fetchRaw(s, url);
      expect(r.status).toBe(403);
      expect(await r.json()).toEqual(DENIED);
    }
    // Their upload stays readable for the channel.
    await expectAllowed("cordelia", f);
    await expectAllowed("desdemona", f);
    (await s.users.iago.client.post(`/users/${s.users.othello.id}/reactivate`)).success();
  });

  test("spectators read a web-public channel's files only while it is web-public and not archived", async () => {
    await setRealmSettings(s, { enable_spectator_access: true });
    try {
      const channel = await createChannel(s, "desdemona", "shop window", { is_web_public: true });
      const f = await share("desdemona", { channel });
      expect((await fetchRaw(s, f.url)).status).toBe(200);
      expect((await fetchRaw(s, f.thumbnail)).status).toBe(200);
      (await s.users.desdemona.client.delete(`/streams/${channel}`)).success();
      for (const path of [f.url, f.thumbnail]) {
        const r = await fetchRaw(s, path);
        expect(r.status).toBe(401);
        expect((await r.json()).code).toBe("UNAUTHORIZED");
      }
      await expectAllowed("desdemona", f);
    } finally {
      await setRealmSettings(s, { enable_spectator_access: false });
    }
  });

  test("a direct message's file stays with its participants, and only them", async () => {
    const f = await share("hamlet", { dmWith: ["cordelia"] });
    await expectAllowed("cordelia", f);
    const r = await fetchRaw(s, f.url, { as: "iago" });
    expect(r.status).toBe(403);
    expect((await fetchRaw(s, f.thumbnail, { as: "iago" })).status).toBe(403);
    (await s.users.iago.client.get(f.url)).error("Access denied", "BAD_REQUEST", 403);
  });

  test("a file linked from two channels stays readable through the one still readable", async () => {
    const a = await createChannel(s, "desdemona", "first room", { invite_only: true, subscribers: ["shiva"] });
    const b = await createChannel(s, "desdemona", "second room", { invite_only: true, subscribers: ["shiva"] });
    const f = await share("desdemona", { channel: a });
    await sendStream(s, "desdemona", b, "again", `[again](${f.url})`);
    const earlier = await temporaryUrl("shiva", f);
    (await s.users.shiva.client.delete("/users/me/subscriptions", { subscriptions: ["first room"] })).success();
    await expectAllowed("shiva", f, earlier);
    (await s.users.shiva.client.delete("/users/me/subscriptions", { subscriptions: ["second room"] })).success();
    await expectRefused("shiva", f, earlier);
  });

  test("a file one can no longer read cannot be shared on by linking it in a new message", async () => {
    const channel = await createChannel(s, "desdemona", "inner circle", { invite_only: true, subscribers: ["shiva"] });
    const f = await share("desdemona", { channel });
    (await s.users.shiva.client.delete("/users/me/subscriptions", { subscriptions: ["inner circle"] })).success();
    const leaked = await sendDm(s, "shiva", ["hamlet"], `[look](${f.url})`);
    const linked = await s.app.db.all("SELECT * FROM attachment_messages WHERE message_id = ?", [leaked]);
    expect(linked).toEqual([]);
    expect((await fetchRaw(s, f.url, { as: "hamlet" })).status).toBe(403);
  });
});

describe("after leaving a private channel, the rest follows Zulip's current-access rules", () => {
  let channel: number;
  let received: number;
  beforeAll(async () => {
    channel = await createChannel(s, "desdemona", "war room", { invite_only: true, history_public_to_subscribers: true, subscribers: ["shiva"] });
    received = await sendStream(s, "desdemona", channel, "plans", "the secret plans");
    (await s.users.desdemona.client.patch(`/messages/${received}`, { content: "the secret plans, revised" })).success();
    (await s.users.shiva.client.delete("/users/me/subscriptions", { subscriptions: ["war room"] })).success();
  });

  test("the message itself: GET /messages/{id} refuses it", async () => {
    (await s.users.shiva.client.get(`/messages/${received}`)).error("Invalid message(s)", "BAD_REQUEST", 400);
  });

  test("reactions need current access (Zulip's access_message)", async () => {
    (await s.users.shiva.client.post(`/messages/${received}/reactions`, { emoji_name: "octopus" })).error("Invalid message(s)", "BAD_REQUEST", 400);
    expect(await s.app.db.all("SELECT * FROM reactions WHERE message_id = ?", [received])).toEqual([]);
  });

  test("edit history needs current access", async () => {
    (await s.users.shiva.client.get(`/messages/${received}/history`)).error("Invalid message(s)", "BAD_REQUEST", 400);
    expect((await s.users.desdemona.client.get(`/messages/${received}/history`)).success().message_history).toHaveLength(2);
  });

  test("editing or deleting one's own message there needs current access too", async () => {
    (await s.users.desdemona.client.post("/users/me/subscriptions", { subscriptions: [{ name: "war room" }], principals: [s.users.shiva.id] })).success();
    const own = await sendStream(s, "shiva", channel, "plans", "shiva's own words");
    (await s.users.shiva.client.delete("/users/me/subscriptions", { subscriptions: ["war room"] })).success();
    (await s.users.shiva.client.patch(`/messages/${own}`, { content: "rewritten from outside" })).error("Invalid message(s)", "BAD_REQUEST", 400);
    (await s.users.shiva.client.delete(`/messages/${own}`)).error("Invalid message(s)", "BAD_REQUEST", 400);
    const row = await s.app.db.get<{ content: string }>("SELECT content FROM messages WHERE id = ?", [own]);
    expect(row?.content).toBe("shiva's own words");
  });

  test("flags: one's own rows may still change (as Zulip's do_update_message_flags); messages never received may not be flagged", async () => {
    const before = await flagsOf(s, "shiva", received);
    const body = (await s.users.shiva.client.post("/messages/flags", { messages: [received], op: "add", flag: "starred" })).success();
    expect(body.messages).toEqual([received]);
    expect((await flagsOf(s, "shiva", received))! & 2).toBe(2);
    expect(before! & 2).toBe(0);
    const later = await sendStream(s, "desdemona", channel, "plans", "sent after shiva left");
    (await s.users.shiva.client.post("/messages/flags", { messages: [later], op: "add", flag: "starred" })).error("Invalid message(s)", "BAD_REQUEST", 400);
    expect(await flagsOf(s, "shiva", later)).toBeUndefined();
  });

  test("narrows and search: messages received stay in one's own history, later ones never appear", async () => {
    const later = await sendStream(s, "desdemona", channel, "plans", "the secret plans, sent later");
    const ids = async (narrow: object[]) =>
      ((await s.users.shiva.client.get("/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow })).success().messages as { id: number }[]).map((m) => m.id);
    for (const narrow of [[], [{ operator: "search", operand: "secret plans" }], [{ operator: "channel", operand: channel }]]) {
      const got = await ids(narrow);
      expect(got).toContain(received);
      expect(got).not.toContain(later);
    }
    expect(await ids([{ operator: "channel", operand: channel }, { operator: "topic", operand: "plans" }])).not.toContain(later);
  });

  test("events: nothing from the channel reaches them any more", async () => {
    const events = await s.captureEvents(async () => {
      await sendStream(s, "desdemona", channel, "plans", "after the door closed");
      (await s.users.desdemona.client.post(`/messages/${received}/reactions`, { emoji_name: "octopus" })).success();
    });
    // Nor do reactions to the messages they received: Zulip also tells every holder of a row,
    // Parley only those who may read the message now.
    expect(events.of("shiva")).toEqual([]);
    expect(events.of("desdemona").filter((e) => e.type === "reaction")).toHaveLength(1);
    expect(events.of("desdemona").filter((e) => e.type === "message")).toHaveLength(1);
  });

  test("a moderator who rejoins a shared-history channel reads it all again", async () => {
    (await s.users.desdemona.client.post("/users/me/subscriptions", { subscriptions: [{ name: "war room" }], principals: [s.users.shiva.id] })).success();
    expect((await s.users.shiva.client.get(`/messages/${received}`)).success().message.id).toBe(received);
    (await s.users.shiva.client.delete("/users/me/subscriptions", { subscriptions: ["war room"] })).success();
  });
});
