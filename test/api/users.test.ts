import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { insertMessage, makeStream, makeUser, setRealmSettings } from "../helpers/people";
import { ROLE } from "../../src/domain/roles";
import { gravatarUrl } from "../../src/domain/user-format";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const groupId = (name: string) => s.app.systemGroups.get(name as any)!;
const directMembers = async (group: string) =>
  (await s.app.db.all<{ user_id: number }>("SELECT user_id FROM user_group_members WHERE group_id = ? ORDER BY user_id", [groupId(group)])).map((r) => r.user_id);

describe("GET /users", () => {
  test("lists every user with the spec's fields and role flags consistent with the role", async () => {
    const { members } = (await s.users.hamlet.client.get("/users")).success();
    const byEmail = new Map(members.map((m: any) => [m.email, m]));
    const iago: any = byEmail.get("iago@zulip.com");
    expect(iago).toMatchObject({ user_id: s.users.iago.id, full_name: "Iago", role: 200, is_admin: true, is_owner: false, is_guest: false, is_bot: false, is_active: true, bot_type: null, timezone: "", is_imported_stub: false });
    expect(iago.date_joined).toBe(new Date(Date.UTC(2026, 0, 1)).toISOString());
    expect(iago.delivery_email).toBe("iago@zulip.com");
    expect((byEmail.get("desdemona@zulip.com") as any)).toMatchObject({ role: 100, is_owner: true, is_admin: true });
    expect((byEmail.get("polonius@zulip.com") as any)).toMatchObject({ role: 600, is_guest: true, is_admin: false });
    expect((byEmail.get("shiva@zulip.com") as any)).toMatchObject({ role: 300, is_admin: false });
    for (const m of members) {
      expect(m.is_admin).toBe(m.role <= 200);
      expect(m.is_owner).toBe(m.role === 100);
      expect(m.is_guest).toBe(m.role === 600);
      expect("profile_data" in m).toBe(false);
    }
  });

  test("avatar_url is null for gravatar users unless client_gravatar is false", async () => {
    const withDefault = (await s.users.hamlet.client.get("/users")).success().members;
    expect(withDefault.every((m: any) => m.avatar_url === null)).toBe(true);
    const full = (await s.users.hamlet.client.get("/users", { client_gravatar: false })).success().members;
    const hamlet = full.find((m: any) => m.user_id === s.users.hamlet.id);
    expect(hamlet.avatar_url).toBe(gravatarUrl("hamlet@zulip.com"));
  });

  test("user_ids limits the list, and an unknown id is refused", async () => {
    const r = (await s.users.hamlet.client.get("/users", { user_ids: [s.users.othello.id, s.users.iago.id] })).success();
    expect(r.members.map((m: any) => m.user_id)).toEqual([s.users.iago.id, s.users.othello.id].sort((a, b) => a - b));
    (await s.users.hamlet.client.get("/users", { user_ids: [99999] })).error("Invalid user ID: 99999");
    (await s.users.hamlet.client.get("/users", { user_ids: "[1," })).error("user_ids is not valid JSON");
  });

  test("include_custom_profile_fields adds profile_data for humans only", async () => {
    const field = (await s.users.iago.client.post("/realm/profile_fields", { name: "Phone", field_type: 1 })).success().id;
    (await s.users.hamlet.client.patch("/users/me/profile_data", { data: [{ id: field, value: "+1 555" }] })).success();
    const bot = (await s.users.hamlet.client.post("/bots", { full_name: "Listed Bot", short_name: "listed" })).success();
    const { members } = (await s.users.othello.client.get("/users", { include_custom_profile_fields: true })).success();
    const hamlet = members.find((m: any) => m.user_id === s.users.hamlet.id);
    expect(hamlet.profile_data).toEqual({ [String(field)]: { value: "+1 555", rendered_value: "<p>+1 555</p>" } });
    expect(members.find((m: any) => m.user_id === s.users.othello.id).profile_data).toEqual({});
    const botEntry = members.find((m: any) => m.user_id === bot.user_id);
    expect(botEntry).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: s.users.hamlet.id });
    expect("profile_data" in botEntry).toBe(false);
  });

  test("without credentials it is refused unless the organization allows public access", async () => {
    (await s.anonymous.get("/users")).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    await setRealmSettings(s, { allow_public_access: true });
    try {
      const r = (await s.anonymous.get("/users")).success();
      expect(r.members.length).toBeGreaterThanOrEqual(7);
      expect(r.members.every((m: any) => m.delivery_email === null)).toBe(true);
      (await s.clientFor("hamlet@zulip.com", "x".repeat(32)).get("/users")).error("Invalid API key", "UNAUTHORIZED", 401);
    } finally {
      await setRealmSettings(s, { allow_public_access: false });
    }
  });

  test("a guest sees only the users they share a channel or a conversation with, and bots, when access is limited", async () => {
    const guest = await makeUser(s, "Limited Guest", ROLE.guest);
    const peer = await makeUser(s, "Channel Peer");
    const pen = await makeUser(s, "Pen Pal");
    const stranger = await makeUser(s, "Stranger");
    await makeStream(s, "guest room", [guest.id, peer.id]);
    await insertMessage(s, { senderId: pen.id, dmWith: [guest.id], holders: [pen.id, guest.id] });
    await setRealmSettings(s, { can_access_all_users_group: groupId("role:members") });
    try {
      const ids = (await guest.client.get("/users")).success().members.map((m: any) => m.user_id);
      const bots = (await s.app.db.all<{ id: number }>("SELECT id FROM users WHERE is_bot = 1")).map((r) => r.id);
      expect(bots.length).toBeGreaterThan(0);
      expect(ids.sort((a: number, b: number) => a - b)).toEqual([guest.id, peer.id, pen.id, ...bots].sort((a, b) => a - b));
      (await guest.client.get(`/users/${stranger.id}`)).error("Insufficient permission");
      (await guest.client.get("/users", { user_ids: [stranger.id] })).error(`Invalid user ID: ${stranger.id}`);
      expect((await s.users.hamlet.client.get("/users")).success().members.some((m: any) => m.user_id === stranger.id)).toBe(true);
    } finally {
      await setRealmSettings(s, { can_access_all_users_group: groupId("role:everyone") });
    }
    expect((await guest.client.get(`/users/${stranger.id}`)).success().user.user_id).toBe(stranger.id);
  });
});

