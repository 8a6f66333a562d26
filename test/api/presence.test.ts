import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { makeChannel, systemGroup, withRealmSettings } from "../helpers/invite-fixtures";
import { markIdlePresenceOffline } from "../../src/actions/presence";
import { makeUser } from "../helpers/people";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const now = () => Math.floor(s.clock.now() / 1000);
const row = (userId: number) => s.app.db.get<any>("SELECT last_active_time, last_connected_time, last_update_id FROM presence WHERE user_id = ?", [userId]);
const sequence = async () => (await s.app.db.get<{ presence_sequence: number }>("SELECT presence_sequence FROM realm"))!.presence_sequence;
const report = (name: keyof TestServer["users"], params: Record<string, string | number | boolean>) => s.users[name].client.post("/users/me/presence", params);

/** Counts write transactions while fn runs. */
async function countWrites(fn: () => Promise<unknown>): Promise<number> {
  const original = s.app.db.tx;
  let n = 0;
  s.app.db.tx = ((f: any) => {
    n++;
    return original(f);
  }) as typeof original;
  try {
    await fn();
  } finally {
    s.app.db.tx = original;
  }
  return n;
}

describe("POST /users/me/presence: recording", () => {
  test("a first report stores the times, bumps the sequence and tells everyone", async () => {
    const before = await sequence();
    const events = await s.captureEvents(async () => {
      (await report("hamlet", { status: "active", ping_only: true })).success();
    });
    const t = now();
    expect(await row(s.users.hamlet.id)).toEqual({ last_active_time: t, last_connected_time: t, last_update_id: before + 1 });
    expect(await sequence()).toBe(before + 1);
    const expected = {
      type: "presence",
      user_id: s.users.hamlet.id,
      email: "hamlet@zulip.com",
      server_timestamp: s.clock.now() / 1000,
      presence: { website: { client: "website", status: "active", timestamp: t, pushable: false } },
    };
    for (const name of ["hamlet", "iago", "othello", "polonius"] as const) expect(events.of(name)).toEqual([expected]);
  });

  test("the same status again within the minute writes nothing and sends nothing", async () => {
    const before = await row(s.users.hamlet.id);
    s.clock.advance(30_000);
    let writes = -1;
    const events = await s.captureEvents(async () => {
      writes = await countWrites(async () => {
        (await report("hamlet", { status: "active", ping_only: true })).success();
        (await report("hamlet", { status: "idle", ping_only: true })).success();
      });
    });
    expect(writes).toBe(0);
    expect(await row(s.users.hamlet.id)).toEqual(before);
    expect(events.types()).toEqual([]);
  });

  test("an idle report a minute later moves only the connection time, without an event", async () => {
    const before = await row(s.users.hamlet.id);
    s.clock.advance(30_000);
    const events = await s.captureEvents(async () => {
      (await report("hamlet", { status: "idle", ping_only: true })).success();
    });
    const after = await row(s.users.hamlet.id);
    expect(after.last_active_time).toBe(before.last_active_time);
    expect(after.last_connected_time).toBe(now());
    expect(after.last_update_id).toBeGreaterThan(before.last_update_id);
    expect(events.types()).toEqual([]);
  });

  test("coming back active after a while sends a presence event again", async () => {
    s.clock.advance(120_000);
    const events = await s.captureEvents(async () => {
      (await report("hamlet", { status: "active", ping_only: true })).success();
    });
    expect(events.of("othello")).toHaveLength(1);
    expect((events.of("othello")[0]!.presence as any).website).toEqual({ client: "website", status: "active", timestamp: now(), pushable: false });
  });

  test("the status is required and must be active or idle", async () => {
    (await report("othello", {})).error("Missing 'status' argument", "REQUEST_VARIABLE_MISSING", 400);
    (await report("othello", { status: "away" })).error("Invalid status: away", "BAD_REQUEST", 400);
    expect(await row(s.users.othello.id)).toBeUndefined();
  });

  test("bots may not report presence", async () => {
    await s.app.db.run("UPDATE users SET is_bot = 1, bot_type = 1 WHERE id = ?", [s.users.cordelia.id]);
    try {
      (await report("cordelia", { status: "active" })).error("This endpoint does not accept bot requests.");
    } finally {
      await s.app.db.run("UPDATE users SET is_bot = 0, bot_type = NULL WHERE id = ?", [s.users.cordelia.id]);
    }
  });

  test("new_user_input is accepted (not reported as unsupported)", async () => {
    const r = (await report("iago", { status: "active", new_user_input: true, ping_only: true })).success();
    expect(r.ignored_parameters_unsupported).toBeUndefined();
  });
});

