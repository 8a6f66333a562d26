import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { makeStream, makeUser, setRealmSettings } from "../helpers/people";
import { ROLE } from "../../src/domain/roles";
import { realmBotState } from "../../src/actions/state/bots";
import { findUserById } from "../../src/store/users";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const groupId = (name: string) => s.app.systemGroups.get(name as any)!;
const row = (id: number) => s.app.db.get<any>("SELECT * FROM users WHERE id = ?", [id]);

describe("POST /bots", () => {
  test("a member creates a generic bot they own, and it can use the API with its key", async () => {
    let bot: any;
    const events = await s.captureEvents(async () => {
      bot = (await s.users.hamlet.client.post("/bots", { full_name: "Hamlet's Bot", short_name: "hamlet" })).success();
    });
    expect(bot).toMatchObject({ default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false });
    expect(bot.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(bot.avatar_url).toContain("gravatar");
    expect(await row(bot.user_id)).toMatchObject({ email: "hamlet-bot@parley.test", full_name: "Hamlet's Bot", is_bot: 1, bot_type: 1, bot_owner_id: s.users.hamlet.id, role: 400 });
    const me = (await s.clientFor("hamlet-bot@parley.test", bot.api_key).get("/users/me")).success();
    expect(me).toMatchObject({ user_id: bot.user_id, is_bot: true });
    const added = events.of("othello").find((e) => e.type === "realm_user" && e.op === "add") as any;
    expect(added.person).toMatchObject({ user_id: bot.user_id, is_bot: true, bot_type: 1, bot_owner_id: s.users.hamlet.id });
    const botEvent = { type: "realm_bot", op: "add", bot: expect.objectContaining({ user_id: bot.user_id, owner_id: s.users.hamlet.id, api_key: bot.api_key, bot_type: 1, is_active: true, services: [] }) };
    expect(events.of("hamlet")).toContainEqual(botEvent);
    expect(events.of("iago")).toContainEqual(botEvent);
    expect(events.of("othello").some((e) => e.type === "realm_bot")).toBe(false);
  });

  test("incoming webhook bots are type 2; outgoing ones (3) need a payload_url; other types are refused", async () => {
    const bot = (await s.users.hamlet.client.post("/bots", { full_name: "Hook", short_name: "hook", bot_type: 2 })).success();
    expect((await row(bot.user_id)).bot_type).toBe(2);
    (await s.users.hamlet.client.post("/bots", { full_name: "Outgoing", short_name: "out", bot_type: 3 })).error("payload_url is not a URL");
    (await s.users.hamlet.client.post("/bots", { full_name: "Embedded", short_name: "emb", bot_type: 4 })).error("Invalid bot type");
    (await s.users.hamlet.client.post("/bots", { full_name: "Weird", short_name: "weird", bot_type: 9 })).error("Invalid bot type");
  });

  test("names are validated and must be free", async () => {
    const c = s.users.othello.client;
    (await c.post("/bots", { full_name: "Another", short_name: "hamlet" })).error("Username already in use");
    (await c.post("/bots", { full_name: "Hamlet's Bot", short_name: "other" })).error("Name is already in use!");
    (await c.post("/bots", { full_name: "Spaces", short_name: "   " })).error("Bad name or username");
    (await c.post("/bots", { full_name: "Bad", short_name: "a b" })).error("Bad name or username");
    (await c.post("/bots", { full_name: "", short_name: "empty" })).error("Name too short!");
    (await c.post("/bots", { short_name: "nameless" })).error("Missing 'full_name' argument", "REQUEST_VARIABLE_MISSING");
  });

  test("guests cannot create bots, and can_create_bots_group limits members", async () => {
    (await s.users.polonius.client.post("/bots", { full_name: "Guest Bot", short_name: "guest" })).error("Insufficient permission");
    await setRealmSettings(s, { can_create_bots_group: groupId("role:administrators"), can_create_write_only_bots_group: groupId("role:members") });
    try {
      (await s.users.cordelia.client.post("/bots", { full_name: "Generic", short_name: "cgeneric" })).error("Insufficient permission");
      (await s.users.cordelia.client.post("/bots", { full_name: "Webhook", short_name: "chook", bot_type: 2 })).success();
      (await s.users.iago.client.post("/bots", { full_name: "Admin Bot", short_name: "admin" })).success();
    } finally {
      await setRealmSettings(s, { can_create_bots_group: groupId("role:members"), can_create_write_only_bots_group: groupId("role:members") });
    }
  });

  test("default channels are given by name; private ones need a subscription", async () => {
    await makeStream(s, "bot lounge", [s.users.cordelia.id]);
    await makeStream(s, "bot vault", [s.users.cordelia.id], { inviteOnly: true });
    const bot = (await s.users.cordelia.client.post("/bots", {
      full_name: "Lounge Bot",
      short_name: "lounge",
      default_sending_stream: "bot lounge",
      default_events_register_stream: "bot vault",
      default_all_public_streams: true,
    })).success();
    expect(bot).toMatchObject({ default_sending_stream: "bot lounge", default_events_register_stream: "bot vault", default_all_public_streams: true });
    (await s.users.othello.client.post("/bots", { full_name: "Vault Bot", short_name: "vault", default_sending_stream: "bot vault" })).error("Invalid channel name 'bot vault'");
    (await s.users.othello.client.post("/bots", { full_name: "Nowhere Bot", short_name: "nowhere", default_sending_stream: "no such place" })).error("Invalid channel name 'no such place'");
  });
});

describe("GET /bots", () => {
  test("lists the caller's active bots with their keys", async () => {
    const u = await makeUser(s, "Bot Lister");
    const a = (await u.client.post("/bots", { full_name: "Lister A", short_name: "listera" })).success();
    const b = (await u.client.post("/bots", { full_name: "Lister B", short_name: "listerb", bot_type: 2 })).success();
    (await u.client.delete(`/bots/${b.user_id}`)).success();
    const { bots } = (await u.client.get("/bots")).success();
    expect(bots).toEqual([
      {
        user_id: a.user_id,
        username: expect.stringMatching(/^listera-bot@/),
        full_name: "Lister A",
        bot_type: 1,
        api_key: a.api_key,
        avatar_url: a.avatar_url,
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      },
    ]);
    expect((await s.users.othello.client.get("/bots")).success().bots.some((x: any) => x.user_id === a.user_id)).toBe(false);
  });
});

describe("PATCH /bots/{bot_id}", () => {
  test("the owner renames their bot; everyone sees the name, owner and admins get realm_bot", async () => {
    const bot = (await s.users.othello.client.post("/bots", { full_name: "Othello Bot", short_name: "othello" })).success();
    const events = await s.captureEvents(async () => {
      const r = (await s.users.othello.client.patch(`/bots/${bot.user_id}`, { full_name: "Moor Bot" })).success();
      expect(r).toMatchObject({ full_name: "Moor Bot", bot_owner: "othello@zulip.com", default_all_public_streams: false });
    });
    expect((await row(bot.user_id)).full_name).toBe("Moor Bot");
    expect(events.of("hamlet")).toContainEqual({ type: "realm_user", op: "update", person: { user_id: bot.user_id, full_name: "Moor Bot" } });
    expect(events.of("othello")).toContainEqual({ type: "realm_bot", op: "update", bot: { user_id: bot.user_id, full_name: "Moor Bot" } });
    expect(events.of("hamlet").some((e) => e.type === "realm_bot")).toBe(false);
  });

  test("others cannot edit a bot, and a user is not a bot", async () => {
    const bot = (await s.users.othello.client.post("/bots", { full_name: "Private Bot", short_name: "private" })).success();
    (await s.users.cordelia.client.patch(`/bots/${bot.user_id}`, { full_name: "Stolen" })).error("Insufficient permission");
    (await s.users.iago.client.patch(`/bots/${bot.user_id}`, { full_name: "Admin Edited" })).success();
    (await s.users.iago.client.patch(`/bots/${s.users.hamlet.id}`, { full_name: "Not a bot" })).error("No such bot");
    (await s.users.iago.client.patch("/bots/909090", { full_name: "Ghost" })).error("No such bot");
  });

  test("changing the owner moves the bot between owners' lists", async () => {
    const bot = (await s.users.othello.client.post("/bots", { full_name: "Handed Bot", short_name: "handed" })).success();
    const events = await s.captureEvents(async () => {
      (await s.users.othello.client.patch(`/bots/${bot.user_id}`, { bot_owner_id: s.users.cordelia.id })).success();
    });
    expect((await row(bot.user_id)).bot_owner_id).toBe(s.users.cordelia.id);
    expect(events.of("othello")).toContainEqual({ type: "realm_bot", op: "delete", bot: { user_id: bot.user_id } });
    expect(events.of("cordelia")).toContainEqual(expect.objectContaining({ type: "realm_bot", op: "add" }));
    expect(events.of("iago")).toContainEqual({ type: "realm_bot", op: "update", bot: { user_id: bot.user_id, owner_id: s.users.cordelia.id } });
    expect(events.of("hamlet")).toContainEqual({ type: "realm_user", op: "update", person: { user_id: bot.user_id, bot_owner_id: s.users.cordelia.id } });
    (await s.users.othello.client.patch(`/bots/${bot.user_id}`, { full_name: "Mine Again" })).error("Insufficient permission");
    (await s.users.cordelia.client.patch(`/bots/${bot.user_id}`, { bot_owner_id: 808080 })).error("Failed to change owner, no such user");
    (await s.users.cordelia.client.patch(`/bots/${bot.user_id}`, { bot_owner_id: bot.user_id })).error("Failed to change owner, bots can't own other bots");
  });

  test("only administrators change a bot's role, and only owners make it an owner", async () => {
    const bot = (await s.users.hamlet.client.post("/bots", { full_name: "Role Bot", short_name: "role" })).success();
    (await s.users.hamlet.client.patch(`/bots/${bot.user_id}`, { role: ROLE.moderator })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.iago.client.patch(`/bots/${bot.user_id}`, { role: ROLE.owner })).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.iago.client.patch(`/bots/${bot.user_id}`, { role: ROLE.moderator })).success();
    expect((await row(bot.user_id)).role).toBe(300);
    expect(s.app.groups.isMember(groupId("role:moderators"), bot.user_id)).toBe(true);
  });

  test("default channels can be changed and cleared", async () => {
    await makeStream(s, "bot news", [s.users.hamlet.id]);
    const bot = (await s.users.hamlet.client.post("/bots", { full_name: "News Bot", short_name: "news" })).success();
    const events = await s.captureEvents(async () => {
      const r = (await s.users.hamlet.client.patch(`/bots/${bot.user_id}`, { default_sending_stream: "bot news" })).success();
      expect(r.default_sending_stream).toBe("bot news");
    });
    expect(events.of("hamlet")).toContainEqual({ type: "realm_bot", op: "update", bot: { user_id: bot.user_id, default_sending_stream: "bot news" } });
    expect((await s.users.hamlet.client.patch(`/bots/${bot.user_id}`, { default_sending_stream: "" })).success().default_sending_stream).toBeNull();
  });
});

