import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { insertMessage, makeStream, makeUser, setRealmSettings } from "../helpers/people";
import { ROLE } from "../../src/domain/roles";
import { notificationBot } from "../../src/actions/messages/notification-bot";
import { systemBot } from "../../src/actions/system-bots";
import { emailHost } from "../../src/actions/email-visibility";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const groupId = (name: string) => s.app.systemGroups.get(name as any)!;
const limitAccess = () => setRealmSettings(s, { can_access_all_users_group: groupId("role:members") });
const allowEveryone = () => setRealmSettings(s, { can_access_all_users_group: groupId("role:everyone") });
const realmUserEvents = (events: { type: string }[]) => events.filter((e) => e.type === "realm_user") as any[];
const ids = (events: any[], op: string) => events.filter((e) => e.op === op).map((e) => e.person.user_id).sort((a: number, b: number) => a - b);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
/** Notification Bot and the other system bots (no owner): every guest sees them. */
const systemBotIds = async () => new Set((await s.app.db.all<{ id: number }>("SELECT id FROM users WHERE is_bot = 1 AND bot_owner_id IS NULL")).map((r) => r.id));
const streamName = async (id: number) => (await s.app.db.get<{ name: string }>("SELECT name FROM streams WHERE id = ?", [id]))!.name;