describe("GET /users/{user_id}, /users/{email} and /users/me", () => {
  test("one user by id or by email, with the same object", async () => {
    const byId = (await s.users.hamlet.client.get(`/users/${s.users.othello.id}`)).success().user;
    const byEmail = (await s.users.hamlet.client.get("/users/othello@zulip.com")).success().user;
    expect(byId).toEqual(byEmail);
    expect(byId).toMatchObject({ user_id: s.users.othello.id, full_name: "Othello, the Moor of Venice", role: 400 });
  });

  test("an unknown user is 'No such user'", async () => {
    (await s.users.hamlet.client.get("/users/424242")).error("No such user");
    (await s.users.hamlet.client.get("/users/nobody@zulip.com")).error("No such user");
  });

  test("/users/me carries the caller's profile data and max_message_id", async () => {
    const me = (await s.users.cordelia.client.get("/users/me")).success();
    expect(me).toMatchObject({ user_id: s.users.cordelia.id, email: "cordelia@zulip.com", role: 400, profile_data: {}, max_message_id: -1, is_active: true });
    expect(me.avatar_url).toBe(gravatarUrl("cordelia@zulip.com"));
    expect("bot_type" in me).toBe(false);
  });
});

describe("PATCH /users/{user_id}", () => {
  test("an administrator renames a user and everyone is told", async () => {
    const u = await makeUser(s, "Old Name");
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.patch(`/users/${u.id}`, { full_name: "  New Name " })).success();
    });
    const row = await s.app.db.get<{ full_name: string }>("SELECT full_name FROM users WHERE id = ?", [u.id]);
    expect(row!.full_name).toBe("New Name");
    expect(events.of("hamlet")).toContainEqual({ type: "realm_user", op: "update", person: { user_id: u.id, full_name: "New Name" } });
  });

  test("bad names are refused with Zulip's messages", async () => {
    (await s.users.iago.client.patch(`/users/${s.users.othello.id}`, { full_name: "x".repeat(101) })).error("Name too long!");
    (await s.users.iago.client.patch(`/users/${s.users.othello.id}`, { full_name: "a*b" })).error("Invalid characters in name!");
  });

  test("a role change moves the user between system groups, with events", async () => {
    const u = await makeUser(s, "Rising Star");
    expect(await directMembers("role:members")).toContain(u.id);
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.patch(`/users/${u.id}`, { role: ROLE.moderator })).success();
    });
    expect((await s.app.db.get<{ role: number }>("SELECT role FROM users WHERE id = ?", [u.id]))!.role).toBe(300);
    expect(await directMembers("role:moderators")).toContain(u.id);
    expect(await directMembers("role:members")).not.toContain(u.id);
    expect(s.app.groups.isMember(groupId("role:members"), u.id)).toBe(true);
    expect(s.app.groups.isMember(groupId("role:moderators"), u.id)).toBe(true);
    const seen = events.of("cordelia");
    expect(seen).toContainEqual({ type: "realm_user", op: "update", person: { user_id: u.id, role: 300 } });
    expect(seen).toContainEqual({ type: "user_group", op: "remove_members", group_id: groupId("role:members"), user_ids: [u.id] });
    expect(seen).toContainEqual({ type: "user_group", op: "remove_members", group_id: groupId("role:fullmembers"), user_ids: [u.id] });
    expect(seen).toContainEqual({ type: "user_group", op: "add_members", group_id: groupId("role:moderators"), user_ids: [u.id] });
    (await s.users.iago.client.patch(`/users/${u.id}`, { role: ROLE.guest })).success();
    expect(s.app.groups.isMember(groupId("role:members"), u.id)).toBe(false);
    expect(s.app.groups.isMember(groupId("role:everyone"), u.id)).toBe(true);
  });

  test("a role change brings channels into sight (stream create, peer_add) or takes them away (stream delete)", async () => {
    const u = await makeUser(s, "Climbing Guest", ROLE.guest);
    const open = await makeStream(s, "open to members", [s.users.hamlet.id]);
    const closed = await makeStream(s, "closed room", [s.users.hamlet.id], { inviteOnly: true });
    const promoted = await s.captureEvents(async () => {
      (await s.users.desdemona.client.patch(`/users/${u.id}`, { role: ROLE.administrator })).success();
    });
    const mine = promoted.ofUser(u.id);
    const created = mine.filter((e: any) => e.type === "stream" && e.op === "create").flatMap((e: any) => e.streams.map((st: any) => st.stream_id));
    expect(created).toEqual(expect.arrayContaining([open, closed]));
    expect(mine).toContainEqual({ type: "subscription", op: "peer_add", stream_ids: [closed], user_ids: [s.users.hamlet.id] });
    const demoted = await s.captureEvents(async () => {
      (await s.users.desdemona.client.patch(`/users/${u.id}`, { role: ROLE.guest })).success();
    });
    const deleted = demoted.ofUser(u.id).filter((e: any) => e.type === "stream" && e.op === "delete").flatMap((e: any) => e.stream_ids);
    expect(deleted).toEqual(expect.arrayContaining([open, closed]));
    // nobody else hears of it
    expect(demoted.of("hamlet").filter((e: any) => e.type === "stream")).toEqual([]);
  });

  test("a role that shows more real addresses sends them (delivery_email), and one that shows fewer takes them back", async () => {
    const viewer = await makeUser(s, "Address Viewer");
    const shy = await makeUser(s, "Shy Person");
    (await shy.client.patch("/settings", { email_address_visibility: 3 })).success(); // administrators only
    const shyEmail = (await s.app.db.get<{ delivery_email: string }>("SELECT delivery_email FROM users WHERE id = ?", [shy.id]))!.delivery_email;
    const up = await s.captureEvents(async () => (await s.users.desdemona.client.patch(`/users/${viewer.id}`, { role: ROLE.administrator })).success());
    expect(up.ofUser(viewer.id)).toContainEqual({ type: "realm_user", op: "update", person: { user_id: shy.id, delivery_email: shyEmail } });
    const down = await s.captureEvents(async () => (await s.users.desdemona.client.patch(`/users/${viewer.id}`, { role: ROLE.member })).success());
    expect(down.ofUser(viewer.id)).toContainEqual({ type: "realm_user", op: "update", person: { user_id: shy.id, delivery_email: null } });
    expect(down.ofUser(viewer.id).filter((e: any) => e.type === "realm_user" && e.person.user_id === s.users.hamlet.id && "delivery_email" in e.person)).toEqual([]);
  });

  test("only owners grant or remove the owner role", async () => {
    const u = await makeUser(s, "Would Be Owner");
    (await s.users.iago.client.patch(`/users/${u.id}`, { role: ROLE.owner })).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.desdemona.client.patch(`/users/${u.id}`, { role: ROLE.owner })).success();
    (await s.users.iago.client.patch(`/users/${u.id}`, { role: ROLE.member })).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.desdemona.client.patch(`/users/${u.id}`, { role: ROLE.member })).success();
  });

  test("the only owner cannot be demoted", async () => {
    (await s.users.desdemona.client.patch(`/users/${s.users.desdemona.id}`, { role: ROLE.administrator })).error(
      "The owner permission cannot be removed from the only organization owner.",
    );
  });

  test("members cannot edit others, and an invalid role is refused", async () => {
    (await s.users.hamlet.client.patch(`/users/${s.users.othello.id}`, { full_name: "Hacked" })).error("Insufficient permission");
    (await s.users.iago.client.patch(`/users/${s.users.othello.id}`, { role: 500 })).error("Invalid role");
    (await s.users.iago.client.patch("/users/777777", { full_name: "Ghost" })).error("No such user");
  });

  test("an administrator sets another user's custom profile data", async () => {
    const field = (await s.users.iago.client.post("/realm/profile_fields", { name: "Desk", field_type: 1, editable_by_user: false })).success().id;
    (await s.users.iago.client.patch(`/users/${s.users.othello.id}`, { profile_data: [{ id: field, value: "B-12" }] })).success();
    const user = (await s.users.hamlet.client.get(`/users/${s.users.othello.id}`, { include_custom_profile_fields: true })).success().user;
    expect(user.profile_data[String(field)]).toEqual({ value: "B-12", rendered_value: "<p>B-12</p>" });
  });
});