describe("POST /users/me/presence: the answer", () => {
  test("ping_only returns no presence data", async () => {
    const r = (await report("iago", { status: "active", ping_only: true })).success();
    expect(r).toEqual({ result: "success", msg: "", presence_last_update_id: -1 });
    const r2 = (await report("iago", { status: "active", ping_only: true, last_update_id: 7 })).success();
    expect(r2.presence_last_update_id).toBe(7);
    expect(r2.presences).toBeUndefined();
    expect(r2.server_timestamp).toBeUndefined();
  });

  test("last_update_id -1 returns everyone in the modern format, then only what changed", async () => {
    const first = (await report("othello", { status: "active", last_update_id: -1 })).success();
    expect(first.server_timestamp).toBe(s.clock.now() / 1000);
    expect(first.presence_last_update_id).toBe(await sequence());
    const ids = Object.keys(first.presences).map(Number).sort((a, b) => a - b);
    expect(ids).toEqual([s.users.iago.id, s.users.hamlet.id, s.users.othello.id].sort((a, b) => a - b));
    const h = await row(s.users.hamlet.id);
    expect(first.presences[String(s.users.hamlet.id)]).toEqual({ active_timestamp: h.last_active_time, idle_timestamp: h.last_connected_time });

    const again = (await report("othello", { status: "active", last_update_id: first.presence_last_update_id })).success();
    expect(again.presences).toEqual({});
    expect(again.presence_last_update_id).toBe(first.presence_last_update_id);

    (await report("shiva", { status: "idle", ping_only: true })).success();
    const delta = (await report("othello", { status: "active", last_update_id: first.presence_last_update_id })).success();
    expect(Object.keys(delta.presences)).toEqual([String(s.users.shiva.id)]);
    // an idle-only user's activity reads as their join date
    const joined = (await s.app.db.get<{ date_joined: number }>("SELECT date_joined FROM users WHERE id = ?", [s.users.shiva.id]))!.date_joined;
    expect(delta.presences[String(s.users.shiva.id)]).toEqual({ active_timestamp: Math.floor(joined), idle_timestamp: now() });
    expect(delta.presence_last_update_id).toBe(await sequence());
  });

  test("without last_update_id the legacy format is keyed by email, unless slim_presence", async () => {
    const legacy = (await report("othello", { status: "active" })).success();
    const h = await row(s.users.hamlet.id);
    expect(legacy.presences["hamlet@zulip.com"]).toEqual({
      aggregated: { client: "website", status: "active", timestamp: h.last_active_time },
      website: { client: "website", status: "active", timestamp: h.last_active_time, pushable: false },
    });
    expect(legacy.presence_last_update_id).toBe(await sequence());
    const slim = (await report("othello", { status: "active", slim_presence: true })).success();
    expect(Object.keys(slim.presences)).toContain(String(s.users.hamlet.id));
  });

  test("history_limit_days limits the first fetch and is ignored once the client has data", async () => {
    s.clock.advance(3 * 86_400_000);
    (await report("desdemona", { status: "active", ping_only: true })).success();
    const recent = (await report("desdemona", { status: "active", last_update_id: -1, history_limit_days: 1 })).success();
    expect(Object.keys(recent.presences)).toEqual([String(s.users.desdemona.id)]);
    const all = (await report("desdemona", { status: "active", last_update_id: -1 })).success();
    expect(Object.keys(all.presences).length).toBeGreaterThan(1);
    const none = (await report("desdemona", { status: "active", last_update_id: -1, history_limit_days: 0 })).success();
    expect(none).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    const incremental = (await report("desdemona", { status: "active", last_update_id: 1, history_limit_days: 0 })).success();
    expect(Object.keys(incremental.presences).length).toBe(Object.keys(all.presences).length);
  });

  test("an organization with presence disabled shares nothing", async () => {
    const restore = await withRealmSettings(s, { presence_disabled: true });
    try {
      const r = (await report("othello", { status: "active", last_update_id: 3 })).success();
      expect(r).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    } finally {
      await restore();
    }
  });
});