describe("realm_user events when a guest's view of users changes", () => {
  test("a guest subscribed to a channel receives realm_user add for each subscriber they could not see, before the subscription", async () => {
    const guest = await makeUser(s, "Access Guest", ROLE.guest);
    const known = await makeUser(s, "Known Peer");
    const p1 = await makeUser(s, "New Peer One");
    const p2 = await makeUser(s, "New Peer Two");
    await makeStream(s, "already shared", [guest.id, known.id]);
    const room = await makeStream(s, "new room", [known.id, p1.id, p2.id]);
    // Notification Bot exists already (its creation by the first notice is announced to everyone)
    await notificationBot(s.app);
    await limitAccess();
    try {
      const events = await s.captureEvents(async () => {
        (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: await streamName(room) }], principals: [guest.id] })).success();
      });
      const mine = events.ofUser(guest.id);
      const added = realmUserEvents(mine);
      expect(ids(added, "add")).toEqual(sorted([p1.id, p2.id]));
      const person = added.find((e) => e.person.user_id === p1.id).person;
      expect(person).toMatchObject({ user_id: p1.id, full_name: "New Peer One", email: p1.email, role: ROLE.member, is_active: true, is_guest: false, profile_data: {} });
      const firstAdd = mine.findIndex((e) => e.type === "realm_user");
      const subscriptionAdd = mine.findIndex((e) => e.type === "subscription" && e.op === "add");
      expect(firstAdd).toBeGreaterThanOrEqual(0);
      expect(firstAdd).toBeLessThan(subscriptionAdd);
      // members see everyone already: nobody else hears about these users
      expect(realmUserEvents(events.ofUser(known.id))).toEqual([]);
      expect(realmUserEvents(events.of("hamlet"))).toEqual([]);
      const visible = (await guest.client.get("/users")).success().members.map((m: any) => m.user_id);
      expect(visible).toEqual(expect.arrayContaining([p1.id, p2.id]));
    } finally {
      await allowEveryone();
    }
  });

  test("a user who joins a guest's channel appears to that guest, and only to guests who could not see them", async () => {
    const guest = await makeUser(s, "Room Guest", ROLE.guest);
    const other = await makeUser(s, "Other Guest", ROLE.guest);
    const joiner = await makeUser(s, "Joiner");
    const room = await makeStream(s, "guest lounge", [guest.id]);
    await makeStream(s, "joiner and other", [joiner.id, other.id]);
    await limitAccess();
    try {
      const events = await s.captureEvents(async () => {
        (await joiner.client.post("/users/me/subscriptions", { subscriptions: [{ name: await streamName(room) }] })).success();
      });
      expect(realmUserEvents(events.ofUser(guest.id))).toEqual([expect.objectContaining({ type: "realm_user", op: "add", person: expect.objectContaining({ user_id: joiner.id, full_name: "Joiner" }) })]);
      expect(realmUserEvents(events.ofUser(other.id))).toEqual([]);
      expect(realmUserEvents(events.ofUser(joiner.id))).toEqual([]);
    } finally {
      await allowEveryone();
    }
  });

  test("unsubscribing a guest sends realm_user remove for the users they no longer share anything with", async () => {
    const guest = await makeUser(s, "Leaving Guest", ROLE.guest);
    const onlyHere = await makeUser(s, "Only Here");
    const alsoElsewhere = await makeUser(s, "Also Elsewhere");
    const penPal = await makeUser(s, "Pen Pal Peer");
    const room = await makeStream(s, "leaving room", [guest.id, onlyHere.id, alsoElsewhere.id, penPal.id]);
    await makeStream(s, "staying room", [guest.id, alsoElsewhere.id]);
    await insertMessage(s, { senderId: penPal.id, dmWith: [guest.id], holders: [penPal.id, guest.id] });
    await limitAccess();
    try {
      const events = await s.captureEvents(async () => {
        (await guest.client.delete("/users/me/subscriptions", { subscriptions: [await streamName(room)] })).success();
      });
      const mine = events.ofUser(guest.id);
      expect(realmUserEvents(mine)).toEqual([{ type: "realm_user", op: "remove", person: { user_id: onlyHere.id, full_name: "Only Here" } }]);
      expect(mine.findIndex((e) => e.type === "subscription" && e.op === "remove")).toBeLessThan(mine.findIndex((e) => e.type === "realm_user"));
      (await guest.client.get(`/users/${onlyHere.id}`)).error("Insufficient permission");
      expect((await guest.client.get(`/users/${alsoElsewhere.id}`)).success().user.user_id).toBe(alsoElsewhere.id);
    } finally {
      await allowEveryone();
    }
  });

  test("a user who leaves the only channel they share with a guest disappears from the guest's view", async () => {
    const guest = await makeUser(s, "Watching Guest", ROLE.guest);
    const leaver = await makeUser(s, "Leaver");
    const room = await makeStream(s, "watched room", [guest.id, leaver.id]);
    await limitAccess();
    try {
      const events = await s.captureEvents(async () => {
        (await leaver.client.delete("/users/me/subscriptions", { subscriptions: [await streamName(room)] })).success();
      });
      expect(realmUserEvents(events.ofUser(guest.id))).toEqual([{ type: "realm_user", op: "remove", person: { user_id: leaver.id, full_name: "Leaver" } }]);
      expect(realmUserEvents(events.ofUser(leaver.id))).toEqual([]);
    } finally {
      await allowEveryone();
    }
  });

  test("the user object a guest gains follows that user's email_address_visibility", async () => {
    const guest = await makeUser(s, "Email Guest", ROLE.guest);
    const hidden = await makeUser(s, "Members Only Email");
    (await hidden.client.patch("/settings", { email_address_visibility: 2 })).success();
    const room = await makeStream(s, "email room", [hidden.id]);
    await limitAccess();
    try {
      const events = await s.captureEvents(async () => {
        (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: await streamName(room) }], principals: [guest.id] })).success();
      });
      const add = realmUserEvents(events.ofUser(guest.id)).find((e) => e.op === "add" && e.person.user_id === hidden.id);
      expect(add.person).toMatchObject({ email: `user${hidden.id}@parley.test`, delivery_email: null });
    } finally {
      await allowEveryone();
    }
  });

  test("nothing is sent while the organization lets guests see everyone", async () => {
    const guest = await makeUser(s, "Open Guest", ROLE.guest);
    const peer = await makeUser(s, "Open Peer");
    const room = await makeStream(s, "open room", [peer.id]);
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: await streamName(room) }], principals: [guest.id] })).success();
      (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: [await streamName(room)], principals: [guest.id] })).success();
    });
    expect(realmUserEvents(events.ofUser(guest.id))).toEqual([]);
  });
});