describe("DELETE /bots/{bot_id}", () => {
  test("the owner deactivates their bot; its key stops working", async () => {
    const bot = (await s.users.cordelia.client.post("/bots", { full_name: "Short Lived", short_name: "short" })).success();
    const events = await s.captureEvents(async () => {
      (await s.users.cordelia.client.delete(`/bots/${bot.user_id}`)).success();
    });
    expect((await row(bot.user_id)).is_active).toBe(0);
    (await s.clientFor((await row(bot.user_id)).email, bot.api_key).get("/users/me")).error("Account is deactivated", "UNAUTHORIZED", 401);
    expect(events.of("hamlet")).toContainEqual({ type: "realm_user", op: "update", person: { user_id: bot.user_id, is_active: false } });
    expect(events.of("cordelia")).toContainEqual({ type: "realm_bot", op: "update", bot: { user_id: bot.user_id, is_active: false } });
  });

  test("others cannot deactivate someone's bot", async () => {
    const bot = (await s.users.cordelia.client.post("/bots", { full_name: "Guarded", short_name: "guarded" })).success();
    (await s.users.hamlet.client.delete(`/bots/${bot.user_id}`)).error("Insufficient permission");
    (await s.users.hamlet.client.delete(`/bots/${s.users.othello.id}`)).error("No such bot");
    (await s.users.iago.client.delete(`/bots/${bot.user_id}`)).success();
  });

  test("a deactivated bot can be reactivated by its owner or an administrator", async () => {
    const bot = (await s.users.cordelia.client.post("/bots", { full_name: "Phoenix", short_name: "phoenix" })).success();
    (await s.users.cordelia.client.delete(`/bots/${bot.user_id}`)).success();
    (await s.users.cordelia.client.post(`/users/${bot.user_id}/reactivate`)).success();
    expect((await row(bot.user_id)).is_active).toBe(1);
  });
});

