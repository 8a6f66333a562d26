import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { REALM_PROPERTY_DEFAULTS } from "../../src/domain/realm-settings";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const groupId = (name: string) => s.app.systemGroups.get(name as any)!;
const stored = async () => JSON.parse((await s.app.db.get<{ settings: string }>("SELECT settings FROM realm"))!.settings);

describe("PATCH /realm: name and description", () => {
  test("an administrator renames the organization and everyone is told", async () => {
    const events = await s.captureEvents(async () => {
      const r = (await s.users.iago.client.patch("/realm", { name: "Elsinore" })).success();
      expect(r.name).toBe("updated");
    });
    expect(s.app.realm!.name).toBe("Elsinore");
    expect((await s.app.db.get<{ name: string }>("SELECT name FROM realm"))!.name).toBe("Elsinore");
    expect(events.of("polonius")).toContainEqual({ type: "realm", op: "update", property: "name", value: "Elsinore" });
    expect((await s.anonymous.get("/server_settings")).success().realm_name).toBe("Elsinore");
  });

  test("names and descriptions are validated", async () => {
    const c = s.users.iago.client;
    (await c.patch("/realm", { name: "x".repeat(41) })).error("name is too long (limit: 40 characters)");
    (await c.patch("/realm", { name: "   " })).error("Organization name can't be empty.");
    (await c.patch("/realm", { description: "d".repeat(1001) })).error("description is too long (limit: 1000 characters)");
    const r = (await c.patch("/realm", { description: "Something is rotten" })).success();
    expect(r.description).toBe("updated");
    expect(s.app.realm!.description).toBe("Something is rotten");
  });

  test("an unchanged value sends no event and reports nothing", async () => {
    const events = await s.captureEvents(async () => {
      const r = (await s.users.iago.client.patch("/realm", { name: "Elsinore" })).success();
      expect(r).toEqual({ result: "success", msg: "" });
    });
    expect(events.types()).toEqual([]);
  });

  test("members, moderators and guests are refused", async () => {
    for (const who of ["hamlet", "shiva", "polonius"] as const) {
      (await s.users[who].client.patch("/realm", { name: "Mine" })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    }
    expect(s.app.realm!.name).toBe("Elsinore");
  });

  test("unknown parameters are reported as ignored", async () => {
    const r = (await s.users.iago.client.patch("/realm", { inline_image_preview: false, frobnicate: true })).success();
    expect(r.inline_image_preview).toBe(false);
    expect(r.ignored_parameters_unsupported).toEqual(["frobnicate"]);
  });
});

describe("PATCH /realm: time limits, retention, waiting period and topics", () => {
  test("message_content_edit_limit_seconds takes seconds or 'unlimited' and is sent as update_dict", async () => {
    expect(s.app.realm!.settings.message_content_edit_limit_seconds).toBe(600);
    const events = await s.captureEvents(async () => {
      expect((await s.users.iago.client.patch("/realm", { message_content_edit_limit_seconds: 3600 })).success().message_content_edit_limit_seconds).toBe(3600);
    });
    expect(events.of("hamlet")).toContainEqual({ type: "realm", op: "update_dict", property: "default", data: { message_content_edit_limit_seconds: 3600 } });
    (await s.users.iago.client.patch("/realm", { message_content_edit_limit_seconds: "unlimited" })).success();
    expect(s.app.realm!.settings.message_content_edit_limit_seconds).toBeNull();
    (await s.users.iago.client.patch("/realm", { message_content_edit_limit_seconds: 0 })).error("Bad value for 'message_content_edit_limit_seconds': 0", "REQUEST_VARIABLE_INVALID");
    (await s.users.iago.client.patch("/realm", { message_content_edit_limit_seconds: "forever" })).error("Bad value for 'message_content_edit_limit_seconds': forever", "REQUEST_VARIABLE_INVALID");
  });

  test("message_content_delete_limit_seconds defaults to unlimited and takes seconds", async () => {
    expect(s.app.realm!.settings.message_content_delete_limit_seconds).toBeNull();
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.patch("/realm", { message_content_delete_limit_seconds: 120 })).success();
    });
    expect(s.app.realm!.settings.message_content_delete_limit_seconds).toBe(120);
    expect(events.of("cordelia")).toContainEqual({ type: "realm", op: "update", property: "message_content_delete_limit_seconds", value: 120 });
  });

  test("message_retention_days and waiting_period_threshold are for owners", async () => {
    (await s.users.iago.client.patch("/realm", { message_retention_days: 30 })).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.iago.client.patch("/realm", { waiting_period_threshold: 3 })).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
    const r = (await s.users.desdemona.client.patch("/realm", { message_retention_days: 30, waiting_period_threshold: 3 })).success();
    expect(r).toMatchObject({ message_retention_days: 30, waiting_period_threshold: 3 });
    (await s.users.desdemona.client.patch("/realm", { message_retention_days: "unlimited" })).success();
    expect(s.app.realm!.settings.message_retention_days).toBe(-1);
    (await s.users.desdemona.client.patch("/realm", { message_retention_days: 0 })).error("Bad value for 'message_retention_days': 0", "REQUEST_VARIABLE_INVALID");
    (await s.users.desdemona.client.patch("/realm", { waiting_period_threshold: -1 })).error("waiting_period_threshold is too small");
  });

  test("the waiting period decides who is a full member", async () => {
    const full = s.app.systemGroups.get("role:fullmembers")!;
    const { makeUser } = await import("../helpers/people");
    (await s.users.desdemona.client.patch("/realm", { waiting_period_threshold: 0 })).success();
    s.clock.advance(2 * 86400 * 1000);
    const newcomer = await makeUser(s, "Newcomer");
    const events = await s.captureEvents(async () => {
      (await s.users.desdemona.client.patch("/realm", { waiting_period_threshold: 1 })).success();
    });
    expect(s.app.groups.isMember(full, newcomer.id)).toBe(false);
    expect(s.app.groups.isMember(full, s.users.hamlet.id)).toBe(true);
    expect(events.of("hamlet")).toContainEqual({ type: "user_group", op: "remove_members", group_id: full, user_ids: [newcomer.id] });
    const later = await makeUser(s, "Later Newcomer");
    expect(s.app.groups.isMember(full, later.id)).toBe(false);
    expect(s.app.groups.isMember(s.app.systemGroups.get("role:members")!, later.id)).toBe(true);
    (await s.users.desdemona.client.patch("/realm", { waiting_period_threshold: 0 })).success();
    expect(s.app.groups.isMember(full, newcomer.id)).toBe(true);
    expect(s.app.groups.isMember(full, later.id)).toBe(true);
  });

  test("topics_policy and the legacy mandatory_topics move together", async () => {
    expect(s.app.realm!.settings.topics_policy).toBe("allow_empty_topic");
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.patch("/realm", { topics_policy: "disable_empty_topic" })).success();
    });
    expect(s.app.realm!.settings).toMatchObject({ topics_policy: "disable_empty_topic", mandatory_topics: true });
    expect(events.of("hamlet")).toContainEqual({ type: "realm", op: "update", property: "topics_policy", value: "disable_empty_topic" });
    expect(events.of("hamlet")).toContainEqual({ type: "realm", op: "update", property: "mandatory_topics", value: true });
    (await s.users.iago.client.patch("/realm", { mandatory_topics: false })).success();
    expect(s.app.realm!.settings.topics_policy).toBe("allow_empty_topic");
    (await s.users.iago.client.patch("/realm", { topics_policy: "empty_topic_only" })).error("Invalid topics_policy");
  });

  test("the empty-topic display name, public access and spectators are settings too", async () => {
    expect(s.app.realm!.settings.empty_topic_display_name).toBe("general chat");
    const r = (await s.users.iago.client.patch("/realm", { empty_topic_display_name: "no subject", allow_public_access: true, enable_spectator_access: true })).success();
    expect(r).toEqual({ result: "success", msg: "", empty_topic_display_name: "updated", allow_public_access: true, enable_spectator_access: true });
    const state = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm"] })).success();
    expect(state).toMatchObject({ realm_empty_topic_display_name: "no subject", realm_enable_spectator_access: true });
    (await s.anonymous.get("/users")).success();
    (await s.users.iago.client.patch("/realm", { allow_public_access: false })).success();
    (await s.anonymous.get("/users")).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
  });

  test("settings keep Zulip's defaults until changed", () => {
    const fresh = { ...REALM_PROPERTY_DEFAULTS };
    expect(fresh).toMatchObject({ waiting_period_threshold: 0, message_retention_days: -1, message_content_edit_limit_seconds: 600, message_content_delete_limit_seconds: null });
  });
});

