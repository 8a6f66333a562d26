import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createUser } from "../../src/actions/users";
import { USER_SETTING_DEFAULTS, userSettings } from "../../src/domain/user-settings";
import { findUserById } from "../../src/store/users";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const stored = async (id: number) => JSON.parse((await s.app.db.get<{ settings: string }>("SELECT settings FROM users WHERE id = ?", [id]))!.settings);
const effective = async (id: number) => userSettings((await findUserById(s.app.db, id))!);

describe("PATCH /settings", () => {
  test("a user changes display and notification settings; each change is one user_settings event to the user alone", async () => {
    const hamlet = s.users.hamlet;
    const events = await s.captureEvents(async () => {
      (await hamlet.client.patch("/settings", { twenty_four_hour_time: true, enable_sounds: false, automatically_follow_topics_policy: 1 })).success();
    });
    expect(await stored(hamlet.id)).toEqual({ twenty_four_hour_time: true, enable_sounds: false, automatically_follow_topics_policy: 1 });
    expect(events.of("hamlet")).toEqual([
      { type: "user_settings", op: "update", property: "twenty_four_hour_time", value: true },
      { type: "user_settings", op: "update", property: "enable_sounds", value: false },
      { type: "user_settings", op: "update", property: "automatically_follow_topics_policy", value: 1 },
    ]);
    expect(events.of("othello")).toEqual([]);
    const mine = await effective(hamlet.id);
    expect(mine.automatically_follow_topics_policy).toBe(1);
    expect(mine.enter_sends).toBe(false);
  });

  test("setting a value back to Zulip's default stores nothing for it, and an unchanged value sends no event", async () => {
    const hamlet = s.users.hamlet;
    const events = await s.captureEvents(async () => {
      (await hamlet.client.patch("/settings", { twenty_four_hour_time: false, enable_sounds: false })).success();
    });
    expect(await stored(hamlet.id)).toEqual({ enable_sounds: false, automatically_follow_topics_policy: 1 });
    expect(events.of("hamlet").map((e) => e.property ?? e.type)).toEqual(["twenty_four_hour_time"]);
  });

  test("string settings take their raw form value and default_language events carry the language name", async () => {
    const c = s.users.cordelia.client;
    const events = await s.captureEvents(async () => {
      (await c.patch("/settings", { emojiset: "twitter", default_language: "de", web_home_view: "recent_topics" })).success();
    });
    const mine = await effective(s.users.cordelia.id);
    expect([mine.emojiset, mine.default_language, mine.web_home_view]).toEqual(["twitter", "de", "recent_topics"]);
    expect(events.of("cordelia")).toContainEqual({ type: "user_settings", op: "update", property: "default_language", value: "de", language_name: "German" });
  });

  test("the legacy /settings/display and /settings/notifications paths are aliases", async () => {
    const c = s.users.othello.client;
    (await c.patch("/settings/display", { left_side_userlist: true })).success();
    (await c.patch("/settings/notifications", { enable_digest_emails: false })).success();
    const mine = await effective(s.users.othello.id);
    expect(mine.left_side_userlist).toBe(true);
    expect(mine.enable_digest_emails).toBe(false);
  });

  test("changing the time zone updates the column and tells everyone who can see the user", async () => {
    const shiva = s.users.shiva;
    const events = await s.captureEvents(async () => {
      (await shiva.client.patch("/settings", { timezone: "Asia/Kolkata" })).success();
    });
    expect((await findUserById(s.app.db, shiva.id))!.timezone).toBe("Asia/Kolkata");
    expect(events.of("shiva")).toEqual([
      { type: "user_settings", op: "update", property: "timezone", value: "Asia/Kolkata" },
      { type: "realm_user", op: "update", person: { user_id: shiva.id, email: shiva.email, timezone: "Asia/Kolkata" } },
    ]);
    expect(events.of("polonius")).toEqual([{ type: "realm_user", op: "update", person: { user_id: shiva.id, email: shiva.email, timezone: "Asia/Kolkata" } }]);
  });

  test("bad values are refused with Zulip's messages and nothing changes", async () => {
    const c = s.users.iago.client;
    const before = await stored(s.users.iago.id);
    (await c.patch("/settings", { emojiset: "apple" })).error("Invalid emojiset");
    (await c.patch("/settings", { color_scheme: 7 })).error("Invalid color_scheme");
    (await c.patch("/settings", { web_home_view: "nowhere" })).error("Invalid web_home_view");
    (await c.patch("/settings", { default_language: "xx" })).error("Invalid default_language");
    (await c.patch("/settings", { timezone: "Mars/Olympus" })).error("Invalid timezone 'Mars/Olympus'");
    (await c.patch("/settings", { notification_sound: "foghorn" })).error("Invalid notification sound 'foghorn'");
    (await c.patch("/settings", { email_notifications_batching_period_seconds: 0 })).error("Invalid email batching period: 0 seconds");
    (await c.patch("/settings", { email_notifications_batching_period_seconds: 8 * 86400 })).error(`Invalid email batching period: ${8 * 86400} seconds`);
    (await c.patch("/settings", { enter_sends: "yes" })).error("enter_sends is not valid JSON");
    (await c.patch("/settings", { enter_sends: 1 })).error("enter_sends is not a boolean");
    (await c.patch("/settings", { web_font_size_px: "big" })).error("web_font_size_px is not valid JSON");
    // One bad value spoils the whole request.
    (await c.patch("/settings", { enter_sends: true, emojiset: "apple" })).error("Invalid emojiset");
    expect(await stored(s.users.iago.id)).toEqual(before);
  });

  test("notification_sound accepts the offered sounds and none", async () => {
    const c = s.users.iago.client;
    (await c.patch("/settings", { notification_sound: "ding" })).success();
    (await c.patch("/settings", { notification_sound: "none" })).success();
    expect((await effective(s.users.iago.id)).notification_sound).toBe("none");
  });

  test("unknown parameters are reported as ignored", async () => {
    const r = (await s.users.iago.client.patch("/settings", { enter_sends: true, dense_mode: true })).success();
    expect(r.ignored_parameters_unsupported).toEqual(["dense_mode"]);
  });

  test("parameters in the query string (as zulip-js sends PATCH) work", async () => {
    const r = await s.server.handle(
      new Request("http://parley.test/api/v1/settings?high_contrast_mode=true", {
        method: "PATCH",
        headers: { authorization: "Basic " + btoa(`${s.users.iago.email}:${s.users.iago.apiKey}`) },
      }),
    );
    expect(r.status).toBe(200);
    expect((await effective(s.users.iago.id)).high_contrast_mode).toBe(true);
  });

  test("turning draft synchronization off deletes the server's drafts", async () => {
    const c = s.users.othello.client;
    (await c.post("/drafts", { drafts: [{ type: "", to: [], topic: "", content: "keep me?" }] })).success();
    (await c.patch("/settings", { enable_drafts_synchronization: false })).success();
    expect(await s.app.db.get("SELECT count(*) AS n FROM drafts WHERE user_id = ?", [s.users.othello.id])).toEqual({ n: 0 });
    (await c.patch("/settings", { enable_drafts_synchronization: true })).success();
  });
});

