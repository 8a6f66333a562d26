import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { channelId, createChannel, subscriberIds, subscribeTo } from "../helpers/channels";

let s: TestServer;
let denmark: number;
let secret: number;
let web: number;

beforeAll(async () => {
  s = await startServer({ config: (c) => (c.limits.max_stream_name_length = 30) });
  denmark = await createChannel(s, "hamlet", "Denmark", { description: "A **Scandinavian** country", subscribers: ["othello"] });
  secret = await createChannel(s, "othello", "secret", { invite_only: true, subscribers: ["polonius"] });
  await s.app.db.run(`UPDATE realm SET settings = json_set(settings, '$.enable_spectator_access', json('true'))`);
  const { reloadRealm } = await import("../../src/app");
  await reloadRealm(s.app);
  web = await createChannel(s, "desdemona", "web", { is_web_public: true });
});
afterAll(() => s.close());

const names = (streams: { name: string }[]) => streams.map((x) => x.name);
/** Channel and subscription events, without the message events of Notification Bot's notices. */
const kinds = (events: any[]) => events.filter((e) => e.type !== "message").map((e) => `${e.type}:${e.op}`);

describe("creating channels through POST /users/me/subscriptions", () => {
  test("a new channel gets an id, its creator, a date, defaults and a subscription for the creator", async () => {
    const row = await s.app.db.get<any>("SELECT * FROM streams WHERE id = ?", [denmark]);
    expect(row.creator_id).toBe(s.users.hamlet.id);
    expect(row.date_created).toBe(s.clock.ms / 1000);
    expect(row.invite_only).toBe(0);
    expect(row.history_public_to_subscribers).toBe(1);
    expect(row.topics_policy).toBe("inherit");
    expect(row.recipient_id).toBeGreaterThan(0);
    expect(await subscriberIds(s, denmark)).toEqual([s.users.hamlet.id, s.users.othello.id].sort((a, b) => a - b));
    const stream = (await s.users.hamlet.client.get(`/streams/${denmark}`)).success().stream;
    expect(stream).toMatchObject({
      name: "Denmark",
      description: "A **Scandinavian** country",
      creator_id: s.users.hamlet.id,
      invite_only: false,
      is_archived: false,
      can_administer_channel_group: { direct_members: [s.users.hamlet.id], direct_subgroups: [] },
      can_add_subscribers_group: s.app.systemGroups.get("role:nobody"),
      can_remove_subscribers_group: s.app.systemGroups.get("role:administrators"),
      can_send_message_group: s.app.systemGroups.get("role:everyone"),
      can_create_topic_group: s.app.systemGroups.get("role:everyone"),
      can_delete_any_message_group: s.app.systemGroups.get("role:nobody"),
      can_delete_own_message_group: s.app.systemGroups.get("role:nobody"),
      subscriber_count: 2,
      stream_post_policy: 1,
      topics_policy: "inherit",
      folder_id: null,
    });
    expect(stream.rendered_description).toBe("<p>A <strong>Scandinavian</strong> country</p>");
  });

  test("the response lists who was subscribed and who already was, keyed by user id", async () => {
    const r = (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Denmark" }, { name: "Elsinore" }] })).success();
    expect(r.subscribed).toEqual({ [s.users.hamlet.id]: ["Elsinore"] });
    expect(r.already_subscribed).toEqual({ [s.users.hamlet.id]: ["Denmark"] });
    expect(r.unauthorized).toBeUndefined();
  });

  test("public channel creation is announced to every non-guest; the creator also gets the subscription", async () => {
    const ev = await s.captureEvents(() => createChannel(s, "cordelia", "Verona"));
    for (const name of ["desdemona", "iago", "shiva", "hamlet", "othello"] as const) {
      expect(kinds(ev.of(name))).toEqual(["stream:create", "subscription:peer_add"]);
    }
    expect(ev.of("polonius")).toEqual([]);
    expect(kinds(ev.of("cordelia"))).toEqual(["stream:create", "subscription:add"]);
    const add = ev.of("cordelia")[1] as any;
    expect(add.subscriptions[0]).toMatchObject({ name: "Verona", subscribers: [s.users.cordelia.id], color: expect.stringMatching(/^#[0-9a-f]{6}$/) });
  });

  test("private channel creation is announced only to administrators and its subscribers", async () => {
    const ev = await s.captureEvents(() => createChannel(s, "hamlet", "conspiracy", { invite_only: true, subscribers: ["cordelia"] }));
    expect(ev.of("desdemona").map((e) => e.type)).toContain("stream");
    expect(ev.of("iago").map((e) => e.type)).toContain("stream");
    expect(ev.of("shiva")).toEqual([]);
    expect(ev.of("othello")).toEqual([]);
    expect(ev.of("polonius")).toEqual([]);
    expect(kinds(ev.of("cordelia"))).toEqual(["stream:create", "subscription:add"]);
    const row = await s.app.db.get<any>("SELECT invite_only, history_public_to_subscribers FROM streams WHERE name = 'conspiracy'");
    expect(row).toMatchObject({ invite_only: 1, history_public_to_subscribers: 0 });
  });

  test("guests may not subscribe or create channels", async () => {
    (await s.users.polonius.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Denmark" }] })).error("Not allowed for guest users");
  });

  test("channel names are checked: empty, too long, unprintable", async () => {
    const c = s.users.hamlet.client;
    (await c.post("/users/me/subscriptions", { subscriptions: [{ name: "   " }] })).error("Channel name can't be empty.");
    (await c.post("/users/me/subscriptions", { subscriptions: [{ name: "x".repeat(31) }] })).error("Channel name too long (limit: 30 characters).");
    (await c.post("/users/me/subscriptions", { subscriptions: [{ name: "bad\u0001name" }] })).error("Invalid character in channel name, at position 4.");
    (await c.post("/users/me/subscriptions", { subscriptions: "Denmark" })).error("subscriptions is not valid JSON");
    (await c.post("/users/me/subscriptions", { subscriptions: '"Denmark"' })).error("subscriptions is not a list");
  });

  test("the organization's creation groups decide who may create public and private channels", async () => {
    const admins = s.app.systemGroups.get("role:administrators")!;
    await s.app.db.run(`UPDATE realm SET settings = json_set(settings, '$.can_create_private_channel_group', ?)`, [admins]);
    const { reloadRealm } = await import("../../src/app");
    await reloadRealm(s.app);
    try {
      (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "hidden" }], invite_only: true })).error("Insufficient permission");
      expect(await s.app.db.get("SELECT id FROM streams WHERE name = 'hidden'")).toBeUndefined();
      (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "hidden" }], invite_only: true })).success();
      // subscribing to existing channels needs no creation permission
      (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Verona" }], invite_only: true })).success();
    } finally {
      await s.app.db.run(`UPDATE realm SET settings = json_remove(settings, '$.can_create_private_channel_group')`);
      await reloadRealm(s.app);
      await s.app.db.run(`UPDATE realm SET settings = json_set(settings, '$.can_create_private_channel_group', ?)`, [s.app.systemGroups.get("role:members")!]);
      await reloadRealm(s.app);
    }
  });

  test("only administrators create default channels, which cannot be private", async () => {
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "lobby" }], is_default_stream: true })).error("Insufficient permission");
    (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "lobby" }], is_default_stream: true, invite_only: true })).error(
      "A default channel cannot be private.",
    );
    const ev = await s.captureEvents(async () => {
      (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "lobby" }], is_default_stream: true })).success();
    });
    const lobby = await channelId(s, "lobby");
    expect(ev.of("polonius")).toContainEqual({ type: "default_streams", default_streams: [lobby] });
    const created = (await s.users.desdemona.client.post("/users", { email: "newbie@zulip.com", password: "secret123", full_name: "Newbie" })).success();
    expect(await subscriberIds(s, lobby)).toContain(created.user_id);
  });

  test("a new user joins the default channels (each with its own colour) and those who may see the subscribers get peer_add; bots do not join", async () => {
    const hall = await createChannel(s, "iago", "great hall", { is_default_stream: true, subscribers: ["hamlet"] });
    const lobby = await channelId(s, "lobby");
    const ev = await s.captureEvents(async () => {
      (await s.users.desdemona.client.post("/users", { email: "defaulted@zulip.com", password: "secret123", full_name: "Defaulted" })).success();
    });
    const user = (await s.app.db.get<{ id: number }>("SELECT id FROM users WHERE email = 'defaulted@zulip.com'"))!;
    const subs = await s.app.db.all<{ stream_id: number; color: string }>("SELECT stream_id, color FROM subscriptions WHERE user_id = ? AND active = 1 ORDER BY stream_id", [user.id]);
    expect(subs.map((r) => r.stream_id)).toEqual([lobby, hall].sort((a, b) => a - b));
    expect(new Set(subs.map((r) => r.color)).size).toBe(2);
    const peerAdds = (events: any[]) => events.filter((e) => e.type === "subscription" && e.op === "peer_add");
    expect(peerAdds(ev.of("hamlet"))).toContainEqual({ type: "subscription", op: "peer_add", stream_ids: [hall], user_ids: [user.id] });
    // a member may see any public channel's subscribers; a guest only those of their own channels
    expect(peerAdds(ev.of("cordelia")).map((e) => e.stream_ids[0]).sort()).toEqual([lobby, hall].sort());
    expect(peerAdds(ev.of("polonius"))).toEqual([]);
    // the realm_user add comes first, so clients know the new subscriber
    const hamlet = ev.of("hamlet");
    expect(hamlet.findIndex((e) => e.type === "realm_user" && e.op === "add")).toBeLessThan(hamlet.findIndex((e) => e.type === "subscription" && e.op === "peer_add"));

    const bot = (await s.users.hamlet.client.post("/bots", { full_name: "Hall Bot", short_name: "hall" })).success();
    expect(await s.app.db.all("SELECT stream_id FROM subscriptions WHERE user_id = ?", [bot.user_id])).toEqual([]);
  });

  test("web-public channels need spectator access and the web-public creation group (owners)", async () => {
    (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "webby" }], is_web_public: true })).error("Insufficient permission");
    const row = await s.app.db.get<any>("SELECT is_web_public FROM streams WHERE id = ?", [web]);
    expect(row.is_web_public).toBe(1);
  });

  test("a retention period other than the organization's needs an owner; bad values are refused", async () => {
    (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "short-lived" }], message_retention_days: 30 })).error(
      "Must be an organization owner",
      "UNAUTHORIZED_PRINCIPAL",
    );
    (await s.users.desdemona.client.post("/users/me/subscriptions", { subscriptions: [{ name: "short-lived" }], message_retention_days: "forever" })).error(
      "Bad value for 'message_retention_days': forever",
      "REQUEST_VARIABLE_INVALID",
    );
    (await s.users.desdemona.client.post("/users/me/subscriptions", { subscriptions: [{ name: "short-lived" }], message_retention_days: 30 })).success();
    (await s.users.desdemona.client.post("/users/me/subscriptions", { subscriptions: [{ name: "kept" }], message_retention_days: "unlimited" })).success();
    const rows = await s.app.db.all<any>("SELECT name, message_retention_days AS d FROM streams WHERE name IN ('short-lived', 'kept') ORDER BY name");
    expect(rows).toEqual([
      { name: "kept", d: -1 },
      { name: "short-lived", d: 30 },
    ]);
  });

  test("group settings can be given at creation, as ids or anonymous groups", async () => {
    const mods = s.app.systemGroups.get("role:moderators")!;
    (
      await s.users.hamlet.client.post("/users/me/subscriptions", {
        subscriptions: [{ name: "moderated" }],
        can_send_message_group: mods,
        can_remove_subscribers_group: { direct_members: [s.users.hamlet.id], direct_subgroups: [mods] },
      })
    ).success();
    const stream = (await s.users.hamlet.client.get(`/streams/${await channelId(s, "moderated")}`)).success().stream;
    expect(stream.can_send_message_group).toBe(mods);
    expect(stream.stream_post_policy).toBe(4);
    expect(stream.can_remove_subscribers_group).toEqual({ direct_members: [s.users.hamlet.id], direct_subgroups: [mods] });
  });

  test("invalid group-setting values are refused", async () => {
    const c = s.users.hamlet.client;
    (await c.post("/users/me/subscriptions", { subscriptions: [{ name: "g1" }], can_send_message_group: 9999 })).error("Invalid user group");
    (await c.post("/users/me/subscriptions", { subscriptions: [{ name: "g1" }], can_add_subscribers_group: s.app.systemGroups.get("role:everyone")! })).error(
      "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.",
    );
    (await c.post("/users/me/subscriptions", { subscriptions: [{ name: "g1" }], can_send_message_group: s.app.systemGroups.get("role:internet")! })).error(
      "'can_send_message_group' setting cannot be set to 'role:internet' group.",
    );
    (await c.post("/users/me/subscriptions", { subscriptions: [{ name: "g1" }], can_send_message_group: { direct_members: [4242], direct_subgroups: [] } })).error(
      "Invalid user ID: 4242",
    );
    (await c.post("/users/me/subscriptions", { subscriptions: [{ name: "g1" }], can_send_message_group: { direct_members: [s.users.hamlet.id], direct_subgroups: [777] } })).error(
      "Invalid user group ID: 777",
    );
    (await c.post("/users/me/subscriptions", { subscriptions: [{ name: "g1" }], can_send_message_group: '"admins"' })).error("can_send_message_group is not an integer");
    expect(await s.app.db.get("SELECT id FROM streams WHERE name = 'g1'")).toBeUndefined();
  });

  test("delete-message groups need the delete-policy permission; topic-creation groups need shared history", async () => {
    const everyone = s.app.systemGroups.get("role:everyone")!;
    const members = s.app.systemGroups.get("role:members")!;
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "g2" }], can_delete_own_message_group: everyone })).error("Insufficient permission");
    (await s.users.shiva.client.post("/users/me/subscriptions", { subscriptions: [{ name: "g2" }], can_delete_own_message_group: everyone })).success();
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "g3" }], invite_only: true, can_create_topic_group: members })).error(
      "Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group",
    );
    (
      await s.users.hamlet.client.post("/users/me/subscriptions", {
        subscriptions: [{ name: "g3" }],
        invite_only: true,
        history_public_to_subscribers: true,
        can_create_topic_group: members,
      })
    ).success();
  });

  test("topics_policy at creation: valid names only, and only with the topics-policy permission", async () => {
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "t1" }], topics_policy: "sometimes" })).error("Invalid topics_policy");
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "t1" }], topics_policy: "disable_empty_topic" })).error("Insufficient permission");
    (await s.users.shiva.client.post("/users/me/subscriptions", { subscriptions: [{ name: "t1" }], topics_policy: "disable_empty_topic" })).success();
    expect((await s.app.db.get<any>("SELECT topics_policy FROM streams WHERE name = 't1'")).topics_policy).toBe("disable_empty_topic");
  });

  test("stream_post_policy and is_announcement_only are ignored and reported", async () => {
    const r = (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Denmark" }], stream_post_policy: 2 })).success();
    expect(r.ignored_parameters_unsupported).toEqual(["stream_post_policy"]);
  });
});