describe("PATCH /realm: announcement channels", () => {
  test("an administrator names a channel they can read for new channels, new people and Zulip updates; everyone is told; -1 turns it off", async () => {
    const lobby = await createChannel(s, "iago", "lobby", { subscribers: ["hamlet"] });
    const events = await s.captureEvents(async () => {
      const r = (await s.users.iago.client.patch("/realm", { new_stream_announcements_stream_id: lobby, signup_announcements_stream_id: lobby, zulip_update_announcements_stream_id: lobby })).success();
      expect(r).toMatchObject({ new_stream_announcements_stream_id: lobby, signup_announcements_stream_id: lobby, zulip_update_announcements_stream_id: lobby });
    });
    expect(await stored()).toMatchObject({ new_stream_announcements_stream_id: lobby, signup_announcements_stream_id: lobby });
    expect(events.of("polonius")).toContainEqual({ type: "realm", op: "update", property: "new_stream_announcements_stream_id", value: lobby });
    expect((await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm"] })).success().realm_new_stream_announcements_stream_id).toBe(lobby);
    // a new channel is announced there (Zulip's announce)
    (await s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "news desk" }], announce: true })).success();
    const notice = await s.app.db.get<{ content: string }>("SELECT content FROM messages WHERE stream_id = ? ORDER BY id DESC LIMIT 1", [lobby]);
    expect(notice!.content).toContain("#**news desk**");
    (await s.users.iago.client.patch("/realm", { zulip_update_announcements_stream_id: -1 })).success();
    expect((await stored()).zulip_update_announcements_stream_id).toBe(-1);
  });

  test("a channel the administrator cannot read, or none at all, is refused; members may not set them", async () => {
    const secret = await createChannel(s, "hamlet", "hamlet's diary", { invite_only: true });
    const before = await stored();
    (await s.users.iago.client.patch("/realm", { new_stream_announcements_stream_id: secret })).error("Invalid channel ID");
    (await s.users.iago.client.patch("/realm", { signup_announcements_stream_id: 99999 })).error("Invalid channel ID");
    (await s.users.hamlet.client.patch("/realm", { new_stream_announcements_stream_id: secret })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    expect(await stored()).toEqual(before);
  });
});