describe("PATCH /realm can_access_all_users_group", () => {
  test("narrowing it sends each guest realm_user remove for everyone they can no longer see, and widening it adds them back", async () => {
    const guest = await makeUser(s, "Realm Guest", ROLE.guest);
    const peer = await makeUser(s, "Realm Peer");
    await makeStream(s, "realm guest room", [guest.id, peer.id]);
    // everyone else, deactivated users included (/register lists those too); system bots stay visible
    const bots = await systemBotIds();
    const everyone = (await s.app.db.all<{ id: number }>("SELECT id FROM users")).map((r) => r.id).filter((id) => !bots.has(id));
    const visibleToGuest = new Set([guest.id, peer.id]);
    const hidden = sorted(everyone.filter((id) => !visibleToGuest.has(id)));

    const narrowed = await s.captureEvents(async () => {
      (await s.users.desdemona.client.patch("/realm", { can_access_all_users_group: { new: groupId("role:members") } })).success();
    });
    const removed = realmUserEvents(narrowed.ofUser(guest.id));
    expect(removed.every((e) => e.op === "remove")).toBe(true);
    expect(ids(removed, "remove")).toEqual(hidden);
    expect(removed.find((e) => e.person.user_id === s.users.hamlet.id).person).toEqual({ user_id: s.users.hamlet.id, full_name: "King Hamlet" });
    // the cast's guest loses sight of users too; members and administrators are unaffected
    expect(ids(realmUserEvents(narrowed.of("polonius")), "remove")).toContain(s.users.hamlet.id);
    expect(realmUserEvents(narrowed.of("hamlet"))).toEqual([]);
    expect(realmUserEvents(narrowed.of("iago"))).toEqual([]);
    expect(narrowed.of("hamlet")).toContainEqual({ type: "realm", op: "update_dict", property: "default", data: { can_access_all_users_group: groupId("role:members") } });

    const widened = await s.captureEvents(async () => {
      (await s.users.desdemona.client.patch("/realm", { can_access_all_users_group: { new: groupId("role:everyone") } })).success();
    });
    const added = realmUserEvents(widened.ofUser(guest.id));
    expect(added.every((e) => e.op === "add")).toBe(true);
    expect(ids(added, "add")).toEqual(hidden);
    expect(added.find((e) => e.person.user_id === s.users.hamlet.id).person).toMatchObject({ user_id: s.users.hamlet.id, full_name: "King Hamlet", email: "hamlet@zulip.com", is_active: true });
    expect(realmUserEvents(widened.of("hamlet"))).toEqual([]);
  });

  test("setting it to the value it already has sends no realm_user events", async () => {
    const events = await s.captureEvents(async () => {
      (await s.users.desdemona.client.patch("/realm", { can_access_all_users_group: { new: groupId("role:everyone") } })).success();
    });
    expect(realmUserEvents(events.of("polonius"))).toEqual([]);
  });
});

describe("realm_user events when a user's role changes their own view", () => {
  test("a guest promoted to member gains everyone they could not see; demoted again, loses them", async () => {
    const guest = await makeUser(s, "Promoted Guest", ROLE.guest);
    const peer = await makeUser(s, "Shared Peer");
    const stranger = await makeUser(s, "Far Stranger");
    await makeStream(s, "guest corner", [guest.id, peer.id]);
    await limitAccess();
    try {
      const promoted = await s.captureEvents(async () => {
        (await s.users.iago.client.patch(`/users/${guest.id}`, { role: ROLE.member })).success();
      });
      const gained = ids(realmUserEvents(promoted.ofUser(guest.id)), "add");
      expect(gained).toContain(stranger.id);
      expect(gained).toContain(s.users.hamlet.id);
      expect(gained).not.toContain(peer.id); // already visible
      expect(realmUserEvents(promoted.of("hamlet")).filter((e) => e.op === "add")).toEqual([]);
      const demoted = await s.captureEvents(async () => {
        (await s.users.iago.client.patch(`/users/${guest.id}`, { role: ROLE.guest })).success();
      });
      const lost = realmUserEvents(demoted.ofUser(guest.id)).filter((e) => e.op === "remove");
      expect(lost.map((e) => e.person.user_id)).toContain(stranger.id);
      expect(lost.map((e) => e.person.user_id)).not.toContain(peer.id);
      expect(lost.find((e) => e.person.user_id === stranger.id).person).toEqual({ user_id: stranger.id, full_name: "Far Stranger" });
    } finally {
      await allowEveryone();
    }
  });

  test("nothing is sent when guests see everyone", async () => {
    const guest = await makeUser(s, "Open Guest", ROLE.guest);
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.patch(`/users/${guest.id}`, { role: ROLE.member })).success();
    });
    expect(realmUserEvents(events.ofUser(guest.id)).filter((e) => e.op === "add" || e.op === "remove")).toEqual([]);
  });
});