describe("reading channels", () => {
  test("GET /streams lists public and subscribed channels by name; private ones stay hidden from others", async () => {
    const hamlet = names((await s.users.hamlet.client.get("/streams")).success().streams);
    expect(hamlet).toContain("Denmark");
    expect(hamlet).toContain("conspiracy");
    expect(hamlet).not.toContain("secret");
    expect(hamlet).toEqual([...hamlet].sort());
    const shiva = names((await s.users.shiva.client.get("/streams")).success().streams);
    expect(shiva).not.toContain("secret");
    expect(shiva).not.toContain("conspiracy");
  });

  test("guests see only their channels (and web-public ones when asked)", async () => {
    expect(names((await s.users.polonius.client.get("/streams")).success().streams)).toEqual(["secret"]);
    expect(names((await s.users.polonius.client.get("/streams", { include_web_public: true })).success().streams)).toEqual(["secret", "web"]);
  });

  test("include_all shows administrators every channel; members only what they may know of", async () => {
    const iago = names((await s.users.iago.client.get("/streams", { include_all: true })).success().streams);
    expect(iago).toContain("secret");
    const cordelia = names((await s.users.cordelia.client.get("/streams", { include_all: true })).success().streams);
    expect(cordelia).not.toContain("secret");
    expect(cordelia).toContain("conspiracy");
  });

  test("include_public=false and include_subscribed=false narrow the list; include_default marks defaults", async () => {
    const subscribed = names((await s.users.othello.client.get("/streams", { include_public: false })).success().streams);
    expect(subscribed).toEqual(["Denmark", "secret"]);
    expect((await s.users.othello.client.get("/streams", { include_public: false, include_subscribed: false })).success().streams).toEqual([]);
    const withDefault = (await s.users.othello.client.get("/streams", { include_default: true })).success().streams;
    expect(withDefault.find((x: any) => x.name === "lobby").is_default).toBe(true);
    expect(withDefault.find((x: any) => x.name === "Denmark").is_default).toBe(false);
  });

  test("include_owner_subscribed gives a bot its owner's channels", async () => {
    const { createUser } = await import("../../src/actions/users");
    const bot = await createUser(s.app, null, { email: "owned-bot@zulip.com", fullName: "Owned", password: null, role: 400, isBot: true, botType: 1, botOwnerId: s.users.othello.id });
    const c = s.clientFor(bot.email, bot.apiKey);
    expect((await c.get("/streams", { include_public: false, include_subscribed: false })).success().streams).toEqual([]);
    expect(names((await c.get("/streams", { include_public: false, include_subscribed: false, include_owner_subscribed: true })).success().streams)).toEqual(["Denmark", "secret"]);
  });

  test("GET /streams/{id}: private channels answer 'Invalid channel ID' to those who may not know of them", async () => {
    (await s.users.hamlet.client.get(`/streams/${secret}`)).error("Invalid channel ID");
    (await s.users.hamlet.client.get("/streams/999999")).error("Invalid channel ID");
    (await s.users.hamlet.client.get("/streams/abc")).error("Invalid stream_id");
    expect((await s.users.iago.client.get(`/streams/${secret}`)).success().stream.name).toBe("secret");
    expect((await s.users.polonius.client.get(`/streams/${secret}`)).success().stream.name).toBe("secret");
    (await s.users.polonius.client.get(`/streams/${denmark}`)).error("Invalid channel ID");
  });

  test("GET /get_stream_id finds accessible channels by name, case-insensitively", async () => {
    expect((await s.users.hamlet.client.get("/get_stream_id", { stream: "denmark" })).success().stream_id).toBe(denmark);
    (await s.users.hamlet.client.get("/get_stream_id", { stream: "secret" })).error("Invalid channel name 'secret'");
    (await s.users.hamlet.client.get("/get_stream_id", { stream: "nowhere" })).error("Invalid channel name 'nowhere'");
    (await s.users.hamlet.client.get("/get_stream_id")).error("Missing 'stream' argument", "REQUEST_VARIABLE_MISSING");
  });

  test("GET /streams/{id}/members lists active subscribers to those who may see them", async () => {
    expect((await s.users.cordelia.client.get(`/streams/${denmark}/members`)).success().subscribers).toEqual(await subscriberIds(s, denmark));
    expect((await s.users.iago.client.get(`/streams/${secret}/members`)).success().subscribers).toEqual(await subscriberIds(s, secret));
    (await s.users.cordelia.client.get(`/streams/${secret}/members`)).error("Invalid channel ID");
  });

  test("GET /users/me/{stream_id}/topics lists topics newest first, one per name", async () => {
    const recipient = (await s.app.db.get<any>("SELECT recipient_id FROM streams WHERE id = ?", [denmark])).recipient_id;
    const insert = async (topic: string) =>
      (
        await s.app.db.run(
          "INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent) VALUES (1, ?, ?, ?, ?, 'hi', '<p>hi</p>', 0)",
          [s.users.hamlet.id, recipient, denmark, topic],
        )
      ).lastId;
    const notice = (await s.app.db.get<any>("SELECT max(id) AS id FROM messages WHERE stream_id = ?", [denmark])).id;
    await insert("castle");
    const empty = await insert("");
    const castle = await insert("Castle");
    const ghosts = await insert("ghosts");
    // a case difference beyond ASCII is one topic too, as the newest message spells it
    await insert("éclair");
    const eclair = await insert("Éclair");
    const topics = (await s.users.cordelia.client.get(`/users/me/${denmark}/topics`)).success().topics;
    expect(topics).toEqual([
      { name: "Éclair", max_id: eclair },
      { name: "ghosts", max_id: ghosts },
      { name: "Castle", max_id: castle },
      { name: "general chat", max_id: empty },
      { name: "channel events", max_id: notice },
    ]);
    const raw = (await s.users.cordelia.client.get(`/users/me/${denmark}/topics`, { allow_empty_topic_name: true })).success().topics;
    expect(raw.map((x: any) => x.name)).toContain("");
    (await s.users.cordelia.client.get(`/users/me/${secret}/topics`)).error("Invalid channel ID");
  });

  test("topics of a protected-history channel are those of messages the user received", async () => {
    const conspiracy = await channelId(s, "conspiracy");
    const recipient = (await s.app.db.get<any>("SELECT recipient_id FROM streams WHERE id = ?", [conspiracy])).recipient_id;
    const ids: number[] = [];
    for (const topic of ["plans", "later"]) {
      const { lastId } = await s.app.db.run(
        "INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent) VALUES (1, ?, ?, ?, ?, 'x', '<p>x</p>', 0)",
        [s.users.hamlet.id, recipient, conspiracy, topic],
      );
      ids.push(lastId);
    }
    await s.app.db.run("DELETE FROM user_messages WHERE user_id = ? AND message_id IN (SELECT id FROM messages WHERE stream_id = ?)", [s.users.cordelia.id, conspiracy]);
    await s.app.db.run("INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, 0)", [s.users.cordelia.id, ids[0]]);
    expect((await s.users.cordelia.client.get(`/users/me/${conspiracy}/topics`)).success().topics).toEqual([{ name: "plans", max_id: ids[0] }]);
  });
});