describe("POST /users", () => {
  test("an administrator with can_create_users creates a member", async () => {
    const events = await s.captureEvents(async () => {
      const r = (await s.users.desdemona.client.post("/users", { email: "newbie@zulip.com", password: "s3cret-pass", full_name: "New Bie" })).success();
      expect(typeof r.user_id).toBe("number");
    });
    const row = await s.app.db.get<any>("SELECT * FROM users WHERE email = 'newbie@zulip.com'");
    expect(row).toMatchObject({ full_name: "New Bie", role: 400, is_active: 1, is_bot: 0 });
    expect(await Bun.password.verify("s3cret-pass", row.password_hash)).toBe(true);
    const add = events.of("hamlet").find((e) => e.type === "realm_user" && e.op === "add") as any;
    expect(add.person).toMatchObject({ user_id: row.id, email: "newbie@zulip.com", full_name: "New Bie", role: 400, profile_data: {} });
    expect(events.of("hamlet")).toContainEqual({ type: "user_group", op: "add_members", group_id: groupId("role:members"), user_ids: [row.id] });
    (await s.anonymous.post("/fetch_api_key", { username: "newbie@zulip.com", password: "s3cret-pass" })).success();
  });

  test("administrators without can_create_users and members are refused", async () => {
    (await s.users.iago.client.post("/users", { email: "x1@zulip.com", password: "s3cret-pass", full_name: "X" })).error("User not authorized to create users");
    (await s.users.hamlet.client.post("/users", { email: "x2@zulip.com", password: "s3cret-pass", full_name: "X" })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
  });

  test("a used email, an invalid email, an empty name and a weak or empty password are refused", async () => {
    const c = s.users.desdemona.client;
    (await c.post("/users", { email: "hamlet@zulip.com", password: "s3cret-pass", full_name: "Dup" })).error("Email 'hamlet@zulip.com' already in use");
    (await c.post("/users", { email: "HAMLET@zulip.com", password: "s3cret-pass", full_name: "Dup" })).error("Email 'HAMLET@zulip.com' already in use");
    (await c.post("/users", { email: "not-an-email", password: "s3cret-pass", full_name: "Bad" })).error("Invalid email 'not-an-email'");
    (await c.post("/users", { email: "empty@zulip.com", password: "s3cret-pass", full_name: "  " })).error("Name too short!");
    (await c.post("/users", { email: "weak@zulip.com", password: "abc", full_name: "Weak" })).error("The password is too weak.");
    (await c.post("/users", { email: "weak@zulip.com", password: "", full_name: "Weak" })).error("Password is empty.");
    (await c.post("/users", { email: "weak@zulip.com", full_name: "Weak" })).error("Missing 'password' argument", "REQUEST_VARIABLE_MISSING");
    expect(await s.app.db.get("SELECT id FROM users WHERE email IN ('empty@zulip.com', 'weak@zulip.com', 'not-an-email')")).toBeUndefined();
  });
});

describe("DELETE /users/{user_id}", () => {
  test("an administrator deactivates a user: key, sessions and queues stop at once, everyone is told", async () => {
    const u = await makeUser(s, "Leaving Soon");
    const queue = (await u.client.post("/register", { event_types: ["message"] })).success().queue_id;
    await s.app.db.run("INSERT INTO sessions (token, user_id, created, expires) VALUES ('tok-leaving', ?, 0, 9999999999)", [u.id]);
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.delete(`/users/${u.id}`)).success();
    });
    expect((await s.app.db.get<{ is_active: number }>("SELECT is_active FROM users WHERE id = ?", [u.id]))!.is_active).toBe(0);
    expect(await s.app.db.get("SELECT * FROM sessions WHERE user_id = ?", [u.id])).toBeUndefined();
    (await u.client.get("/users/me")).error("Account is deactivated", "UNAUTHORIZED", 401);
    expect(() => s.app.events.get(queue, u.id)).toThrow();
    expect(events.of("hamlet")).toContainEqual({ type: "realm_user", op: "update", person: { user_id: u.id, is_active: false } });
    expect(s.app.groups.isMember(groupId("role:members"), u.id)).toBe(false);
    const listed = (await s.users.hamlet.client.get("/users")).success().members.find((m: any) => m.user_id === u.id);
    expect(listed.is_active).toBe(false);
  });

  test("subscribers of the user's channels get peer_remove, and peer_add when the user is back", async () => {
    const u = await makeUser(s, "Peer Leaver");
    const room = await makeStream(s, "peer room", [u.id, s.users.hamlet.id]);
    const secret = await makeStream(s, "peer secret", [u.id, s.users.othello.id], { inviteOnly: true });
    const gone = await s.captureEvents(async () => {
      (await s.users.iago.client.delete(`/users/${u.id}`)).success();
    });
    const peers = (name: "hamlet" | "othello" | "cordelia", ev: typeof gone, op: string) =>
      ev.of(name).filter((e: any) => e.type === "subscription" && e.op === op && e.user_ids.includes(u.id)).map((e: any) => e.stream_ids[0]).sort();
    expect(peers("hamlet", gone, "peer_remove")).toEqual([room]);
    expect(peers("othello", gone, "peer_remove")).toEqual([room, secret].sort((a, b) => a - b));
    // a private channel's subscribers are told, people outside it are not
    expect(peers("cordelia", gone, "peer_remove")).toEqual([room]);
    expect((await s.users.hamlet.client.get(`/streams/${room}/members`)).success().subscribers).not.toContain(u.id);
    const back = await s.captureEvents(async () => {
      (await s.users.iago.client.post(`/users/${u.id}/reactivate`)).success();
    });
    expect(peers("othello", back, "peer_add")).toEqual([room, secret].sort((a, b) => a - b));
    expect(peers("cordelia", back, "peer_add")).toEqual([room]);
    expect((await s.users.hamlet.client.get(`/streams/${room}/members`)).success().subscribers).toContain(u.id);
  });

  test("the user's bots are deactivated first, and their keys stop working too", async () => {
    const u = await makeUser(s, "Bot Keeper");
    const bot = (await u.client.post("/bots", { full_name: "Keeper Bot", short_name: "keeper" })).success();
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.delete(`/users/${u.id}`)).success();
    });
    expect((await s.app.db.get<{ is_active: number }>("SELECT is_active FROM users WHERE id = ?", [bot.user_id]))!.is_active).toBe(0);
    (await s.clientFor(`keeper-bot@parley.test`, bot.api_key).get("/users/me")).error("Account is deactivated", "UNAUTHORIZED", 401);
    const updates = events.of("iago").filter((e) => e.type === "realm_user" && (e.person as any).is_active === false).map((e) => (e.person as any).user_id);
    expect(updates).toEqual([bot.user_id, u.id]);
    expect(events.of("iago")).toContainEqual({ type: "realm_bot", op: "update", bot: { user_id: bot.user_id, is_active: false } });
    expect(events.of("hamlet").some((e) => e.type === "realm_bot")).toBe(false);
  });

  test("the only owner cannot be deactivated, and only owners deactivate owners", async () => {
    (await s.users.desdemona.client.delete(`/users/${s.users.desdemona.id}`)).error("Cannot deactivate the only organization owner");
    const owner = await makeUser(s, "Second Owner", ROLE.owner);
    (await s.users.iago.client.delete(`/users/${owner.id}`)).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.desdemona.client.delete(`/users/${owner.id}`)).success();
  });

  test("members cannot deactivate users, and bots are not users here", async () => {
    (await s.users.hamlet.client.delete(`/users/${s.users.othello.id}`)).error("Insufficient permission");
    const bot = (await s.users.iago.client.post("/bots", { full_name: "Not A User", short_name: "notauser" })).success();
    (await s.users.iago.client.delete(`/users/${bot.user_id}`)).error("No such user");
    (await s.users.iago.client.delete("/users/565656")).error("No such user");
  });

  test("deactivation_notification_comment sends the notification email", async () => {
    const u = await makeUser(s, "Mail Me");
    (await s.users.iago.client.delete(`/users/${u.id}`, { deactivation_notification_comment: "Thanks for everything!" })).success();
    const mails = await s.app.db.all<any>("SELECT * FROM outbox_emails WHERE to_address = ?", [u.email]);
    expect(mails.length).toBe(1);
    expect(mails[0].subject).toContain("deactivated");
    expect(mails[0].body).toContain("Thanks for everything!");
    expect(mails[0].sent).toBe(0);
    const quiet = await makeUser(s, "No Mail");
    (await s.users.iago.client.delete(`/users/${quiet.id}`)).success();
    expect(await s.app.db.all("SELECT * FROM outbox_emails WHERE to_address = ?", [quiet.email])).toEqual([]);
    const blank = await makeUser(s, "Blank Mail");
    (await s.users.iago.client.delete(`/users/${blank.id}`, { deactivation_notification_comment: "" })).success();
    const plain = await s.app.db.all<any>("SELECT * FROM outbox_emails WHERE to_address = ?", [blank.email]);
    expect(plain.length).toBe(1);
    expect(plain[0].body).not.toContain("comment");
  });

  test("actions delete the chosen kinds of messages of the bots and then the user, with delete_message events", async () => {
    const u = await makeUser(s, "Spammer");
    const bot = (await u.client.post("/bots", { full_name: "Spam Bot", short_name: "spam" })).success();
    const pub = await makeStream(s, "spam public", [u.id, s.users.hamlet.id, bot.user_id]);
    const priv = await makeStream(s, "spam private", [u.id, s.users.othello.id], { inviteOnly: true });
    const m1 = await insertMessage(s, { senderId: u.id, streamId: pub, topic: "buy", holders: [u.id, s.users.hamlet.id] });
    const m2 = await insertMessage(s, { senderId: bot.user_id, streamId: pub, topic: "buy", holders: [bot.user_id, s.users.hamlet.id] });
    const m3 = await insertMessage(s, { senderId: u.id, streamId: priv, topic: "secret", holders: [u.id, s.users.othello.id] });
    const m4 = await insertMessage(s, { senderId: u.id, dmWith: [s.users.cordelia.id], holders: [u.id, s.users.cordelia.id] });
    const kept = await insertMessage(s, { senderId: s.users.hamlet.id, streamId: pub, topic: "buy", holders: [u.id, s.users.hamlet.id] });
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.delete(`/users/${u.id}`, { actions: { delete_public_channel_messages: true, delete_direct_messages: true } })).success();
    });
    const left = (await s.app.db.all<{ id: number }>("SELECT id FROM messages WHERE id IN (?, ?, ?, ?, ?)", [m1, m2, m3, m4, kept])).map((r) => r.id);
    expect(left.sort((a, b) => a - b)).toEqual([m3, kept].sort((a, b) => a - b));
    expect(await s.app.db.all("SELECT * FROM user_messages WHERE message_id IN (?, ?, ?)", [m1, m2, m4])).toEqual([]);
    expect(events.of("hamlet")).toContainEqual({ type: "delete_message", message_ids: [m1, m2], message_type: "stream", stream_id: pub, topic: "buy" });
    expect(events.of("cordelia")).toContainEqual({ type: "delete_message", message_ids: [m4], message_type: "private" });
    expect(events.of("othello").some((e) => e.type === "delete_message")).toBe(false);
  });

  test("delete_profile replaces the name and avatar and drops custom profile data", async () => {
    const u = await makeUser(s, "Private Person");
    const field = (await s.users.iago.client.post("/realm/profile_fields", { name: "Secret", field_type: 1 })).success().id;
    (await u.client.patch("/users/me/profile_data", { data: [{ id: field, value: "mine" }] })).success();
    await s.app.db.run("UPDATE users SET avatar_source = 'U', timezone = 'Europe/Paris' WHERE id = ?", [u.id]);
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.delete(`/users/${u.id}`, { actions: { delete_profile: true } })).success();
    });
    const row = await s.app.db.get<any>("SELECT * FROM users WHERE id = ?", [u.id]);
    expect(row).toMatchObject({ full_name: `Deleted User ${u.id}`, avatar_source: "G", timezone: "", is_active: 0 });
    expect(await s.app.db.all("SELECT * FROM custom_profile_values WHERE user_id = ?", [u.id])).toEqual([]);
    expect(events.of("hamlet")).toContainEqual({ type: "realm_user", op: "update", person: { user_id: u.id, full_name: `Deleted User ${u.id}` } });
  });

  test("unknown keys in actions are refused", async () => {
    (await s.users.iago.client.delete(`/users/${s.users.othello.id}`, { actions: { delete_everything: true } })).error('Argument "delete_everything" at actions is unexpected');
  });
});