describe("realm_user events when a direct message connects a guest with someone", () => {
  test("the guest hears of the sender before the message; later messages add nothing", async () => {
    const guest = await makeUser(s, "Lonely Guest", ROLE.guest);
    await limitAccess();
    try {
      const first = await s.captureEvents(async () => {
        (await s.users.hamlet.client.post("/messages", { type: "direct", to: [guest.id], content: "hello there" })).success();
      });
      const mine = first.ofUser(guest.id);
      const addIndex = mine.findIndex((e: any) => e.type === "realm_user" && e.op === "add" && e.person.user_id === s.users.hamlet.id);
      const messageIndex = mine.findIndex((e) => e.type === "message");
      expect(addIndex).toBeGreaterThanOrEqual(0);
      expect(addIndex).toBeLessThan(messageIndex);
      const second = await s.captureEvents(async () => {
        (await s.users.hamlet.client.post("/messages", { type: "direct", to: [guest.id], content: "again" })).success();
      });
      expect(realmUserEvents(second.ofUser(guest.id))).toEqual([]);
    } finally {
      await allowEveryone();
    }
  });
});

describe("deactivating someone a guest cannot see", () => {
  test("the guest learns only that groups and setting values lost a member: remove_members and update_dict, no realm_user", async () => {
    const guest = await makeUser(s, "Unaware Guest", ROLE.guest);
    const leaver = await makeUser(s, "Quiet Leaver");
    const team = (await s.users.desdemona.client.post("/user_groups/create", { name: "Leaver's Team", description: "", members: [leaver.id, s.users.hamlet.id] })).success().group_id;
    const anonymous = { direct_members: [leaver.id, s.users.hamlet.id].sort((a, b) => a - b), direct_subgroups: [] };
    (await s.users.desdemona.client.patch("/realm", { can_add_custom_emoji_group: { new: anonymous } })).success();
    await limitAccess();
    try {
      const events = await s.captureEvents(async () => {
        (await s.users.iago.client.delete(`/users/${leaver.id}`)).success();
      });
      const mine = events.ofUser(guest.id);
      expect(realmUserEvents(mine)).toEqual([]);
      expect(mine).toContainEqual({ type: "user_group", op: "remove_members", group_id: team, user_ids: [leaver.id] });
      expect(mine).toContainEqual({ type: "realm", op: "update_dict", property: "default", data: { can_add_custom_emoji_group: { direct_members: [s.users.hamlet.id], direct_subgroups: [] } } });
      // those who can see the leaver are told of the deactivation and drop them themselves
      expect(events.of("hamlet")).toContainEqual({ type: "realm_user", op: "update", person: { user_id: leaver.id, is_active: false } });
      expect(events.of("hamlet").filter((e) => e.type === "realm")).toEqual([]);
    } finally {
      await allowEveryone();
      (await s.users.desdemona.client.patch("/realm", { can_add_custom_emoji_group: { new: groupId("role:members") } })).success();
    }
  });
});