describe("archiving channels", () => {
  test("members who do not administer a channel may not archive it", async () => {
    (await s.users.othello.client.delete(`/streams/${denmark}`)).error("You do not have permission to administer this channel.");
    (await s.users.hamlet.client.delete(`/streams/${secret}`)).error("Invalid channel ID");
  });

  test("the channel's administrator archives it; everyone who could see it is told", async () => {
    const doomed = await createChannel(s, "hamlet", "doomed", { is_default_stream: false });
    await s.app.db.run("INSERT INTO default_streams (realm_id, stream_id) VALUES (1, ?)", [doomed]);
    // a client without the archived_channels capability is told the old way
    const legacy = (await s.users.cordelia.client.post("/register", { event_types: ["stream"], client_capabilities: {} })).success().queue_id;
    const ev = await s.captureEvents(async () => (await s.users.hamlet.client.delete(`/streams/${doomed}`)).success());
    // clients that keep archived channels (archived_channels, as current clients declare) get is_archived and keep it
    expect(ev.of("cordelia")).toContainEqual({ type: "stream", op: "update", stream_id: doomed, name: "doomed", property: "is_archived", value: true });
    expect(ev.of("cordelia").filter((e) => e.type === "stream" && e.op === "delete")).toEqual([]);
    const old = (await s.users.cordelia.client.get("/events", { queue_id: legacy, last_event_id: -1, dont_block: true })).success().events;
    expect(old.filter((e: any) => e.type === "stream").map(({ id: _, ...e }: any) => e)).toEqual([{ type: "stream", op: "delete", streams: [{ stream_id: doomed }], stream_ids: [doomed] }]);
    expect(ev.of("cordelia").some((e) => e.type === "default_streams")).toBe(true);
    expect(ev.of("polonius").filter((e) => e.type === "stream")).toEqual([]);
    const row = await s.app.db.get<any>("SELECT is_archived FROM streams WHERE id = ?", [doomed]);
    expect(row.is_archived).toBe(1);
    expect(await subscriberIds(s, doomed)).toEqual([s.users.hamlet.id]);
    expect(await s.app.db.get("SELECT 1 FROM default_streams WHERE stream_id = ?", [doomed])).toBeUndefined();
    (await s.users.hamlet.client.delete(`/streams/${doomed}`)).error("Channel is already deactivated");
    expect(names((await s.users.hamlet.client.get("/streams")).success().streams)).not.toContain("doomed");
    expect(names((await s.users.hamlet.client.get("/streams", { exclude_archived: false })).success().streams)).toContain("doomed");
  });

  test("an archived channel is unarchived with PATCH is_archived=false", async () => {
    const old = await createChannel(s, "hamlet", "old-times");
    (await s.users.iago.client.delete(`/streams/${old}`)).success();
    const legacy = (await s.users.othello.client.post("/register", { event_types: ["stream"], client_capabilities: {} })).success().queue_id;
    const ev = await s.captureEvents(async () => (await s.users.iago.client.patch(`/streams/${old}`, { is_archived: false })).success());
    expect(ev.of("othello")).toContainEqual({ type: "stream", op: "update", stream_id: old, name: "old-times", property: "is_archived", value: false });
    expect(ev.of("othello").filter((e) => e.type === "stream" && e.op === "create")).toEqual([]);
    // a client without archived_channels had dropped the channel: it comes back as stream create
    const back = (await s.users.othello.client.get("/events", { queue_id: legacy, last_event_id: -1, dont_block: true })).success().events.filter((e: any) => e.type === "stream");
    expect(back.map((e: any) => [e.op, e.streams?.[0]?.stream_id, "for_unarchiving" in e])).toEqual([["create", old, false]]);
    expect((await s.app.db.get<any>("SELECT is_archived FROM streams WHERE id = ?", [old])).is_archived).toBe(0);
    (await s.users.iago.client.patch(`/streams/${old}`, { is_archived: false })).error("Channel is not currently deactivated");
  });

  test("archiving an announcement channel resets that organization setting", async () => {
    const news = await createChannel(s, "iago", "news");
    await s.app.db.run(`UPDATE realm SET settings = json_set(settings, '$.new_stream_announcements_stream_id', ?)`, [news]);
    const { reloadRealm } = await import("../../src/app");
    await reloadRealm(s.app);
    const ev = await s.captureEvents(async () => (await s.users.iago.client.delete(`/streams/${news}`)).success());
    expect(s.app.realm!.settings.new_stream_announcements_stream_id).toBe(-1);
    expect(ev.of("hamlet")).toContainEqual({ type: "realm", op: "update_dict", property: "default", data: { new_stream_announcements_stream_id: -1 } });
  });
});