describe("PATCH /settings with a new full name", () => {
  test("renames the user and tells everyone who can see them", async () => {
    const { othello } = s.users;
    const events = await s.captureEvents(async () => {
      (await othello.client.patch("/settings", { full_name: "  Othello the Moor  " })).success();
    });
    expect((await findUserById(s.app.db, othello.id))!.full_name).toBe("Othello the Moor");
    expect(events.of("hamlet")).toEqual([{ type: "realm_user", op: "update", person: { user_id: othello.id, full_name: "Othello the Moor" } }]);
    (await othello.client.patch("/settings", { full_name: "" })).error("Name too short!");
    (await othello.client.patch("/settings", { full_name: "x".repeat(101), enter_sends: true })).error("Name too long!");
    expect((await effective(othello.id)).enter_sends).toBe(false);
  });

  test("when the organization disabled name changes, members' new names are silently ignored", async () => {
    (await s.users.desdemona.client.patch("/realm", { name_changes_disabled: true })).success();
    try {
      (await s.users.othello.client.patch("/settings", { full_name: "Someone Else" })).success();
      expect((await findUserById(s.app.db, s.users.othello.id))!.full_name).toBe("Othello the Moor");
      (await s.users.iago.client.patch("/settings", { full_name: "Iago the Admin" })).success();
      expect((await findUserById(s.app.db, s.users.iago.id))!.full_name).toBe("Iago the Admin");
    } finally {
      (await s.users.desdemona.client.patch("/realm", { name_changes_disabled: false })).success();
    }
  });
});