describe("system bots and deactivated users in a guest's view", () => {
  test("a system bot created on first use is announced to everyone, limited guests included", async () => {
    const guest = await makeUser(s, "Bot Watcher", ROLE.guest);
    await limitAccess();
    try {
      const events = await s.captureEvents(async () => {
        await systemBot(s.app, "welcome-bot@zulip.com", "Welcome Bot");
      });
      const bot = (await s.app.db.get<{ id: number }>("SELECT id FROM users WHERE email = 'welcome-bot@zulip.com'"))!.id;
      for (const who of [guest.id, s.users.hamlet.id]) {
        expect(realmUserEvents(events.ofUser(who))).toEqual([expect.objectContaining({ op: "add", person: expect.objectContaining({ user_id: bot, full_name: "Welcome Bot", is_bot: true }) })]);
      }
      expect((await guest.client.get("/users")).success().members.map((m: any) => m.user_id)).toContain(bot);
      // created once: a second use announces nothing
      const again = await s.captureEvents(async () => void (await systemBot(s.app, "welcome-bot@zulip.com", "Welcome Bot")));
      expect(realmUserEvents(again.ofUser(guest.id))).toEqual([]);
    } finally {
      await allowEveryone();
    }
  });

  test("widening access shows a guest the deactivated users too, as /register does", async () => {
    const guest = await makeUser(s, "Wide Guest", ROLE.guest);
    const gone = await makeUser(s, "Long Gone");
    await limitAccess();
    (await s.users.iago.client.delete(`/users/${gone.id}`)).success();
    const widened = await s.captureEvents(async () => {
      (await s.users.desdemona.client.patch("/realm", { can_access_all_users_group: { new: groupId("role:everyone") } })).success();
    });
    const add = realmUserEvents(widened.ofUser(guest.id)).find((e) => e.person.user_id === gone.id);
    expect(add).toMatchObject({ op: "add", person: { user_id: gone.id, full_name: "Long Gone", is_active: false } });
    const reg = (await guest.client.post("/register", { fetch_event_types: ["realm_user"] })).success();
    expect(reg.realm_non_active_users.map((u: any) => u.user_id)).toContain(gone.id);
  });
});