describe("POST /users/{user_id}/reactivate", () => {
  test("an administrator reactivates a user, who gets their key and groups back", async () => {
    const u = await makeUser(s, "Comeback Kid");
    (await s.users.iago.client.delete(`/users/${u.id}`)).success();
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.post(`/users/${u.id}/reactivate`)).success();
    });
    (await u.client.get("/users/me")).success();
    expect(s.app.groups.isMember(groupId("role:members"), u.id)).toBe(true);
    expect(events.of("hamlet")).toContainEqual({ type: "realm_user", op: "update", person: { user_id: u.id, is_active: true } });
    expect(events.of("hamlet")).toContainEqual({ type: "user_group", op: "add_members", group_id: groupId("role:members"), user_ids: [u.id] });
  });

  test("setting values naming the user directly (anonymous groups) read differently while they are away, with events", async () => {
    const u = await makeUser(s, "Setting Holder");
    const anonymous = { direct_members: [u.id, s.users.hamlet.id].sort((a, b) => a - b), direct_subgroups: [] };
    (await s.users.desdemona.client.patch("/realm", { can_add_custom_emoji_group: { new: anonymous } })).success();
    const team = (await s.users.desdemona.client.post("/user_groups/create", { name: "Setting Team", description: "", members: [s.users.hamlet.id], can_manage_group: { direct_members: [u.id], direct_subgroups: [] } })).success().group_id;
    const room = await makeStream(s, "setting room", [s.users.hamlet.id, u.id]);
    (await s.users.desdemona.client.patch(`/streams/${room}`, { can_send_message_group: { new: { direct_members: [u.id], direct_subgroups: [] } } })).success();
    (await s.users.iago.client.delete(`/users/${u.id}`)).success();
    expect((await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm"] })).success().realm_can_add_custom_emoji_group).toEqual({ direct_members: [s.users.hamlet.id], direct_subgroups: [] });
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.post(`/users/${u.id}/reactivate`)).success();
    });
    expect(events.of("cordelia")).toContainEqual({ type: "realm", op: "update_dict", property: "default", data: { can_add_custom_emoji_group: anonymous } });
    expect(events.of("cordelia")).toContainEqual({ type: "user_group", op: "update", group_id: team, data: { can_manage_group: { direct_members: [u.id], direct_subgroups: [] } } });
    // channels' settings too, to those who know of the channel (it is public: everyone)
    expect(events.of("cordelia")).toContainEqual({ type: "stream", op: "update", stream_id: room, name: "setting room", property: "can_send_message_group", value: { direct_members: [u.id], direct_subgroups: [] } });
    expect((await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm"] })).success().realm_can_add_custom_emoji_group).toEqual(anonymous);
    (await s.users.desdemona.client.patch("/realm", { can_add_custom_emoji_group: { new: groupId("role:members") } })).success();
  });

  test("members cannot reactivate, and a bot's name must be free", async () => {
    const u = await makeUser(s, "Still Gone");
    (await s.users.iago.client.delete(`/users/${u.id}`)).success();
    (await s.users.hamlet.client.post(`/users/${u.id}/reactivate`)).error("Insufficient permission");
    const bot = (await s.users.iago.client.post("/bots", { full_name: "Twin Bot", short_name: "twin1" })).success();
    (await s.users.iago.client.delete(`/bots/${bot.user_id}`)).success();
    (await s.users.iago.client.post("/bots", { full_name: "Twin Bot", short_name: "twin2" })).success();
    (await s.users.iago.client.post(`/users/${bot.user_id}/reactivate`)).error(
      'There is already an active bot named "Twin Bot" in this organization. To reactivate this bot, you must rename or deactivate the other one first.',
    );
  });
});