describe("bot API keys", () => {
  test("the owner reads and regenerates a bot's key; the old key stops working", async () => {
    const bot = (await s.users.othello.client.post("/bots", { full_name: "Keyed Bot", short_name: "keyed" })).success();
    expect((await s.users.othello.client.get(`/bots/${bot.user_id}/api_key`)).success().api_key).toBe(bot.api_key);
    (await s.users.cordelia.client.get(`/bots/${bot.user_id}/api_key`)).error("Insufficient permission");
    let fresh = "";
    const events = await s.captureEvents(async () => {
      fresh = (await s.users.othello.client.post(`/bots/${bot.user_id}/api_key/regenerate`)).success().api_key;
    });
    expect(fresh).not.toBe(bot.api_key);
    (await s.clientFor("keyed-bot@parley.test", bot.api_key).get("/users/me")).error("Invalid API key", "UNAUTHORIZED", 401);
    (await s.clientFor("keyed-bot@parley.test", fresh).get("/users/me")).success();
    expect(events.of("othello")).toContainEqual({ type: "realm_bot", op: "update", bot: { user_id: bot.user_id, api_key: fresh } });
    (await s.users.cordelia.client.post(`/bots/${bot.user_id}/api_key/regenerate`)).error("Insufficient permission");
  });
});