describe("bots and new users in a limited guest's view", () => {
  const register = async (client: any, caps: Record<string, boolean>) =>
    (await client.post("/register", { event_types: ["realm_user"], client_capabilities: caps })).success();
  const poll = async (client: any, queue_id: string) => (await client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success().events as any[];

  test("a guest sees every bot, whoever owns it (Zulip: bots are never restricted)", async () => {
    const guest = await makeUser(s, "Bot Spotter", ROLE.guest);
    await limitAccess();
    try {
      const events = await s.captureEvents(async () => {
        (await s.users.hamlet.client.post("/bots", { full_name: "Hamlet's Helper", short_name: "helper", bot_type: 1 })).success();
      });
      const bot = (await s.app.db.get<{ id: number }>("SELECT id FROM users WHERE full_name = 'Hamlet''s Helper'"))!.id;
      expect(realmUserEvents(events.ofUser(guest.id))).toEqual([expect.objectContaining({ op: "add", person: expect.objectContaining({ user_id: bot, full_name: "Hamlet's Helper", is_bot: true, bot_owner_id: s.users.hamlet.id }) })]);
      const state = await register(guest.client, { user_list_incomplete: true });
      expect(state.realm_users.find((u: any) => u.user_id === bot)).toMatchObject({ full_name: "Hamlet's Helper", is_bot: true });
      expect((await guest.client.get(`/users/${bot}`)).success().user).toMatchObject({ user_id: bot, full_name: "Hamlet's Helper" });
    } finally {
      await allowEveryone();
    }
  });

  test("a new user the guest may not see: nothing for user_list_incomplete clients, an Unknown user for the others", async () => {
    const guest = await makeUser(s, "Partial Guest", ROLE.guest);
    await limitAccess();
    try {
      const modern = await register(guest.client, { user_list_incomplete: true });
      const legacy = await register(guest.client, {});
      const { user_id } = (await s.users.desdemona.client.post("/users", { email: "hidden.newcomer@zulip.com", password: "s3cret-pass", full_name: "Hidden Newcomer" })).success();
      const host = emailHost(s.app);
      const placeholder = {
        user_id,
        email: `user${user_id}@${host}`,
        delivery_email: null,
        full_name: "Unknown user",
        avatar_url: expect.stringContaining("https://secure.gravatar.com/avatar/"),
        avatar_version: 1,
        date_joined: "1970-01-01T00:00:00.000Z",
        timezone: "",
        role: ROLE.member,
        is_active: true,
        is_admin: false,
        is_owner: false,
        is_guest: false,
        is_bot: false,
        is_imported_stub: false,
        bot_type: null,
        profile_data: {},
      };
      expect((await poll(guest.client, modern.queue_id)).filter((e) => e.type === "realm_user")).toEqual([]);
      expect((await poll(guest.client, legacy.queue_id)).filter((e) => e.type === "realm_user")).toEqual([{ type: "realm_user", op: "add", person: placeholder, id: expect.any(Number) }]);
      // /register agrees: left out, or the same placeholder, in user id order
      expect((await register(guest.client, { user_list_incomplete: true })).realm_users.map((u: any) => u.user_id)).not.toContain(user_id);
      const again = (await register(guest.client, {})).realm_users;
      const { is_active: _, ...listed } = placeholder; // /register's lists leave is_active out
      expect(again.find((u: any) => u.user_id === user_id)).toEqual(listed);
      expect(again.map((u: any) => u.user_id)).toEqual(again.map((u: any) => u.user_id).sort((a: number, b: number) => a - b));
      // members see the real user
      expect((await s.users.hamlet.client.get(`/users/${user_id}`)).success().user.full_name).toBe("Hidden Newcomer");
    } finally {
      await allowEveryone();
    }
  });
});

describe("messages from someone a limited guest may not see", () => {
  test("arrive and are fetched from Unknown user (Zulip's can_access_sender); members and other senders are shown as they are", async () => {
    const guest = await makeUser(s, "Curious Guest", ROLE.guest);
    const poster = await makeUser(s, "Distant Poster");
    const room = await makeStream(s, "open hall", [guest.id, s.users.hamlet.id]);
    await s.app.db.run("UPDATE streams SET can_send_message_group = ?, can_create_topic_group = ? WHERE id = ?", [groupId("role:everyone"), groupId("role:everyone"), room]);
    await limitAccess();
    try {
      let id = 0;
      const events = await s.captureEvents(async () => {
        // not subscribed, and sharing no channel with the guest
        id = (await poster.client.post("/messages", { type: "stream", to: room, topic: "news", content: "from afar" })).success().id;
        (await s.users.hamlet.client.post("/messages", { type: "stream", to: room, topic: "news", content: "from nearby" })).success();
      });
      const email = `user${poster.id}@${emailHost(s.app)}`;
      const unknown = { sender_id: poster.id, sender_full_name: "Unknown user", sender_email: email, avatar_url: expect.stringContaining("https://secure.gravatar.com/avatar/") };
      const messages = (who: number) => events.ofUser(who).filter((e) => e.type === "message").map((e: any) => e.message);
      expect(messages(guest.id)[0]).toMatchObject({ ...unknown, content: "<p>from afar</p>" });
      expect(messages(guest.id)[1]).toMatchObject({ sender_id: s.users.hamlet.id, sender_full_name: "King Hamlet" });
      expect(messages(s.users.hamlet.id)[0]).toMatchObject({ sender_id: poster.id, sender_full_name: "Distant Poster" });
      const avatar = messages(guest.id)[0].avatar_url;

      const fetched = async (client: any) =>
        (await client.get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "channel", operand: room }] })).success().messages;
      expect((await fetched(guest.client)).map((m: any) => [m.sender_full_name, m.sender_email])).toEqual([
        ["Unknown user", email],
        ["King Hamlet", s.users.hamlet.email],
      ]);
      expect((await guest.client.get(`/messages/${id}`)).success().message).toMatchObject({ ...unknown, avatar_url: avatar });
      expect((await fetched(s.users.hamlet.client))[0]).toMatchObject({ sender_full_name: "Distant Poster" });
    } finally {
      await allowEveryone();
    }
    // once the guest may see everyone, the sender is shown again
    const again = (await guest.client.get("/messages", { anchor: "newest", num_before: 2, num_after: 0, narrow: [{ operator: "channel", operand: room }] })).success();
    expect(again.messages[0].sender_full_name).toBe("Distant Poster");
  });

  test("a direct message shows its sender: writing to the guest makes them visible", async () => {
    const guest = await makeUser(s, "Written Guest", ROLE.guest);
    const writer = await makeUser(s, "Letter Writer");
    await limitAccess();
    try {
      const events = await s.captureEvents(async () => {
        (await writer.client.post("/messages", { type: "direct", to: [guest.id], content: "hello" })).success();
      });
      const mine = events.ofUser(guest.id);
      expect(mine.find((e: any) => e.type === "message")).toMatchObject({ message: { sender_id: writer.id, sender_full_name: "Letter Writer" } });
      expect(realmUserEvents(mine)).toEqual([expect.objectContaining({ op: "add", person: expect.objectContaining({ user_id: writer.id }) })]);
    } finally {
      await allowEveryone();
    }
  });
});