describe("invisible mode", () => {
  let invisible: Awaited<ReturnType<typeof makeUser>>;
  beforeAll(async () => {
    invisible = await makeUser(s, "Invisible Ink");
  });

  test("an invisible user's reports are not recorded and their presence is withheld", async () => {
    const othello = s.users.othello.id;
    const stored = await row(othello);
    expect(stored).toBeDefined();
    await s.app.db.run("UPDATE users SET settings = json_set(settings, '$.presence_enabled', json('false')) WHERE id = ?", [othello]);
    try {
      s.clock.advance(600_000);
      const events = await s.captureEvents(async () => {
        (await report("othello", { status: "active", ping_only: true })).success();
      });
      expect(events.types()).toEqual([]);
      expect(await row(othello)).toEqual(stored);
      const seen = (await report("iago", { status: "active", last_update_id: -1 })).success();
      expect(seen.presences[String(othello)]).toBeUndefined();
      (await s.users.iago.client.get(`/users/${othello}/presence`)).error(`No presence data for ${othello}`);
      const realm = (await s.users.iago.client.get("/realm/presence")).success();
      expect(realm.presences["othello@zulip.com"]).toBeUndefined();
    } finally {
      await s.app.db.run("UPDATE users SET settings = '{}' WHERE id = ?", [othello]);
    }
  });

  test("turning invisible mode on through PATCH /settings looks like going offline a few minutes ago to everyone", async () => {
    s.clock.advance(600_000);
    (await invisible.client.post("/users/me/presence", { status: "active", ping_only: true })).success();
    s.clock.advance(10_000);
    const events = await s.captureEvents(async () => {
      (await invisible.client.patch("/settings", { presence_enabled: false })).success();
    });
    const gone = now() - 140 - 120;
    expect(await row(invisible.id)).toMatchObject({ last_active_time: gone, last_connected_time: gone });
    const expected = {
      type: "presence",
      user_id: invisible.id,
      email: invisible.email,
      server_timestamp: s.clock.now() / 1000,
      presence: { website: { client: "website", status: "active", timestamp: gone, pushable: false } },
    };
    expect(events.of("iago").filter((e) => e.type === "presence")).toEqual([expected]);
    expect(events.of("polonius").filter((e) => e.type === "presence")).toEqual([expected]);
    expect(events.ofUser(invisible.id)).toContainEqual({ type: "user_settings", op: "update", property: "presence_enabled", value: false });
    // from now on the reports are ignored and the presence withheld
    const ignored = await s.captureEvents(async () => {
      (await invisible.client.post("/users/me/presence", { status: "active", ping_only: true })).success();
    });
    expect(ignored.types()).toEqual([]);
    expect((await row(invisible.id)).last_active_time).toBe(gone);
    expect((await report("iago", { status: "active", last_update_id: -1 })).success().presences[String(invisible.id)]).toBeUndefined();
  });

  test("turning invisible mode off again records the user active now and tells everyone at once; an unchanged value sends nothing", async () => {
    s.clock.advance(60_000);
    const events = await s.captureEvents(async () => {
      (await invisible.client.patch("/settings", { presence_enabled: true })).success();
    });
    const t = now();
    expect(await row(invisible.id)).toMatchObject({ last_active_time: t, last_connected_time: t });
    expect(events.of("othello").filter((e) => e.type === "presence")).toEqual([
      { type: "presence", user_id: invisible.id, email: invisible.email, server_timestamp: s.clock.now() / 1000, presence: { website: { client: "website", status: "active", timestamp: t, pushable: false } } },
    ]);
    expect((await report("iago", { status: "active", last_update_id: -1 })).success().presences[String(invisible.id)]).toEqual({ active_timestamp: t, idle_timestamp: t });
    // the cache knows the new times: a report in the same minute writes nothing
    expect(await countWrites(async () => (await invisible.client.post("/users/me/presence", { status: "active", ping_only: true })).success())).toBe(0);
    const again = await s.captureEvents(async () => {
      (await invisible.client.patch("/settings", { presence_enabled: true })).success();
    });
    expect(again.types()).toEqual([]);
  });

  test("a client that declared simplified_presence_events gets the modern form of the invisible-mode event", async () => {
    const q = s.app.events.register({
      userId: s.users.iago.id, eventTypes: ["presence"], applyMarkdown: true, clientGravatar: false, allPublicStreams: false, narrow: [],
      capabilities: { simplified_presence_events: true }, lifespanSecs: 0, clientName: "test",
    });
    try {
      (await invisible.client.patch("/settings", { presence_enabled: false })).success();
      const gone = now() - 260;
      expect(q.events.map(({ id: _id, ...e }) => e)).toEqual([{ type: "presence", presences: { [String(invisible.id)]: { active_timestamp: gone, idle_timestamp: gone } } }]);
    } finally {
      s.app.events.delete(q.id, s.users.iago.id);
      (await invisible.client.patch("/settings", { presence_enabled: true })).success();
    }
  });
});