describe("default channels", () => {
  test("administrators add and remove default channels; everyone gets default_streams", async () => {
    const ev = await s.captureEvents(async () => (await s.users.iago.client.post("/default_streams", { stream_id: denmark })).success());
    const defaults = (await s.app.db.all<any>("SELECT stream_id FROM default_streams ORDER BY stream_id")).map((r) => r.stream_id);
    expect(defaults).toContain(denmark);
    expect(ev.of("polonius")).toEqual([{ type: "default_streams", default_streams: defaults }]);
    (await s.users.iago.client.delete("/default_streams", { stream_id: denmark })).success();
    expect(await s.app.db.get("SELECT 1 FROM default_streams WHERE stream_id = ?", [denmark])).toBeUndefined();
  });

  test("members may not change default channels; private channels cannot be default", async () => {
    (await s.users.hamlet.client.post("/default_streams", { stream_id: denmark })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.iago.client.post("/default_streams", { stream_id: 99999 })).error("Invalid channel ID");
    await subscribeTo(s, "iago", "conspiracy").catch(() => {});
    const conspiracy = await channelId(s, "conspiracy");
    (await s.users.desdemona.client.post("/default_streams", { stream_id: conspiracy })).error("Invalid channel ID");
    (await s.users.cordelia.client.get("/streams")).success();
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "conspiracy" }], principals: [s.users.desdemona.id] })).success();
    (await s.users.desdemona.client.post("/default_streams", { stream_id: conspiracy })).error("Private channels cannot be made default.");
    (await s.users.desdemona.client.post("/default_streams", {})).error("Missing 'stream_id' argument", "REQUEST_VARIABLE_MISSING");
  });

  test("/register lists default channels by id", async () => {
    const r = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["default_streams"] })).success();
    expect(r.realm_default_streams).toEqual((await s.app.db.all<any>("SELECT stream_id FROM default_streams ORDER BY stream_id")).map((x) => x.stream_id));
  });
});

