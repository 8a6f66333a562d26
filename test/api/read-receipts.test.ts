/**
 * GET /messages/{message_id}/read_receipts (Zulip feature level 137, Zulip's read_receipts view):
 * who has read a message, for zulip-flutter's "View read receipts" (getReadReceipts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createChannel } from "../helpers/channels";
import { sendDm, sendStream } from "../helpers/messages";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { reloadRealm } from "../../src/app";

let s: TestServer;
let denmark = 0;

const receipts = (who: CastName, id: number | string) => s.users[who].client.get(`/messages/${id}/read_receipts`);
const markRead = async (who: CastName, ...ids: number[]) => (await s.users[who].client.post("/messages/flags", { messages: ids, op: "add", flag: "read" })).success();
const setRealm = async (on: boolean) => (await s.users.iago.client.patch("/realm", { enable_read_receipts: on })).success();

beforeAll(async () => {
  s = await startServer();
  denmark = await createChannel(s, "hamlet", "Denmark", { subscribers: ["othello", "cordelia", "iago", "shiva", "polonius"] });
});
afterAll(() => s.close());
beforeEach(() => setRealm(true));

describe("the organization's enable_read_receipts", () => {
  test("a new organization starts with it on, as Zulip does for one that needs invitations; one made before it was stored keeps Zulip's model default, off", async () => {
    const fresh = await startServer();
    try {
      expect((await fresh.users.hamlet.client.post("/register", { fetch_event_types: ["realm"] })).success().realm_enable_read_receipts).toBe(true);
      const row = (await fresh.app.db.get<{ settings: string }>("SELECT settings FROM realm"))!;
      expect(JSON.parse(row.settings)).toMatchObject({ enable_read_receipts: true });
      // an organization whose stored settings predate it (an older data dir) reads the default
      const older = JSON.parse(row.settings);
      delete older.enable_read_receipts;
      await fresh.app.db.run("UPDATE realm SET settings = ?", [JSON.stringify(older)]);
      await reloadRealm(fresh.app); // as a start on that data dir reads it
      expect((await fresh.users.hamlet.client.post("/register", { fetch_event_types: ["realm"] })).success().realm_enable_read_receipts).toBe(false);
    } finally {
      await fresh.close();
    }
  });
});

describe("GET /messages/{message_id}/read_receipts", () => {
  test("lists the users who marked the message read, by id, without its sender", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "receipts", "did everyone see this?", { read_by_sender: true });
    await markRead("cordelia", id);
    await markRead("othello", id);
    const body = (await receipts("iago", id)).success();
    expect(body.user_ids).toEqual([s.users.othello.id, s.users.cordelia.id].sort((a, b) => a - b));
    // the sender's own copy is read, yet they are never listed; nor are those who have not read it
    expect((await s.app.db.get<{ flags: number }>("SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?", [s.users.hamlet.id, id]))!.flags & 1).toBe(1);
    expect((await receipts("hamlet", id)).success().user_ids).toEqual(body.user_ids);
  });

  test("marking the message unread again takes the user out", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "receipts", "read it twice");
    await markRead("othello", id);
    expect((await receipts("hamlet", id)).success().user_ids).toEqual([s.users.othello.id]);
    (await s.users.othello.client.post("/messages/flags", { messages: [id], op: "remove", flag: "read" })).success();
    expect((await receipts("hamlet", id)).success().user_ids).toEqual([]);
  });

  test("a direct message's receipts are for those in the conversation", async () => {
    const id = await sendDm(s, "hamlet", ["othello", "cordelia"], "our secret");
    await markRead("othello", id);
    expect((await receipts("cordelia", id)).success().user_ids).toEqual([s.users.othello.id]);
    (await receipts("iago", id)).error("Invalid message(s)");
  });

  test("users whose send_read_receipts setting is off are left out, and back when they turn it on", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "receipts", "privacy please");
    await markRead("othello", id);
    await markRead("cordelia", id);
    let events = await s.captureEvents(async () => (await s.users.cordelia.client.patch("/settings", { send_read_receipts: false })).success());
    expect(events.of("cordelia")).toContainEqual({ type: "user_settings", op: "update", property: "send_read_receipts", value: false });
    expect(events.of("othello")).toEqual([]);
    expect(JSON.parse((await s.app.db.get<{ settings: string }>("SELECT settings FROM users WHERE id = ?", [s.users.cordelia.id]))!.settings).send_read_receipts).toBe(false);
    expect((await s.users.cordelia.client.post("/register", { fetch_event_types: ["user_settings"] })).success().user_settings.send_read_receipts).toBe(false);
    expect((await receipts("hamlet", id)).success().user_ids).toEqual([s.users.othello.id]);
    events = await s.captureEvents(async () => (await s.users.cordelia.client.patch("/settings", { send_read_receipts: true })).success());
    expect(events.of("cordelia")).toContainEqual({ type: "user_settings", op: "update", property: "send_read_receipts", value: true });
    expect((await receipts("hamlet", id)).success().user_ids).toEqual([s.users.othello.id, s.users.cordelia.id].sort((a, b) => a - b));
  });

  test("users the asker muted, and users who muted the asker, are left out", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "receipts", "mute test");
    for (const who of ["othello", "cordelia", "shiva"] as const) await markRead(who, id);
    const all = [s.users.othello.id, s.users.cordelia.id, s.users.shiva.id].sort((a, b) => a - b);
    expect((await receipts("iago", id)).success().user_ids).toEqual(all);
    (await s.users.iago.client.post(`/users/me/muted_users/${s.users.othello.id}`)).success();
    (await s.users.cordelia.client.post(`/users/me/muted_users/${s.users.iago.id}`)).success();
    expect((await receipts("iago", id)).success().user_ids).toEqual([s.users.shiva.id]);
    // only the asker's own mutes count: the sender still sees everyone
    expect((await receipts("hamlet", id)).success().user_ids).toEqual(all);
    (await s.users.iago.client.delete(`/users/me/muted_users/${s.users.othello.id}`)).success();
    (await s.users.cordelia.client.delete(`/users/me/muted_users/${s.users.iago.id}`)).success();
    expect((await receipts("iago", id)).success().user_ids).toEqual(all);
  });

  test("deactivated users are left out; bots are included", async () => {
    const bot = (await s.users.othello.client.post("/bots", { full_name: "Reader Bot", short_name: "reader" })).success();
    const botEmail = (await s.app.db.get<{ email: string }>("SELECT email FROM users WHERE id = ?", [bot.user_id]))!.email;
    const botClient = s.clientFor(botEmail, bot.api_key);
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Denmark" }], principals: [bot.user_id] })).success();
    const id = await sendStream(s, "hamlet", "Denmark", "receipts", "bots read too");
    (await botClient.post("/messages/flags", { messages: [id], op: "add", flag: "read" })).success();
    await markRead("shiva", id);
    expect((await receipts("hamlet", id)).success().user_ids).toEqual([s.users.shiva.id, bot.user_id].sort((a, b) => a - b));
    (await s.users.iago.client.delete(`/users/${s.users.shiva.id}`)).success();
    try {
      expect((await receipts("hamlet", id)).success().user_ids).toEqual([bot.user_id]);
    } finally {
      (await s.users.iago.client.post(`/users/${s.users.shiva.id}/reactivate`)).success();
    }
    expect((await receipts("hamlet", id)).success().user_ids).toEqual([s.users.shiva.id, bot.user_id].sort((a, b) => a - b));
  });

  test("a guest may ask about a message in a channel they are in", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "receipts", "guests welcome");
    await markRead("othello", id);
    expect((await receipts("polonius", id)).success().user_ids).toEqual([s.users.othello.id]);
  });

  test("a message the asker cannot read is an invalid message, whether read receipts are on or off", async () => {
    await createChannel(s, "iago", "Secret", { invite_only: true, subscribers: ["othello"] });
    const secret = await sendStream(s, "iago", "Secret", "plans", "hush");
    await markRead("othello", secret);
    // the asker is listed like anyone else (only the sender never is)
    expect((await receipts("othello", secret)).success().user_ids).toEqual([s.users.othello.id]);
    (await receipts("hamlet", secret)).error("Invalid message(s)");
    (await receipts("hamlet", 999_999)).error("Invalid message(s)");
    await setRealm(false);
    (await receipts("hamlet", secret)).error("Invalid message(s)");
  });

  test("with read receipts off in the organization, the answer is an error", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "receipts", "switched off");
    await markRead("othello", id);
    const events = await s.captureEvents(() => setRealm(false));
    expect(events.of("polonius")).toContainEqual({ type: "realm", op: "update", property: "enable_read_receipts", value: false });
    expect((await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm"] })).success().realm_enable_read_receipts).toBe(false);
    (await receipts("hamlet", id)).error("Read receipts are disabled in this organization.");
    // only administrators may turn them on
    (await s.users.hamlet.client.patch("/realm", { enable_read_receipts: true })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL", 400);
    (await receipts("hamlet", id)).error("Read receipts are disabled in this organization.");
  });

  test("bad ids and missing credentials are refused without a stack trace", async () => {
    (await receipts("hamlet", "abc")).error("Invalid message_id");
    (await s.anonymous.get("/messages/1/read_receipts")).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
  });
});