describe("guests who may not see everyone", () => {
  test("see only the presence of users they share a channel with, and only get their events", async () => {
    const restore = await withRealmSettings(s, { can_access_all_users_group: systemGroup(s, "role:members") });
    try {
      await makeChannel(s, "guest room", [s.users.polonius.id, s.users.iago.id]);
      const seen = (await report("polonius", { status: "active", last_update_id: -1 })).success();
      expect(Object.keys(seen.presences).map(Number).sort()).toEqual([s.users.iago.id, s.users.polonius.id].sort());
      (await s.users.polonius.client.get(`/users/${s.users.hamlet.id}/presence`)).error("Insufficient permission");
      (await s.users.polonius.client.get(`/users/${s.users.iago.id}/presence`)).success();

      s.clock.advance(600_000);
      const events = await s.captureEvents(async () => {
        (await report("hamlet", { status: "active", ping_only: true })).success();
        (await report("iago", { status: "active", ping_only: true })).success();
      });
      expect(events.of("polonius").map((e) => e.user_id)).toEqual([s.users.iago.id]);
      expect(events.of("othello").map((e) => e.user_id)).toEqual([s.users.hamlet.id, s.users.iago.id]);
    } finally {
      await restore();
    }
  });
});

describe("GET /users/{user_id_or_email}/presence", () => {
  test("by id or email, legacy without client fields, or slim", async () => {
    const iago = s.users.iago.id;
    const r = await row(iago);
    const byId = (await s.users.hamlet.client.get(`/users/${iago}/presence`)).success();
    expect(byId.presence).toEqual({
      aggregated: { status: "active", timestamp: r.last_active_time },
      website: { status: "active", timestamp: r.last_active_time },
    });
    expect((await s.users.hamlet.client.get("/users/IAGO@zulip.com/presence")).success().presence).toEqual(byId.presence);
    // slim_presence on this endpoint is newer than the OpenAPI file (Zulip 10.2), so skip its validation
    const slim = (await s.users.hamlet.client.request("GET", `/api/v1/users/${iago}/presence`, { slim_presence: true }, { raw: true })).success();
    expect(slim.presence).toEqual({ active_timestamp: r.last_active_time, idle_timestamp: r.last_connected_time });
  });

  test("an old aggregated status reads as offline", async () => {
    s.clock.advance(600_000);
    const r = (await s.users.hamlet.client.get(`/users/${s.users.iago.id}/presence`)).success();
    expect(r.presence.aggregated.status).toBe("offline");
    expect(r.presence.website.status).toBe("active");
  });

  test("unknown users, bots and users without data are refused", async () => {
    (await s.users.hamlet.client.get("/users/99999/presence")).error("No such user");
    (await s.users.hamlet.client.get("/users/nobody@zulip.com/presence")).error("No such user");
    (await s.users.hamlet.client.get("/users/50%25/presence")).error("No such user");
    (await s.users.hamlet.client.get("/users/iago%40zulip.com/presence")).success();
    (await s.users.hamlet.client.get(`/users/${s.users.cordelia.id}/presence`)).error(`No presence data for ${s.users.cordelia.id}`);
    (await s.users.hamlet.client.get("/users/cordelia@zulip.com/presence")).error("No presence data for cordelia@zulip.com");
    await s.app.db.run("UPDATE users SET is_bot = 1, bot_type = 1 WHERE id = ?", [s.users.cordelia.id]);
    try {
      (await s.users.hamlet.client.get(`/users/${s.users.cordelia.id}/presence`)).error("Presence is not supported for bot users.");
    } finally {
      await s.app.db.run("UPDATE users SET is_bot = 0, bot_type = NULL WHERE id = ?", [s.users.cordelia.id]);
    }
  });
});

describe("GET /realm/presence", () => {
  test("everyone's presence in the legacy format, without an update id", async () => {
    const r = (await s.users.cordelia.client.get("/realm/presence")).success();
    expect(r.presence_last_update_id).toBeUndefined();
    expect(r.server_timestamp).toBe(s.clock.now() / 1000);
    expect(r.presences["hamlet@zulip.com"].website.client).toBe("website");
    expect(Object.keys(r.presences)).toContain("iago@zulip.com");
  });
});

describe("presence in /register", () => {
  test("gives presences, presence_last_update_id and server_timestamp, modern with slim_presence", async () => {
    const legacy = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["presence"] })).success();
    expect(legacy.presence_last_update_id).toBe(await sequence());
    expect(legacy.server_timestamp).toBe(s.clock.now() / 1000);
    expect(Object.keys(legacy.presences)).toContain("iago@zulip.com");
    const slim = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["presence"], slim_presence: true })).success();
    expect(Object.keys(slim.presences)).toContain(String(s.users.iago.id));
  });
});

describe("markIdlePresenceOffline", () => {
  test("forgets users not heard from for longer than the offline threshold, and reports then write again", async () => {
    (await report("shiva", { status: "active", ping_only: true })).success();
    s.clock.advance(200_000);
    expect(markIdlePresenceOffline(s.app)).toBeGreaterThan(0);
    expect(markIdlePresenceOffline(s.app)).toBe(0);
    const writes = await countWrites(async () => (await report("shiva", { status: "active", ping_only: true })).success());
    expect(writes).toBe(1);
    expect((await row(s.users.shiva.id)).last_active_time).toBe(now());
  });
});