describe("PATCH /realm: group settings", () => {
  test("a setting takes a system group and everyone gets update_dict", async () => {
    const admins = groupId("role:administrators");
    const events = await s.captureEvents(async () => {
      const r = (await s.users.iago.client.patch("/realm", { can_create_public_channel_group: { new: admins, old: groupId("role:members") } })).success();
      expect(r.can_create_public_channel_group).toBe(admins);
    });
    expect(s.app.realm!.settings.can_create_public_channel_group).toBe(admins);
    expect((await stored()).can_create_public_channel_group).toBe(admins);
    expect(events.of("polonius")).toContainEqual({ type: "realm", op: "update_dict", property: "default", data: { can_create_public_channel_group: admins } });
  });

  test("a stale 'old' value is refused with EXPECTATION_MISMATCH", async () => {
    (await s.users.iago.client.patch("/realm", { can_create_public_channel_group: { new: groupId("role:members"), old: groupId("role:owners") } })).error(
      "'old' value does not match the expected value.",
      "EXPECTATION_MISMATCH",
    );
    expect(s.app.realm!.settings.can_create_public_channel_group).toBe(groupId("role:administrators"));
  });

  test("an anonymous value of users and groups grants the permission to exactly them", async () => {
    const value = { direct_members: [s.users.hamlet.id], direct_subgroups: [groupId("role:moderators")] };
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.patch("/realm", { can_mention_many_users_group: { new: value } })).success();
    });
    expect(events.of("othello")).toContainEqual({ type: "realm", op: "update_dict", property: "default", data: { can_mention_many_users_group: value } });
    const setting = s.app.realm!.settings.can_mention_many_users_group;
    expect(s.app.groups.settingIncludes(setting, s.users.hamlet.id)).toBe(true);
    expect(s.app.groups.settingIncludes(setting, s.users.shiva.id)).toBe(true);
    expect(s.app.groups.settingIncludes(setting, s.users.iago.id)).toBe(true);
    expect(s.app.groups.settingIncludes(setting, s.users.othello.id)).toBe(false);
    (await s.users.iago.client.patch("/realm", { can_mention_many_users_group: { new: value, old: value } })).success();
    (await s.users.iago.client.patch("/realm", { can_mention_many_users_group: { new: { direct_members: [424242], direct_subgroups: [] } } })).error("Invalid user ID: 424242");
    (await s.users.iago.client.patch("/realm", { can_mention_many_users_group: { new: 424242 } })).error("Invalid user group");
  });

  test("each setting's limits are enforced", async () => {
    const c = s.users.desdemona.client;
    (await c.patch("/realm", { can_create_groups: { new: groupId("role:everyone") } })).error("'can_create_groups' setting cannot be set to 'role:everyone' group.");
    (await c.patch("/realm", { can_manage_all_groups: { new: groupId("role:nobody") } })).error("'can_manage_all_groups' setting cannot be set to 'role:nobody' group.");
    (await c.patch("/realm", { can_access_all_users_group: { new: groupId("role:administrators") } })).error(
      "'can_access_all_users_group' setting cannot be set to 'role:administrators' group.",
    );
    (await c.patch("/realm", { can_access_all_users_group: { new: { direct_members: [s.users.hamlet.id], direct_subgroups: [] } } })).error(
      "'can_access_all_users_group' must be a system user group.",
      "SYSTEM_GROUP_REQUIRED",
    );
    (await c.patch("/realm", { can_delete_own_message_group: { new: groupId("role:internet") } })).error("'can_delete_own_message_group' setting cannot be set to 'role:internet' group.");
    (await c.patch("/realm", { can_add_subscribers_group: { new: "members" } })).error('can_add_subscribers_group["new"] is not an integer');
  });

  test("some group settings are for owners only", async () => {
    for (const setting of ["can_create_groups", "can_invite_users_group", "can_manage_all_groups", "create_multiuse_invite_group"]) {
      (await s.users.iago.client.patch("/realm", { [setting]: { new: groupId("role:administrators") } })).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
    }
    (await s.users.desdemona.client.patch("/realm", { can_invite_users_group: { new: groupId("role:administrators") } })).success();
    expect(s.app.realm!.settings.can_invite_users_group).toBe(groupId("role:administrators"));
  });

  test("the realm register state shows the new values", async () => {
    (await s.users.iago.client.patch("/realm", { can_delete_any_message_group: { new: groupId("role:moderators") }, direct_message_permission_group: { new: groupId("role:members") } })).success();
    const state = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm"] })).success();
    expect(state.realm_can_delete_any_message_group).toBe(groupId("role:moderators"));
    expect(state.realm_direct_message_permission_group).toBe(groupId("role:members"));
    expect(state.realm_name).toBe("Elsinore");
  });
});