describe("channel folders", () => {
  test("administrators create folders; everyone is told; folders are listed", async () => {
    const ev = await s.captureEvents(async () => {
      const r = (await s.users.iago.client.post("/channel_folders/create", { name: "Frontend", description: "UI *work*" })).success();
      expect(r.channel_folder_id).toBeGreaterThan(0);
    });
    const add = ev.of("polonius")[0] as any;
    expect(add).toMatchObject({ type: "channel_folder", op: "add", channel_folder: { name: "Frontend", description: "UI *work*", creator_id: s.users.iago.id, is_archived: false } });
    const folders = (await s.users.hamlet.client.get("/channel_folders")).success().channel_folders;
    expect(folders.map((f: any) => f.name)).toEqual(["Frontend"]);
    const state = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["channel_folders"] })).success();
    expect(state.channel_folders.map((f: any) => f.name)).toEqual(["Frontend"]);
  });

  test("folder names must be present, printable and unique; members may not create folders", async () => {
    (await s.users.hamlet.client.post("/channel_folders/create", { name: "Backend", description: "" })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.iago.client.post("/channel_folders/create", { name: " ", description: "" })).error("Channel folder name can't be empty.");
    (await s.users.iago.client.post("/channel_folders/create", { name: "frontend", description: "" })).error("Channel folder 'frontend' already exists");
    (await s.users.iago.client.post("/channel_folders/create", { name: "x".repeat(61), description: "" })).error("name is too long (limit: 60 characters)");
    (await s.users.iago.client.post("/channel_folders/create", { name: "Backend" })).error("Missing 'description' argument", "REQUEST_VARIABLE_MISSING");
  });

  test("channels join and leave folders with folder_id; unknown folders are refused", async () => {
    const folder = (await s.app.db.get<any>("SELECT id FROM channel_folders WHERE name = 'Frontend'")).id;
    const ev = await s.captureEvents(async () => (await s.users.hamlet.client.patch(`/streams/${denmark}`, { folder_id: folder })).success());
    expect(ev.of("cordelia")).toEqual([{ type: "stream", op: "update", stream_id: denmark, name: "Denmark", property: "folder_id", value: folder }]);
    (await s.users.hamlet.client.patch(`/streams/${denmark}`, { folder_id: 9999 })).error("Invalid channel folder ID");
    (await s.users.iago.client.patch(`/channel_folders/${folder}`, { is_archived: true })).error("You need to remove all the channels from this folder to archive it.");
    (await s.users.hamlet.client.patch(`/streams/${denmark}`, { folder_id: null })).success();
    expect((await s.app.db.get<any>("SELECT folder_id FROM streams WHERE id = ?", [denmark])).folder_id).toBeNull();
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "filed" }], folder_id: folder })).success();
    expect((await s.app.db.get<any>("SELECT folder_id FROM streams WHERE name = 'filed'")).folder_id).toBe(folder);
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "lost" }], folder_id: 9999 })).error("Invalid channel folder ID");
  });

  test("folders are renamed, described, archived and reordered by administrators", async () => {
    const back = (await s.users.iago.client.post("/channel_folders/create", { name: "Backend", description: "" })).success().channel_folder_id;
    const ev = await s.captureEvents(async () => (await s.users.iago.client.patch(`/channel_folders/${back}`, { name: "Server", is_archived: true })).success());
    expect(ev.of("hamlet")).toEqual([{ type: "channel_folder", op: "update", channel_folder_id: back, data: { name: "Server", is_archived: true } }]);
    expect((await s.users.hamlet.client.get("/channel_folders")).success().channel_folders.map((f: any) => f.name)).toEqual(["Frontend"]);
    expect((await s.users.hamlet.client.get("/channel_folders", { include_archived: true })).success().channel_folders.map((f: any) => f.name)).toEqual(["Frontend", "Server"]);
    const front = (await s.app.db.get<any>("SELECT id FROM channel_folders WHERE name = 'Frontend'")).id;
    (await s.users.iago.client.patch("/channel_folders", { order: [back] })).error("Invalid order mapping.");
    (await s.users.iago.client.patch("/channel_folders", { order: [back, front] })).success();
    expect((await s.users.hamlet.client.get("/channel_folders", { include_archived: true })).success().channel_folders.map((f: any) => f.name)).toEqual(["Server", "Frontend"]);
    (await s.users.hamlet.client.patch(`/channel_folders/${back}`, { name: "Mine" })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.iago.client.patch("/channel_folders/9999", { name: "Mine" })).error("Invalid channel folder ID");
  });
});