describe("PATCH /settings with a password change", () => {
  test("the old password must match; the new one is stored and works", async () => {
    const u = await createUser(s.app, null, { email: "pw@zulip.com", fullName: "Pass Word", password: "correct horse", role: 400 });
    const c = s.clientFor(u.email, u.apiKey);
    (await c.patch("/settings", { old_password: "wrong", new_password: "battery staple" })).error("Wrong password!");
    (await c.patch("/settings", { new_password: "battery staple" })).error("Wrong password!");
    (await c.patch("/settings", { old_password: "correct horse", new_password: "abc" })).error("New password is too weak!");
    (await c.patch("/settings", { old_password: "correct horse", new_password: "x".repeat(101) })).error("new_password is too long (limit: 100 characters)");
    (await c.patch("/settings", { old_password: "correct horse", new_password: "battery staple" })).success();
    const hash = (await findUserById(s.app.db, u.userId))!.password_hash!;
    expect(await Bun.password.verify("battery staple", hash)).toBe(true);
    const login = await s.anonymous.post("/fetch_api_key", { username: u.email, password: "battery staple" });
    expect(login.success().api_key).toBe(u.apiKey);
  });

  test("a user without a password cannot set one this way", async () => {
    (await s.users.cordelia.client.patch("/settings", { old_password: "", new_password: "something long" })).error("Wrong password!");
  });
});

describe("PATCH /realm/user_settings_defaults", () => {
  test("administrators change the defaults; everyone hears of it; existing users keep their settings", async () => {
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.patch("/realm/user_settings_defaults", { enter_sends: true, emojiset: "text", presence_enabled: false })).success();
    });
    const expected = [
      { type: "realm_user_settings_defaults", op: "update", property: "emojiset", value: "text" },
      { type: "realm_user_settings_defaults", op: "update", property: "enter_sends", value: true },
      { type: "realm_user_settings_defaults", op: "update", property: "presence_enabled", value: false },
    ];
    expect(events.of("hamlet")).toEqual(expected);
    expect(events.of("polonius")).toEqual(expected);
    expect((await effective(s.users.hamlet.id)).enter_sends).toBe(false);
    const r = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm_user_settings_defaults"] })).success();
    expect(r.realm_user_settings_defaults).toMatchObject({ enter_sends: true, emojiset: "text", presence_enabled: false, twenty_four_hour_time: false });
    expect(r.realm_user_settings_defaults.emojiset_choices).toHaveLength(4);
  });

  test("a user created afterwards starts with the organization's defaults, and may change them", async () => {
    const u = await createUser(s.app, null, { email: "newbie@zulip.com", fullName: "Newbie", password: null, role: 400 });
    const mine = await effective(u.userId);
    expect([mine.enter_sends, mine.emojiset, mine.presence_enabled, mine.twenty_four_hour_time]).toEqual([true, "text", false, false]);
    const c = s.clientFor(u.email, u.apiKey);
    (await c.patch("/settings", { enter_sends: false })).success();
    expect((await effective(u.userId)).enter_sends).toBe(false);
  });

  test("members, moderators and guests are refused", async () => {
    for (const name of ["hamlet", "shiva", "polonius"] as const) {
      (await s.users[name].client.patch("/realm/user_settings_defaults", { enter_sends: false })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    }
  });

  test("values are validated and personal-only settings are not defaults", async () => {
    const c = s.users.iago.client;
    (await c.patch("/realm/user_settings_defaults", { emojiset: "apple" })).error("Invalid emojiset");
    (await c.patch("/realm/user_settings_defaults", { notification_sound: "foghorn" })).error("Invalid notification sound 'foghorn'");
    const r = (await c.patch("/realm/user_settings_defaults", { default_language: "de", timezone: "UTC" })).success();
    expect(r.ignored_parameters_unsupported).toEqual(["default_language", "timezone"]);
  });
});