describe("realm_bots in /register", () => {
  test("administrators see every bot, others only their own", async () => {
    const iago = await realmBotState(s.app, (await findUserById(s.app.db, s.users.iago.id))!);
    const hamlet = await realmBotState(s.app, (await findUserById(s.app.db, s.users.hamlet.id))!);
    expect(iago.realm_bots.length).toBeGreaterThan(hamlet.realm_bots.length);
    expect(hamlet.realm_bots.every((b) => b.owner_id === s.users.hamlet.id)).toBe(true);
    expect(hamlet.realm_bots[0]).toMatchObject({ email: "hamlet-bot@parley.test", full_name: "Hamlet's Bot", bot_type: 1, is_active: true, services: [] });
    const state = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm_bot"] })).success();
    expect(state.realm_bots.map((b: any) => b.user_id)).toEqual(hamlet.realm_bots.map((b) => b.user_id));
  });
});

describe("realm_bots across role changes", () => {
  test("a new administrator gets everyone's bots (realm_bot add); a former one loses them (realm_bot delete)", async () => {
    const climber = await makeUser(s, "Bot Climber");
    const theirs = (await s.users.hamlet.client.post("/bots", { full_name: "Hamlet Helper", short_name: "hamlet-helper" })).success().user_id;
    const up = await s.captureEvents(async () => (await s.users.desdemona.client.patch(`/users/${climber.id}`, { role: ROLE.administrator })).success());
    const added = up.ofUser(climber.id).filter((e: any) => e.type === "realm_bot" && e.op === "add").map((e: any) => e.bot);
    expect(added).toContainEqual(expect.objectContaining({ user_id: theirs, full_name: "Hamlet Helper", owner_id: s.users.hamlet.id }));
    // hamlet owns the bot: nothing changes for hamlet
    expect(up.of("hamlet").filter((e: any) => e.type === "realm_bot")).toEqual([]);
    const down = await s.captureEvents(async () => (await s.users.desdemona.client.patch(`/users/${climber.id}`, { role: ROLE.member })).success());
    expect(down.ofUser(climber.id)).toContainEqual({ type: "realm_bot", op: "delete", bot: { user_id: theirs } });
    const state = await realmBotState(s.app, (await findUserById(s.app.db, climber.id))!);
    expect(state.realm_bots).toEqual([]);
  });
});