describe("DELETE /users/me", () => {
  test("a member deactivates their own account", async () => {
    const u = await makeUser(s, "Quitter");
    (await u.client.delete("/users/me")).success();
    (await u.client.get("/users/me")).error("Account is deactivated", "UNAUTHORIZED", 401);
  });

  test("the only owner cannot leave", async () => {
    const r = (await s.users.desdemona.client.delete("/users/me")).error("Cannot deactivate the only organization owner.", "CANNOT_DEACTIVATE_LAST_USER");
    expect(r).toMatchObject({ is_last_owner: true, entity: "organization owner" });
  });
});

describe("notification email over SMTP", () => {
  test("with [email] smtp_url the deactivation email is queued, then sent through SMTP by the outbox job and recorded as sent", async () => {
    const { startFakeSmtp } = await import("../helpers/smtp");
    const smtp = await startFakeSmtp();
    const mailServer = await startServer({ config: (c) => (c.email.smtp_url = `smtp://127.0.0.1:${smtp.port}`) });
    try {
      const u = await makeUser(mailServer, "Mailed Away");
      (await mailServer.users.iago.client.delete(`/users/${u.id}`, { deactivation_notification_comment: "Goodbye from SMTP" })).success();
      // queued by the request, sent by the timer loop's job
      expect(smtp.mails.length).toBe(0);
      const { deliverDueEmails } = await import("../../src/notify/email-outbox");
      expect(await deliverDueEmails(mailServer.app)).toBe(1);
      expect(smtp.mails.length).toBe(1);
      expect(smtp.mails[0]!.to).toEqual([`<${u.email}>`]);
      expect(smtp.mails[0]!.data).toContain("Goodbye from SMTP");
      const rows = await mailServer.app.db.all<any>("SELECT * FROM outbox_emails WHERE to_address = ?", [u.email]);
      expect(rows.map((r) => r.sent)).toEqual([1]);
    } finally {
      await mailServer.close();
      await smtp.close();
    }
  });
});

