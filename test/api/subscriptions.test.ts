import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { reloadRealm } from "../../src/app";
import { createUser } from "../../src/actions/users";
import { ROLE } from "../../src/domain/roles";
import { startServer, type TestServer } from "../helpers/server";
import { channelId, createChannel, subscriberIds } from "../helpers/channels";

let s: TestServer;
let g: (name: string) => number;
beforeAll(async () => {
  s = await startServer();
  g = (name) => s.app.systemGroups.get(name as never)!;
});
afterAll(() => s.close());

const sub = (userId: number, streamId: number) => s.app.db.get<any>("SELECT * FROM subscriptions WHERE user_id = ? AND stream_id = ?", [userId, streamId]);
/** Channel and subscription events, without the message events of Notification Bot's notices. */
const kinds = (events: any[]) => events.filter((e) => e.type !== "message").map((e) => `${e.type}:${e.op}`);
const nonMessage = (events: any[]) => events.filter((e) => e.type !== "message");

describe("subscribing others", () => {
  test("a member subscribes another user to a public channel; the others see peer_add", async () => {
    const id = await createChannel(s, "hamlet", "Rome");
    const ev = await s.captureEvents(async () => {
      const r = (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Rome" }], principals: [s.users.othello.id] })).success();
      expect(r.subscribed).toEqual({ [s.users.othello.id]: ["Rome"] });
      expect(r.new_subscription_messages_sent).toBe(true);
    });
    expect(kinds(ev.of("othello"))).toEqual(["subscription:add"]);
    expect((nonMessage(ev.of("othello"))[0] as any).subscriptions[0].subscribers).toEqual([s.users.hamlet.id, s.users.othello.id].sort((a, b) => a - b));
    expect(ev.of("cordelia")).toEqual([{ type: "subscription", op: "peer_add", stream_ids: [id], user_ids: [s.users.othello.id] }]);
    expect(ev.of("hamlet")).toEqual([{ type: "subscription", op: "peer_add", stream_ids: [id], user_ids: [s.users.othello.id] }]);
    expect(ev.of("polonius")).toEqual([]);
  });

  test("principals may be emails; unknown or deactivated principals are 'No such user' (400)", async () => {
    await createChannel(s, "hamlet", "Milan");
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Milan" }], principals: ["cordelia@zulip.com"] })).success();
    expect(await sub(s.users.cordelia.id, await channelId(s, "Milan"))).toMatchObject({ active: 1 });
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Milan" }], principals: [99999] })).error("No such user", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Milan" }], principals: ["nobody@zulip.com"] })).error("No such user", "BAD_REQUEST", 400);
    const gone = await createUser(s.app, null, { email: "gone@zulip.com", fullName: "Gone", password: null, role: ROLE.member });
    await s.app.db.run("UPDATE users SET is_active = 0 WHERE id = ?", [gone.userId]);
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Milan" }], principals: [gone.userId] })).error("No such user", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Milan" }], principals: [1, "x@zulip.com"] })).error(
      "principals[1] is not an integer",
    );
  });

  test("subscribing a guest to a public channel first shows them the channel", async () => {
    const id = await createChannel(s, "iago", "Padua");
    const ev = await s.captureEvents(async () => (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Padua" }], principals: [s.users.polonius.id] })).success());
    expect(kinds(ev.of("polonius"))).toEqual(["stream:create", "subscription:add"]);
    expect((ev.of("polonius")[0] as any).streams[0].stream_id).toBe(id);
  });

  test("the organization's can_add_subscribers_group limits who subscribes others; the channel's group adds to it", async () => {
    const id = await createChannel(s, "hamlet", "Venice");
    await s.app.db.run(`UPDATE realm SET settings = json_set(settings, '$.can_add_subscribers_group', ?)`, [g("role:administrators")]);
    await reloadRealm(s.app);
    try {
      (await s.users.othello.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Venice" }], principals: [s.users.cordelia.id] })).error("Insufficient permission");
      // subscribing oneself is still fine, and the channel's administrator (its creator) may add others
      (await s.users.othello.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Venice" }], principals: [s.users.othello.id] })).success();
      (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Venice" }], principals: [s.users.shiva.id] })).success();
      (await s.users.iago.client.patch(`/streams/${id}`, { can_add_subscribers_group: { new: g("role:members") } })).success();
      (await s.users.othello.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Venice" }], principals: [s.users.cordelia.id] })).success();
      expect(await subscriberIds(s, id)).toEqual([s.users.shiva.id, s.users.hamlet.id, s.users.othello.id, s.users.cordelia.id].sort((a, b) => a - b));
      // newly created channels are always the creator's to fill
      (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Venice2" }], principals: [s.users.othello.id] })).success();
    } finally {
      await s.app.db.run(`UPDATE realm SET settings = json_set(settings, '$.can_add_subscribers_group', ?)`, [g("role:members")]);
      await reloadRealm(s.app);
    }
  });

  test("private channels: non-subscribers cannot subscribe anyone; authorization errors may be non-fatal", async () => {
    const id = await createChannel(s, "othello", "Cyprus", { invite_only: true });
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Cyprus" }] })).error("Unable to access channel (Cyprus).");
    const r = (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Cyprus" }, { name: "Rome" }], authorization_errors_fatal: false })).success();
    expect(r.unauthorized).toEqual(["Cyprus"]);
    expect(r.already_subscribed).toEqual({ [s.users.hamlet.id]: ["Rome"] });
    expect(await subscriberIds(s, id)).toEqual([s.users.othello.id]);
    (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Cyprus" }] })).error("Unable to access channel (Cyprus).");
  });

  test("a subscriber adds someone to a private channel, who then learns of it", async () => {
    const id = await channelId(s, "Cyprus");
    const ev = await s.captureEvents(async () => (await s.users.othello.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Cyprus" }], principals: [s.users.cordelia.id] })).success());
    expect(kinds(ev.of("cordelia"))).toEqual(["stream:create", "subscription:add"]);
    expect(nonMessage(ev.of("othello"))).toEqual([{ type: "subscription", op: "peer_add", stream_ids: [id], user_ids: [s.users.cordelia.id] }]);
    expect(ev.of("iago")).toEqual([{ type: "subscription", op: "peer_add", stream_ids: [id], user_ids: [s.users.cordelia.id] }]);
    expect(ev.of("hamlet")).toEqual([]);
  });

  test("can_subscribe_group lets its members join a private channel themselves", async () => {
    const id = await createChannel(s, "othello", "Cyprus2", { invite_only: true, extra: { can_subscribe_group: g("role:members"), history_public_to_subscribers: true } });
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Cyprus2" }] })).success();
    (await s.users.polonius.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Cyprus2" }] })).error("Not allowed for guest users");
    expect(await subscriberIds(s, id)).toEqual([s.users.othello.id, s.users.hamlet.id].sort((a, b) => a - b));
  });

  test("archived channels cannot be subscribed to", async () => {
    const id = await createChannel(s, "hamlet", "Ruins");
    (await s.users.hamlet.client.delete(`/streams/${id}`)).success();
    (await s.users.cordelia.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Ruins" }] })).error("Unable to access channel (Ruins).");
  });
});

describe("Notification Bot's notices", () => {
  const lastMessage = (where: string, args: unknown[]) =>
    s.app.db.get<any>(`SELECT m.*, u.email AS sender_email FROM messages m JOIN users u ON u.id = m.sender_id WHERE ${where} ORDER BY m.id DESC LIMIT 1`, args as any);

  test("a new channel gets its creation notice in the channel events topic", async () => {
    const id = await createChannel(s, "hamlet", "Noticed", { description: "Where *notices* go" });
    const m = await lastMessage("m.stream_id = ?", [id]);
    expect(m).toMatchObject({ topic: "channel events", sender_email: "notification-bot@zulip.com" });
    expect(m.content).toBe(`**Public** channel created by @_**King Hamlet|${s.users.hamlet.id}**. **Description:**\n\`\`\`\` quote\nWhere *notices* go\n\`\`\`\``);
  });

  test("the creation notice and the announcement are already read for the creator, unread for everyone else", async () => {
    const news = await createChannel(s, "iago", "Read Announcements", { subscribers: ["hamlet", "othello"] });
    await s.app.db.run(`UPDATE realm SET settings = json_set(settings, '$.new_stream_announcements_stream_id', ?)`, [news]);
    await reloadRealm(s.app);
    try {
      const ev = await s.captureEvents(async () => {
        (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Self Made" }], principals: [s.users.hamlet.id, s.users.othello.id], announce: true })).success();
      });
      const created = await channelId(s, "Self Made");
      const notice = (await lastMessage("m.stream_id = ?", [created])).id;
      const announcement = (await lastMessage("m.stream_id = ? AND m.topic = 'new channels'", [news])).id;
      const flags = (userId: number, messageId: number) =>
        s.app.db.get<{ flags: number }>("SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?", [userId, messageId]).then((r) => r!.flags & 1);
      for (const id of [notice, announcement]) {
        expect(await flags(s.users.hamlet.id, id)).toBe(1);
        expect(await flags(s.users.othello.id, id)).toBe(0);
      }
      const messageFlags = (events: any[], id: number) => events.find((e) => e.type === "message" && e.message.id === id)?.flags;
      expect(messageFlags(ev.of("hamlet"), notice)).toContain("read");
      expect(messageFlags(ev.of("hamlet"), announcement)).toContain("read");
      expect(messageFlags(ev.of("othello"), notice)).not.toContain("read");
      expect(messageFlags(ev.of("iago"), announcement)).not.toContain("read");
      const unread = async (name: "hamlet" | "othello") =>
        (await s.users[name].client.get("/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow: [{ operator: "is", operand: "unread" }] })).success().messages.map((m: any) => m.id);
      expect(await unread("hamlet")).not.toContain(notice);
      expect(await unread("othello")).toContain(notice);
    } finally {
      await s.app.db.run(`UPDATE realm SET settings = json_remove(settings, '$.new_stream_announcements_stream_id')`);
      await reloadRealm(s.app);
    }
  });

  test("announce posts in the new-channel announcements channel, when there is one", async () => {
    const news = await createChannel(s, "iago", "Announcements");
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Quiet" }], announce: true })).success();
    expect(await lastMessage("m.stream_id = ? AND m.topic = 'new channels'", [news])).toBeUndefined();
    await s.app.db.run(`UPDATE realm SET settings = json_set(settings, '$.new_stream_announcements_stream_id', ?)`, [news]);
    await reloadRealm(s.app);
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Loud" }] })).success();
    expect(await lastMessage("m.stream_id = ? AND m.topic = 'new channels'", [news])).toBeUndefined();
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Louder" }], announce: true })).success();
    const m = await lastMessage("m.stream_id = ? AND m.topic = 'new channels'", [news]);
    expect(m.content).toBe(`@_**King Hamlet|${s.users.hamlet.id}** created a new channel #**Louder**.`);
  });

  test("users subscribed by someone else get a direct message, unless the request says not to", async () => {
    await createChannel(s, "hamlet", "Invited");
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Invited" }], principals: [s.users.shiva.id] })).success();
    const dm = await lastMessage("m.dm_key IS NOT NULL AND m.sender_id = (SELECT id FROM users WHERE email = 'notification-bot@zulip.com')", []);
    expect(dm.content).toBe(`@_**King Hamlet|${s.users.hamlet.id}** subscribed you to #**Invited**.`);
    expect(dm.dm_key.split(",").map(Number)).toContain(s.users.shiva.id);
    await createChannel(s, "hamlet", "Invited2");
    const before = (await s.app.db.get<any>("SELECT count(*) AS n FROM messages WHERE dm_key IS NOT NULL")).n;
    const r = (
      await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Invited2" }], principals: [s.users.shiva.id], send_new_subscription_messages: false })
    ).success();
    expect(r.new_subscription_messages_sent).toBeUndefined();
    expect((await s.app.db.get<any>("SELECT count(*) AS n FROM messages WHERE dm_key IS NOT NULL")).n).toBe(before);
  });
});

describe("colours", () => {
  test("new subscriptions take distinct palette colours; a requested colour is used; bad colours are refused", async () => {
    (await s.users.shiva.client.post("/users/me/subscriptions", { subscriptions: [{ name: "c1" }, { name: "c2" }, { name: "c3", color: "#123abc" }] })).success();
    const colors = await s.app.db.all<any>(
      "SELECT s.color FROM subscriptions s JOIN streams t ON t.id = s.stream_id WHERE s.user_id = ? AND t.name IN ('c1', 'c2', 'c3') ORDER BY t.name",
      [s.users.shiva.id],
    );
    expect(colors[0].color).not.toBe(colors[1].color);
    expect(colors[2].color).toBe("#123abc");
    (await s.users.shiva.client.post("/users/me/subscriptions", { subscriptions: [{ name: "c4", color: "red" }] })).error("add.color is not a valid hex color code");
  });
});

describe("unsubscribing", () => {
  test("a user leaves channels: removed and not_removed, subscription remove, peer_remove to the others", async () => {
    const id = await createChannel(s, "hamlet", "Leaving", { subscribers: ["othello"] });
    const ev = await s.captureEvents(async () => {
      const r = (await s.users.othello.client.delete("/users/me/subscriptions", { subscriptions: ["Leaving", "Rome"] })).success();
      expect(r).toMatchObject({ removed: ["Leaving", "Rome"], not_removed: [] });
    });
    expect(ev.of("othello").find((e) => e.type === "subscription")).toEqual({
      type: "subscription",
      op: "remove",
      subscriptions: [
        { name: "Leaving", stream_id: id },
        { name: "Rome", stream_id: await channelId(s, "Rome") },
      ],
    });
    expect(ev.of("cordelia")).toContainEqual({ type: "subscription", op: "peer_remove", stream_ids: [id], user_ids: [s.users.othello.id] });
    expect((await sub(s.users.othello.id, id)).active).toBe(0);
    const again = (await s.users.othello.client.delete("/users/me/subscriptions", { subscriptions: ["Leaving"] })).success();
    expect(again).toMatchObject({ removed: [], not_removed: ["Leaving"] });
  });

  test("leaving a private channel hides it from a member", async () => {
    const id = await createChannel(s, "hamlet", "Hideout", { invite_only: true, subscribers: ["cordelia"] });
    const ev = await s.captureEvents(async () => (await s.users.cordelia.client.delete("/users/me/subscriptions", { subscriptions: ["Hideout"] })).success());
    expect(kinds(ev.of("cordelia"))).toEqual(["subscription:remove", "stream:delete"]);
    expect(ev.of("hamlet")).toEqual([{ type: "subscription", op: "peer_remove", stream_ids: [id], user_ids: [s.users.cordelia.id] }]);
    expect(ev.of("othello")).toEqual([]);
  });

  test("a channel that does not exist is STREAM_DOES_NOT_EXIST naming it", async () => {
    const r = (await s.users.hamlet.client.delete("/users/me/subscriptions", { subscriptions: ["Rome", "Atlantis"] })).error("Channel 'Atlantis' does not exist", "STREAM_DOES_NOT_EXIST");
    expect(r.stream).toBe("Atlantis");
    expect((await sub(s.users.hamlet.id, await channelId(s, "Rome"))).active).toBe(1);
  });

  test("members may not remove others; administrators may; deactivated principals are 'No such user'", async () => {
    const id = await createChannel(s, "hamlet", "Removal", { subscribers: ["othello", "cordelia"] });
    (await s.users.cordelia.client.delete("/users/me/subscriptions", { subscriptions: ["Removal"], principals: [s.users.othello.id] })).error("Insufficient permission");
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["Removal"], principals: ["othello@zulip.com"] })).success();
    expect((await sub(s.users.othello.id, id)).active).toBe(0);
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["Removal"], principals: [424242] })).error("No such user", "BAD_REQUEST", 400);
  });

  test("members of can_remove_subscribers_group with access may remove others", async () => {
    const id = await createChannel(s, "hamlet", "Removal2", { subscribers: ["cordelia"], extra: { can_remove_subscribers_group: g("role:members") } });
    (await s.users.othello.client.delete("/users/me/subscriptions", { subscriptions: ["Removal2"], principals: [s.users.cordelia.id] })).success();
    expect(await subscriberIds(s, id)).toEqual([s.users.hamlet.id]);
    const priv = await createChannel(s, "hamlet", "Removal3", { invite_only: true, subscribers: ["cordelia"], extra: { can_remove_subscribers_group: g("role:members") } });
    (await s.users.othello.client.delete("/users/me/subscriptions", { subscriptions: ["Removal3"], principals: [s.users.cordelia.id] })).error("Insufficient permission");
    (await s.users.hamlet.client.delete("/users/me/subscriptions", { subscriptions: ["Removal3"], principals: [s.users.cordelia.id] })).success();
    expect(await subscriberIds(s, priv)).toEqual([s.users.hamlet.id]);
  });

  test("a user may remove a bot they own", async () => {
    const bot = await createUser(s.app, null, { email: "helper-bot@zulip.com", fullName: "Helper", password: null, role: ROLE.member, isBot: true, botType: 1, botOwnerId: s.users.hamlet.id });
    const id = await createChannel(s, "hamlet", "Bots", { subscribers: ["othello"] });
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Bots" }], principals: [bot.userId] })).success();
    (await s.users.othello.client.delete("/users/me/subscriptions", { subscriptions: ["Bots"], principals: [bot.userId] })).error("Insufficient permission");
    (await s.users.hamlet.client.delete("/users/me/subscriptions", { subscriptions: ["Bots"], principals: [bot.userId] })).success();
    expect(await subscriberIds(s, id)).not.toContain(bot.userId);
  });

  test("resubscribing keeps the old settings", async () => {
    const id = await createChannel(s, "cordelia", "Return");
    (await s.users.cordelia.client.patch(`/users/me/subscriptions/${id}`, { property: "color", value: "#abcdef" })).success();
    (await s.users.cordelia.client.delete("/users/me/subscriptions", { subscriptions: ["Return"] })).success();
    (await s.users.cordelia.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Return" }] })).success();
    expect(await sub(s.users.cordelia.id, id)).toMatchObject({ active: 1, color: "#abcdef" });
  });
});

describe("reading subscriptions", () => {
  test("GET /users/me/subscriptions lists active subscriptions, with subscribers on request", async () => {
    const without = (await s.users.othello.client.get("/users/me/subscriptions")).success().subscriptions;
    expect(without.every((x: any) => x.subscribers === undefined)).toBe(true);
    const names = without.map((x: any) => x.name);
    expect(names).toContain("Cyprus");
    expect(names).not.toContain("Leaving");
    expect(names).not.toContain("Rome");
    const withSubs = (await s.users.hamlet.client.get("/users/me/subscriptions", { include_subscribers: true })).success().subscriptions;
    const rome = withSubs.find((x: any) => x.name === "Rome");
    expect(rome.subscribers).toEqual(await subscriberIds(s, rome.stream_id));
    expect(rome).toMatchObject({ is_muted: false, in_home_view: true, pin_to_top: false, desktop_notifications: null });
  });

  test("in /register, unset notification settings are null only for clients with notification_settings_null", async () => {
    const cordelia = s.users.cordelia.client;
    const id = await createChannel(s, "iago", "Notices", { subscribers: ["cordelia"] });
    (await cordelia.patch(`/users/me/subscriptions/${id}`, { property: "push_notifications", value: false })).success();
    (await cordelia.patch("/settings", { enable_stream_desktop_notifications: true, enable_stream_push_notifications: true, wildcard_mentions_notify: false })).success();
    const mine = async (capabilities?: Record<string, boolean>) =>
      ((await cordelia.post("/register", { event_types: ["subscription"], ...(capabilities ? { client_capabilities: capabilities } : {}) } as any)).success().subscriptions as any[]).find(
        (x) => x.stream_id === id,
      );
    const settings = (x: any) => [x.desktop_notifications, x.audible_notifications, x.push_notifications, x.email_notifications, x.wildcard_mentions_notify];
    expect(settings(await mine({ notification_settings_null: true }))).toEqual([null, null, false, null, null]);
    // Zulip's build_stream_dict_for_sub: the user's global values, the channel's own where set
    const globals = (await cordelia.post("/register", { event_types: ["user_settings"], client_capabilities: { user_settings_object: true } } as any)).success().user_settings;
    const inherited = [true, globals.enable_stream_audible_notifications, false, globals.enable_stream_email_notifications, false];
    expect(settings(await mine())).toEqual(inherited);
    expect(settings(await mine({ notification_settings_null: false }))).toEqual(inherited);
    expect(inherited.every((v) => typeof v === "boolean")).toBe(true);
    (await cordelia.patch("/settings", { enable_stream_desktop_notifications: false, enable_stream_push_notifications: false, wildcard_mentions_notify: true })).success();
  });

  test("GET /users/{user_id}/subscriptions/{stream_id} answers is_subscribed for channels the caller may know of", async () => {
    const rome = await channelId(s, "Rome");
    expect((await s.users.cordelia.client.get(`/users/${s.users.othello.id}/subscriptions/${rome}`)).success().is_subscribed).toBe(false);
    expect((await s.users.cordelia.client.get(`/users/${s.users.hamlet.id}/subscriptions/${rome}`)).success().is_subscribed).toBe(true);
    const hideout = await channelId(s, "Hideout");
    (await s.users.othello.client.get(`/users/${s.users.hamlet.id}/subscriptions/${hideout}`)).error("Invalid channel ID");
    (await s.users.cordelia.client.get(`/users/424242/subscriptions/${rome}`)).error("No such user");
  });
});

describe("subscription settings", () => {
  test("is_muted and in_home_view each emit two update events", async () => {
    const id = await channelId(s, "Rome");
    const ev = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/users/me/subscriptions/${id}`, { property: "is_muted", value: true })).success());
    expect(ev.of("hamlet")).toEqual([
      { type: "subscription", op: "update", property: "in_home_view", value: false, stream_id: id },
      { type: "subscription", op: "update", property: "is_muted", value: true, stream_id: id },
    ]);
    expect(ev.of("othello")).toEqual([]);
    expect((await sub(s.users.hamlet.id, id)).is_muted).toBe(1);
    const back = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/users/me/subscriptions/${id}`, { property: "in_home_view", value: true })).success());
    expect(back.of("hamlet")).toEqual([
      { type: "subscription", op: "update", property: "in_home_view", value: true, stream_id: id },
      { type: "subscription", op: "update", property: "is_muted", value: false, stream_id: id },
    ]);
    expect((await sub(s.users.hamlet.id, id)).is_muted).toBe(0);
  });

  test("every other property is stored and echoed", async () => {
    const id = await channelId(s, "Rome");
    for (const property of ["pin_to_top", "desktop_notifications", "audible_notifications", "push_notifications", "email_notifications", "wildcard_mentions_notify"]) {
      const ev = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/users/me/subscriptions/${id}`, { property, value: true })).success());
      expect(ev.of("hamlet")).toEqual([{ type: "subscription", op: "update", property, value: true, stream_id: id }]);
      expect((await sub(s.users.hamlet.id, id))[property]).toBe(1);
    }
    (await s.users.hamlet.client.patch(`/users/me/subscriptions/${id}`, { property: "color", value: "#00ff00" })).success();
    expect((await sub(s.users.hamlet.id, id)).color).toBe("#00ff00");
  });

  test("bad properties, values and channels are refused", async () => {
    const id = await channelId(s, "Rome");
    const c = s.users.hamlet.client;
    (await c.patch(`/users/me/subscriptions/${id}`, { property: "color", value: "green" })).error("color is not a valid hex color code");
    (await c.patch(`/users/me/subscriptions/${id}`, { property: "pin_to_top", value: "yes" })).error("pin_to_top is not a boolean");
    (await c.patch(`/users/me/subscriptions/${id}`, { property: "volume", value: true })).error("Unknown subscription property: volume");
    (await c.patch(`/users/me/subscriptions/${id}`, { value: true })).error("Missing 'property' argument", "REQUEST_VARIABLE_MISSING");
    (await s.users.othello.client.patch(`/users/me/subscriptions/${await channelId(s, "Leaving")}`, { property: "pin_to_top", value: true })).error(
      `Not subscribed to channel ID ${await channelId(s, "Leaving")}`,
    );
    (await s.users.othello.client.patch(`/users/me/subscriptions/${await channelId(s, "Hideout")}`, { property: "pin_to_top", value: true })).error("Invalid channel ID");
  });

  test("POST /users/me/subscriptions/properties applies several changes together", async () => {
    const rome = await channelId(s, "Rome");
    const milan = await channelId(s, "Milan");
    const ev = await s.captureEvents(async () =>
      (
        await s.users.hamlet.client.post("/users/me/subscriptions/properties", {
          subscription_data: [
            { stream_id: rome, property: "pin_to_top", value: false },
            { stream_id: milan, property: "color", value: "#111111" },
          ],
        })
      ).success(),
    );
    expect(ev.of("hamlet")).toEqual([
      { type: "subscription", op: "update", property: "pin_to_top", value: false, stream_id: rome },
      { type: "subscription", op: "update", property: "color", value: "#111111", stream_id: milan },
    ]);
    (
      await s.users.hamlet.client.post("/users/me/subscriptions/properties", {
        subscription_data: [
          { stream_id: rome, property: "pin_to_top", value: true },
          { stream_id: milan, property: "color", value: "nope" },
        ],
      })
    ).error("color is not a valid hex color code");
    expect((await sub(s.users.hamlet.id, rome)).pin_to_top).toBe(0);
  });
});

describe("/register", () => {
  test("subscription state: subscriptions, unsubscribed and never_subscribed", async () => {
    const r = (await s.users.othello.client.post("/register", { fetch_event_types: ["subscription"] })).success();
    const names = (xs: any[]) => xs.map((x) => x.name);
    expect(names(r.subscriptions)).toContain("Cyprus");
    expect(names(r.unsubscribed)).toEqual(expect.arrayContaining(["Leaving", "Rome"]));
    expect(names(r.never_subscribed)).toContain("Padua");
    expect(names(r.never_subscribed)).not.toContain("Hideout");
    expect(names([...r.subscriptions, ...r.unsubscribed, ...r.never_subscribed])).not.toContain("Ruins");
    expect(r.subscriptions[0].subscribers).toBeUndefined();
    const withSubs = (await s.users.othello.client.post("/register", { fetch_event_types: ["subscription"], include_subscribers: true })).success();
    const padua = withSubs.never_subscribed.find((x: any) => x.name === "Padua");
    expect(padua.subscribers).toEqual(await subscriberIds(s, padua.stream_id));
  });

  test("archived channels appear for clients that declare archived_channels", async () => {
    const r = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["subscription", "stream"], client_capabilities: { archived_channels: true } })).success();
    expect(r.subscriptions.map((x: any) => x.name)).toContain("Ruins");
    expect(r.streams.map((x: any) => x.name)).toContain("Ruins");
  });

  test("stream state: the channels the user may know of", async () => {
    const guest = (await s.users.polonius.client.post("/register", { fetch_event_types: ["stream"] })).success();
    expect(guest.streams.map((x: any) => x.name)).toEqual(["Padua"]);
    const admin = (await s.users.iago.client.post("/register", { fetch_event_types: ["stream"] })).success();
    expect(admin.streams.map((x: any) => x.name)).toContain("Hideout");
  });
});