describe("POST /register personal settings", () => {
  test("user_settings holds every setting with Zulip's defaults, the time zone and the choices", async () => {
    const r = (await s.users.polonius.client.post("/register", { fetch_event_types: ["user_settings"], client_capabilities: { notification_settings_null: true, user_settings_object: true } })).success();
    const { emojiset_choices, available_notification_sounds, timezone, ...settings } = r.user_settings;
    expect(settings).toEqual(USER_SETTING_DEFAULTS);
    expect(timezone).toBe("");
    expect(emojiset_choices[0]).toEqual({ key: "google", text: "Google" });
    expect(available_notification_sounds).toContain("zulip");
    expect(r.enter_sends).toBeUndefined();
  });

  test("clients without user_settings_object also get the legacy top-level keys", async () => {
    const r = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["update_display_settings", "update_global_notifications"] })).success();
    expect(r.twenty_four_hour_time).toBe(false);
    expect(r.enable_sounds).toBe(false);
    expect(r.timezone).toBe("");
    expect(r.emojiset_choices).toHaveLength(4);
    expect(r.available_notification_sounds).toContain("ding");
    expect(r.user_settings).toBeUndefined();
    const modern = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["update_display_settings"], client_capabilities: { notification_settings_null: true, user_settings_object: true } })).success();
    expect(modern.twenty_four_hour_time).toBeUndefined();
  });

  test("a queue declaring user_settings_object never gets the legacy events", async () => {
    const c = s.users.hamlet.client;
    const modern = (await c.post("/register", { event_types: ["user_settings", "update_display_settings"], client_capabilities: { notification_settings_null: true, user_settings_object: true } })).success();
    const legacy = (await c.post("/register", { event_types: ["user_settings", "update_display_settings"] })).success();
    (await c.patch("/settings", { fluid_layout_width: true })).success();
    const got = async (queue_id: string) => (await c.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success().events.map((e: any) => e.type);
    expect(await got(modern.queue_id)).toEqual(["user_settings"]);
    expect(await got(legacy.queue_id)).toEqual(["user_settings", "update_display_settings"]);
  });

  test("legacy queues get update_display_settings (time zone and language too) and update_global_notifications", async () => {
    const c = s.users.cordelia.client;
    const { queue_id } = (await c.post("/register", { event_types: ["update_display_settings", "update_global_notifications"] })).success();
    (await c.patch("/settings", { default_language: "fr", timezone: "Europe/Paris", enable_offline_push_notifications: false, starred_message_counts: false })).success();
    const events = (await c.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success().events.map(({ id: _id, ...e }: any) => e);
    const email = s.users.cordelia.email;
    expect(events).toEqual([
      { type: "update_display_settings", user: email, setting_name: "starred_message_counts", setting: false },
      { type: "update_display_settings", user: email, setting_name: "default_language", setting: "fr", language_name: "French" },
      { type: "update_global_notifications", user: email, notification_name: "enable_offline_push_notifications", setting: false },
      { type: "update_display_settings", user: email, setting_name: "timezone", setting: "Europe/Paris" },
    ]);
  });

  test("a full /register (every event type) validates and carries every key of this area", async () => {
    const r = (await s.users.hamlet.client.post("/register", {})).success();
    for (const key of ["user_settings", "realm_user_settings_defaults", "user_status", "muted_users", "drafts", "saved_snippets", "realm_linkifiers", "realm_filters",
      "onboarding_steps", "navigation_tour_video_url", "realm_domains", "realm_default_stream_groups", "has_zoom_token", "giphy_api_key", "stop_words",
      "realm_embedded_bots", "realm_incoming_webhook_bots", "realm_billing", "enter_sends", "enable_sounds"]) {
      expect(r).toHaveProperty(key);
    }
    expect(r.realm_filters).toEqual([]);
    expect(r.navigation_tour_video_url).toBeNull();
  });
});