describe("email_address_visibility", () => {
  const dummy = (id: number) => `user${id}@parley.test`;
  const member = async (viewer: { client: TestServer["users"]["hamlet"]["client"] }, id: number) =>
    (await viewer.client.get("/users", { user_ids: [id] })).success().members[0];
  const updates = (events: any[], id: number) => events.filter((e) => e.type === "realm_user" && e.op === "update" && e.person.user_id === id).map((e) => e.person);

  test("a user who shows their email to administrators only is known by a dummy address; the others get delivery_email null", async () => {
    const u = await makeUser(s, "Private Person");
    expect(await member(s.users.hamlet, u.id)).toMatchObject({ email: u.email, delivery_email: u.email });
    const events = await s.captureEvents(async () => {
      (await u.client.patch("/settings", { email_address_visibility: 3 })).success();
    });
    const row = await s.app.db.get<{ email: string; delivery_email: string }>("SELECT email, delivery_email FROM users WHERE id = ?", [u.id]);
    expect(row).toEqual({ email: dummy(u.id), delivery_email: u.email });

    // members and guests lose the address; administrators keep it; everyone learns the new API email
    expect(updates(events.of("hamlet"), u.id)).toEqual([{ user_id: u.id, delivery_email: null }, { user_id: u.id, new_email: dummy(u.id) }]);
    expect(updates(events.of("shiva"), u.id)).toEqual([{ user_id: u.id, delivery_email: null }, { user_id: u.id, new_email: dummy(u.id) }]);
    expect(updates(events.of("iago"), u.id)).toEqual([{ user_id: u.id, new_email: dummy(u.id) }]);
    expect(updates(events.ofUser(u.id), u.id)).toEqual([{ user_id: u.id, new_email: dummy(u.id) }]);

    expect(await member(s.users.hamlet, u.id)).toMatchObject({ email: dummy(u.id), delivery_email: null });
    expect(await member(s.users.polonius, u.id)).toMatchObject({ email: dummy(u.id), delivery_email: null });
    expect(await member(s.users.iago, u.id)).toMatchObject({ email: dummy(u.id), delivery_email: u.email });
    expect((await s.users.hamlet.client.get(`/users/${u.id}`)).success().user.delivery_email).toBeNull();
    expect((await u.client.get("/users/me")).success()).toMatchObject({ email: dummy(u.id), delivery_email: u.email });

    const hamletState = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm_user"] })).success();
    expect(hamletState.realm_users.find((p: any) => p.user_id === u.id)).toMatchObject({ email: dummy(u.id), delivery_email: null });
    const ownState = (await u.client.post("/register", { fetch_event_types: ["realm_user"] })).success();
    expect(ownState).toMatchObject({ email: dummy(u.id), delivery_email: u.email });
    expect(ownState.realm_users.find((p: any) => p.user_id === u.id).delivery_email).toBe(u.email);

    // the real address still logs in and authenticates; only those who may see it can look the user up by it
    expect((await s.clientFor(u.email, u.apiKey).get("/users/me")).success().user_id).toBe(u.id);
    (await s.users.hamlet.client.get(`/users/${u.email}`)).error("No such user");
    expect((await s.users.iago.client.get(`/users/${u.email}`)).success().user.user_id).toBe(u.id);
    expect((await s.users.hamlet.client.get(`/users/${dummy(u.id)}`)).success().user.user_id).toBe(u.id);
    // Zulip 10: the dummy address finds any user, whatever their setting
    expect((await s.users.cordelia.client.get(`/users/${dummy(s.users.othello.id)}`)).success().user.email).toBe("othello@zulip.com");
  });

  test("members-only and moderators-only admit exactly those roles, and 'everyone' brings the real address back", async () => {
    const u = await makeUser(s, "Choosy Person");
    const events = await s.captureEvents(async () => {
      (await u.client.patch("/settings", { email_address_visibility: 2 })).success();
    });
    expect(updates(events.of("hamlet"), u.id)).toEqual([{ user_id: u.id, new_email: dummy(u.id) }]);
    expect(updates(events.of("polonius"), u.id)).toEqual([{ user_id: u.id, delivery_email: null }, { user_id: u.id, new_email: dummy(u.id) }]);
    expect((await member(s.users.hamlet, u.id)).delivery_email).toBe(u.email);
    expect((await member(s.users.polonius, u.id)).delivery_email).toBeNull();

    // between two restricted values the API email stays the dummy one
    const moderators = await s.captureEvents(async () => {
      (await u.client.patch("/settings", { email_address_visibility: 5 })).success();
    });
    expect(updates(moderators.of("hamlet"), u.id)).toEqual([{ user_id: u.id, delivery_email: null }]);
    expect(updates(moderators.of("shiva"), u.id)).toEqual([]);
    expect((await member(s.users.shiva, u.id)).delivery_email).toBe(u.email);
    expect((await member(s.users.hamlet, u.id)).delivery_email).toBeNull();

    const nobody = await s.captureEvents(async () => {
      (await u.client.patch("/settings", { email_address_visibility: 4 })).success();
    });
    expect(updates(nobody.of("desdemona"), u.id)).toEqual([{ user_id: u.id, delivery_email: null }]);
    expect((await member(s.users.desdemona, u.id)).delivery_email).toBeNull();

    const everyone = await s.captureEvents(async () => {
      (await u.client.patch("/settings", { email_address_visibility: 1 })).success();
    });
    expect(updates(everyone.of("hamlet"), u.id)).toEqual([{ user_id: u.id, delivery_email: u.email }, { user_id: u.id, new_email: u.email }]);
    expect(await member(s.users.polonius, u.id)).toMatchObject({ email: u.email, delivery_email: u.email });
    (await u.client.patch("/settings", { email_address_visibility: 6 })).error("Invalid email_address_visibility");
  });

  test("a user created while the organization's default is 'nobody' has a dummy API email from the start", async () => {
    (await s.users.iago.client.patch("/realm/user_settings_defaults", { email_address_visibility: 4 })).success();
    try {
      let id = 0;
      const events = await s.captureEvents(async () => {
        id = (await s.users.desdemona.client.post("/users", { email: "hidden@zulip.com", password: "s3cret-pass", full_name: "Hidden" })).success().user_id;
      });
      const row = await s.app.db.get<{ email: string; delivery_email: string }>("SELECT email, delivery_email FROM users WHERE id = ?", [id]);
      expect(row).toEqual({ email: dummy(id), delivery_email: "hidden@zulip.com" });
      for (const name of ["hamlet", "desdemona"] as const) {
        const add = events.of(name).find((e: any) => e.type === "realm_user" && e.op === "add") as any;
        expect(add.person).toMatchObject({ user_id: id, email: dummy(id), delivery_email: null });
      }
      const login = (await s.anonymous.post("/fetch_api_key", { username: "hidden@zulip.com", password: "s3cret-pass" })).success();
      expect(login.user_id).toBe(id);
      const bot = (await s.users.hamlet.client.post("/bots", { full_name: "Visible Bot", short_name: "visible" })).success();
      expect((await member(s.users.cordelia, bot.user_id)).email).toBe("visible-bot@parley.test");
    } finally {
      (await s.users.iago.client.patch("/realm/user_settings_defaults", { email_address_visibility: 1 })).success();
    }
  });
});
