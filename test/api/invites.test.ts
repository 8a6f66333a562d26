import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { makeChannel, systemGroup, withRealmSettings } from "../helpers/invite-fixtures";

let s: TestServer;
let open: number; // public channel, not default
let lobby: number; // default channel
let secret: number; // private, only iago
let archived: number;
let granted: number; // public, channel-level can_add_subscribers_group = role:members
let helpers: number; // group members may add to
let locked: number; // group only its managers may add to

beforeAll(async () => {
  s = await startServer();
  const u = s.users;
  open = await makeChannel(s, "open", [u.iago.id, u.hamlet.id]);
  lobby = await makeChannel(s, "lobby", [u.iago.id, u.othello.id, u.polonius.id], { isDefault: true });
  secret = await makeChannel(s, "secret", [u.iago.id], { inviteOnly: true });
  archived = await makeChannel(s, "old", [u.iago.id], { archived: true });
  granted = await makeChannel(s, "granted", [u.cordelia.id], { groups: { can_add_subscribers_group: systemGroup(s, "role:members") } });
  const realmId = s.app.realm!.id;
  helpers = (await s.app.db.run("INSERT INTO user_groups (realm_id, name, settings) VALUES (?, 'helpers', ?)", [realmId, JSON.stringify({ can_add_members_group: systemGroup(s, "role:members") })])).lastId;
  locked = (await s.app.db.run("INSERT INTO user_groups (realm_id, name, settings) VALUES (?, 'locked', '{}')", [realmId])).lastId;
  await s.app.db.run("INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)", [helpers, u.iago.id]);
  const { reloadGroups } = await import("../../src/app");
  await reloadGroups(s.app);
});
afterAll(() => s.close());

const keyOf = (link: string) => /\/join\/([a-z2-7]{24})\/$/.exec(link)![1]!;
const inviteRow = (key: string) => s.app.db.get<any>("SELECT * FROM invites WHERE key = ?", [key]);
const create = (name: keyof TestServer["users"], params: Record<string, any> = {}) => s.users[name].client.post("/invites/multiuse", params);
const membersMayInvite = () => withRealmSettings(s, { create_multiuse_invite_group: systemGroup(s, "role:members") });

describe("POST /invites/multiuse", () => {
  test("an administrator creates a link with the defaults, and administrators are told", async () => {
    let link = "";
    const events = await s.captureEvents(async () => {
      link = (await create("iago")).success().invite_link;
    });
    expect(link).toMatch(/^http:\/\/parley\.test\/join\/[a-z2-7]{24}\/$/);
    const row = await inviteRow(keyOf(link));
    const now = s.clock.now() / 1000;
    expect(row).toMatchObject({
      referrer_id: s.users.iago.id,
      is_multiuse: 1,
      invited_as: 400,
      stream_ids: "[]",
      group_ids: "[]",
      include_realm_default_subscriptions: 0,
      welcome_message_custom_text: null,
      created: now,
      expires: now + 14400 * 60,
      revoked: 0,
    });
    for (const name of ["iago", "desdemona"] as const) expect(events.of(name)).toEqual([{ type: "invites_changed" }]);
    for (const name of ["shiva", "hamlet", "polonius"] as const) expect(events.of(name)).toEqual([]);
  });

  test("by default members may not create links and guests never may", async () => {
    const events = await s.captureEvents(async () => {
      (await create("hamlet")).error("Insufficient permission", "BAD_REQUEST", 400);
      (await create("shiva")).error("Insufficient permission", "BAD_REQUEST", 400);
      (await create("polonius")).error("Not allowed for guest users", "BAD_REQUEST", 400);
    });
    expect(events.types()).toEqual([]);
  });

  test("create_multiuse_invite_group decides who may invite; the creator is told too", async () => {
    const restore = await membersMayInvite();
    try {
      const events = await s.captureEvents(async () => {
        (await create("hamlet")).success();
      });
      expect(events.of("hamlet")).toEqual([{ type: "invites_changed" }]);
      expect(events.of("iago")).toEqual([{ type: "invites_changed" }]);
      expect(events.of("othello")).toEqual([]);
      (await create("polonius")).error("Not allowed for guest users");
    } finally {
      await restore();
    }
  });

  test("invite_as is bounded by the inviter's own role", async () => {
    const restore = await membersMayInvite();
    try {
      (await create("hamlet", { invite_as: 200 })).error("Must be an organization administrator");
      (await create("hamlet", { invite_as: 300 })).error("Must be an organization administrator");
      (await create("hamlet", { invite_as: 600 })).success();
      (await create("shiva", { invite_as: 300 })).success();
      (await create("shiva", { invite_as: 200 })).error("Must be an organization administrator");
      (await create("iago", { invite_as: 200 })).success();
      (await create("iago", { invite_as: 100 })).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL", 400);
      const link = (await create("desdemona", { invite_as: 100 })).success().invite_link;
      expect((await inviteRow(keyOf(link))).invited_as).toBe(100);
      (await create("iago", { invite_as: 500 })).error("Invalid invite_as");
    } finally {
      await restore();
    }
  });

  test("invite_expires_in_minutes: null never expires, a number counts from now", async () => {
    const never = (await create("iago", { invite_expires_in_minutes: null })).success().invite_link;
    expect((await inviteRow(keyOf(never))).expires).toBeNull();
    const hour = (await create("iago", { invite_expires_in_minutes: 60 })).success().invite_link;
    expect((await inviteRow(keyOf(hour))).expires).toBe(s.clock.now() / 1000 + 3600);
    (await create("iago", { invite_expires_in_minutes: 0 })).error("invite_expires_in_minutes is too small");
    (await create("iago", { invite_expires_in_minutes: "soon" })).error("invite_expires_in_minutes is not valid JSON");
  });

  test("channels must exist and be accessible", async () => {
    (await create("iago", { stream_ids: [99999] })).error("Invalid channel ID 99999. No invites were sent.");
    (await create("iago", { stream_ids: [archived] })).error(`Invalid channel ID ${archived}. No invites were sent.`);
    (await create("desdemona", { stream_ids: [secret] })).error(`Invalid channel ID ${secret}. No invites were sent.`);
    const link = (await create("iago", { stream_ids: [secret, open, lobby] })).success().invite_link;
    expect(JSON.parse((await inviteRow(keyOf(link))).stream_ids)).toEqual([secret, open, lobby]);
  });

  test("channels must be default ones or ones the inviter may add subscribers to", async () => {
    const restore = await withRealmSettings(s, {
      create_multiuse_invite_group: systemGroup(s, "role:members"),
      can_add_subscribers_group: systemGroup(s, "role:administrators"),
    });
    try {
      const denied = "You do not have permission to subscribe other users to channels.";
      (await create("hamlet", { stream_ids: [open] })).error(denied);
      // may not subscribe others anywhere: not even default channels
      (await create("othello", { stream_ids: [lobby] })).error(denied);
      // a channel that lets members add subscribers, plus a default channel
      (await create("hamlet", { stream_ids: [granted, lobby] })).success();
      (await create("hamlet", { stream_ids: [granted, open] })).error(denied);
      (await create("hamlet", { stream_ids: [] })).success();
      (await create("iago", { stream_ids: [open, granted] })).success();
    } finally {
      await restore();
    }
  });

  test("groups must be ones the inviter may add members to", async () => {
    const restore = await membersMayInvite();
    try {
      (await create("hamlet", { group_ids: [99999] })).error("Invalid user group");
      (await create("hamlet", { group_ids: [systemGroup(s, "role:members")] })).error("Insufficient permission");
      (await create("hamlet", { group_ids: [locked] })).error("Insufficient permission");
      (await create("iago", { group_ids: [locked] })).error("Insufficient permission");
      const link = (await create("hamlet", { group_ids: [helpers] })).success().invite_link;
      expect(JSON.parse((await inviteRow(keyOf(link))).group_ids)).toEqual([helpers]);
      // owners hold can_manage_all_groups
      (await create("desdemona", { group_ids: [locked, helpers] })).success();
    } finally {
      await restore();
    }
  });

  test("welcome_message_custom_text is for administrators, at most 8000 code points", async () => {
    const restore = await membersMayInvite();
    try {
      const link = (await create("iago", { welcome_message_custom_text: "Welcome **aboard**!" })).success().invite_link;
      expect((await inviteRow(keyOf(link))).welcome_message_custom_text).toBe("Welcome **aboard**!");
      const empty = (await create("iago", { welcome_message_custom_text: "" })).success().invite_link;
      expect((await inviteRow(keyOf(empty))).welcome_message_custom_text).toBe("");
      (await create("hamlet", { welcome_message_custom_text: "hi" })).error("Must be an organization administrator");
      (await create("iago", { welcome_message_custom_text: "x".repeat(8001) })).error("welcome_message_custom_text is too long (limit: 8000 characters)");
      // 8000 astral characters are 16000 UTF-16 units but 8000 code points
      (await create("iago", { welcome_message_custom_text: "🎉".repeat(8000) })).success();
    } finally {
      await restore();
    }
  });

  test("include_realm_default_subscriptions is stored", async () => {
    const link = (await create("iago", { include_realm_default_subscriptions: true })).success().invite_link;
    expect((await inviteRow(keyOf(link))).include_realm_default_subscriptions).toBe(1);
    (await create("iago", { include_realm_default_subscriptions: "maybe" })).error("include_realm_default_subscriptions is not valid JSON");
  });
});

describe("GET /invites", () => {
  test("administrators see every active link, others their own, guests nothing", async () => {
    const restore = await membersMayInvite();
    try {
      const mine = (await create("othello", { invite_as: 600 })).success().invite_link;
      const all = (await s.users.iago.client.get("/invites")).success().invites as any[];
      const own = (await s.users.othello.client.get("/invites")).success().invites as any[];
      expect(own.map((i) => i.link_url)).toEqual([mine]);
      expect(own[0]).toEqual({
        id: (await inviteRow(keyOf(mine))).id,
        invited_by_user_id: s.users.othello.id,
        invited: Math.floor(s.clock.now() / 1000),
        expiry_date: Math.floor(s.clock.now() / 1000) + 14400 * 60,
        invited_as: 600,
        is_multiuse: true,
        link_url: mine,
      });
      const active = await s.app.db.all<{ id: number }>("SELECT id FROM invites WHERE revoked = 0 AND (expires IS NULL OR expires > ?) ORDER BY id", [s.clock.now() / 1000]);
      expect(all.map((i) => i.id)).toEqual(active.map((r) => r.id));
      expect(all.some((i) => i.invited_by_user_id === s.users.hamlet.id)).toBe(true);
      (await s.users.polonius.client.get("/invites")).error("Not allowed for guest users");
    } finally {
      await restore();
    }
  });

  test("expired and revoked links are not listed", async () => {
    const short = (await create("iago", { invite_expires_in_minutes: 1 })).success().invite_link;
    const revoked = (await create("iago")).success().invite_link;
    const revokedId = (await inviteRow(keyOf(revoked))).id;
    (await s.users.iago.client.delete(`/invites/multiuse/${revokedId}`)).success();
    s.clock.advance(61_000);
    const ids = ((await s.users.iago.client.get("/invites")).success().invites as any[]).map((i) => i.id);
    expect(ids).not.toContain((await inviteRow(keyOf(short))).id);
    expect(ids).not.toContain(revokedId);
  });
});

describe("DELETE /invites/multiuse/{invite_id}", () => {
  test("the creator revokes their own link; administrators and the creator are told", async () => {
    const restore = await membersMayInvite();
    try {
      const link = (await create("hamlet")).success().invite_link;
      const id = (await inviteRow(keyOf(link))).id;
      (await s.users.othello.client.delete(`/invites/multiuse/${id}`)).error("Must be an organization administrator");
      (await s.users.polonius.client.delete(`/invites/multiuse/${id}`)).error("Not allowed for guest users");
      const events = await s.captureEvents(async () => {
        (await s.users.hamlet.client.delete(`/invites/multiuse/${id}`)).success();
      });
      expect((await inviteRow(keyOf(link))).revoked).toBe(1);
      expect(events.of("hamlet")).toEqual([{ type: "invites_changed" }]);
      expect(events.of("desdemona")).toEqual([{ type: "invites_changed" }]);
      expect(events.of("othello")).toEqual([]);
      (await s.users.hamlet.client.delete(`/invites/multiuse/${id}`)).error("Invitation has already been revoked");
    } finally {
      await restore();
    }
  });

  test("administrators revoke others' links, but only owners revoke owner invitations", async () => {
    const restore = await membersMayInvite();
    try {
      const members = (await inviteRow(keyOf((await create("cordelia")).success().invite_link))).id;
      const owners = (await inviteRow(keyOf((await create("desdemona", { invite_as: 100 })).success().invite_link))).id;
      (await s.users.iago.client.delete(`/invites/multiuse/${owners}`)).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL", 400);
      (await s.users.iago.client.delete(`/invites/multiuse/${members}`)).success();
      (await s.users.desdemona.client.delete(`/invites/multiuse/${owners}`)).success();
    } finally {
      await restore();
    }
  });

  test("unknown and malformed ids", async () => {
    (await s.users.iago.client.delete("/invites/multiuse/99999")).error("No such invitation", "BAD_REQUEST", 400);
    (await s.users.iago.client.delete("/invites/multiuse/abc")).error("Invalid invite_id", "BAD_REQUEST", 400);
  });
});

describe("redeeming a link at /join/{key}/", () => {
  const page = (path: string) => s.anonymous.request("GET", path, {}, { raw: true });
  const submit = (path: string, form: Record<string, string>) => s.anonymous.request("POST", path, form, { raw: true });

  test("GET serves the sign-up form; unknown, revoked and expired links get clear pages", async () => {
    const link = (await create("iago")).success().invite_link;
    const key = keyOf(link);
    const ok = await page(`/join/${key}/`);
    expect(ok.status).toBe(200);
    expect(ok.header("content-type")).toContain("text/html");
    expect(ok.text).toContain("Zulip Dev");
    expect(ok.text).toContain(`action="/join/${key}/"`);
    for (const field of ['name="email"', 'name="full_name"', 'name="password"']) expect(ok.text).toContain(field);
    expect((await page(`/join/${key}`)).status).toBe(200);

    const unknown = await page("/join/aaaaaaaaaaaaaaaaaaaaaaaa/");
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("does not exist");

    const id = (await inviteRow(key)).id;
    (await s.users.iago.client.delete(`/invites/multiuse/${id}`)).success();
    const revoked = await page(`/join/${key}/`);
    expect(revoked.status).toBe(410);
    expect(revoked.text).toContain("has been revoked");

    const short = keyOf((await create("iago", { invite_expires_in_minutes: 5 })).success().invite_link);
    s.clock.advance(5 * 60_000);
    const expired = await page(`/join/${short}/`);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain("has expired");
    expect((await submit(`/join/${short}/`, { email: "late@zulip.com", full_name: "Late", password: "long enough pw" })).status).toBe(410);
    expect(await s.app.db.get("SELECT id FROM users WHERE email = 'late@zulip.com'")).toBeUndefined();
  });

  test("POST creates the account with the invited role, channels and groups, logs it in and tells everyone", async () => {
    const link = (await create("iago", { invite_as: 300, stream_ids: [open, secret], group_ids: [helpers] })).success().invite_link;
    let r: Awaited<ReturnType<typeof submit>> | undefined;
    const events = await s.captureEvents(async () => {
      r = await submit(new URL(link).pathname, { email: "newbie@zulip.com", full_name: "New Bie", password: "correct horse battery" });
    });
    expect(r!.status).toBe(303);
    expect(r!.header("location")).toBe("/");
    expect(r!.response.headers.getSetCookie().some((c) => c.startsWith("parley_session="))).toBe(true);

    const user = (await s.app.db.get<any>("SELECT * FROM users WHERE email = 'newbie@zulip.com'"))!;
    expect(user).toMatchObject({ full_name: "New Bie", role: 300, is_active: 1 });
    const subs = await s.app.db.all<{ stream_id: number }>("SELECT stream_id FROM subscriptions WHERE user_id = ? AND active = 1 ORDER BY stream_id", [user.id]);
    // the default channel is left out: include_realm_default_subscriptions was false
    expect(subs.map((x) => x.stream_id)).toEqual([open, secret].sort((a, b) => a - b));
    expect(s.app.groups.isMember(helpers, user.id, true)).toBe(true);
    expect(s.app.groups.isMember(systemGroup(s, "role:moderators"), user.id, true)).toBe(true);

    expect(events.of("othello").find((e) => e.type === "realm_user")).toMatchObject({ op: "add", person: { user_id: user.id, role: 300 } });
    expect(events.of("othello")).toContainEqual({ type: "user_group", op: "add_members", group_id: helpers, user_ids: [user.id] });
    // peer_add: the public channel's subscribers and everyone who may see it; the private one only to those who may see it
    const peerAdds = (name: keyof TestServer["users"]) =>
      events.of(name).filter((e) => e.type === "subscription" && e.op === "peer_add").map((e) => (e.stream_ids as number[])[0]);
    expect(peerAdds("iago").sort()).toEqual([open, secret].sort());
    expect(peerAdds("othello")).toEqual([open]);
    expect(peerAdds("polonius")).toEqual([]);
  });

  test("include_realm_default_subscriptions adds the default channels", async () => {
    const link = (await create("iago", { include_realm_default_subscriptions: true, stream_ids: [open] })).success().invite_link;
    (await submit(new URL(link).pathname, { email: "withdefaults@zulip.com", full_name: "With Defaults", password: "correct horse battery" })).response;
    const user = (await s.app.db.get<{ id: number; role: number }>("SELECT id, role FROM users WHERE email = 'withdefaults@zulip.com'"))!;
    expect(user.role).toBe(400);
    const subs = await s.app.db.all<{ stream_id: number }>("SELECT stream_id FROM subscriptions WHERE user_id = ? ORDER BY stream_id", [user.id]);
    expect(subs.map((x) => x.stream_id)).toEqual([open, lobby].sort((a, b) => a - b));
  });

  test("Welcome Bot greets the new member, with the invitation's custom text or the organization's", async () => {
    const welcomes = async (email: string) => {
      const user = (await s.app.db.get<{ id: number }>("SELECT id FROM users WHERE email = ?", [email]))!;
      return (
        await s.app.db.all<{ content: string }>(
          `SELECT m.content FROM messages m JOIN users b ON b.id = m.sender_id JOIN user_messages um ON um.message_id = m.id
           WHERE b.email = 'welcome-bot@zulip.com' AND um.user_id = ? ORDER BY m.id`,
          [user.id],
        )
      ).map((m) => m.content);
    };
    const withText = new URL((await create("iago", { welcome_message_custom_text: "Read #**rules** first." })).success().invite_link).pathname;
    expect((await submit(withText, { email: "texted@zulip.com", full_name: "Texted", password: "correct horse battery" })).status).toBe(303);
    const texted = await welcomes("texted@zulip.com");
    expect(texted).toHaveLength(2);
    expect(texted[0]).toContain("welcome to **Zulip Dev**");
    expect(texted[1]).toBe("Read #**rules** first.");

    const restore = await withRealmSettings(s, { welcome_message_custom_text: "Organization hello." });
    try {
      const inherit = new URL((await create("iago")).success().invite_link).pathname;
      await submit(inherit, { email: "inherits@zulip.com", full_name: "Inherits", password: "correct horse battery" });
      expect((await welcomes("inherits@zulip.com"))[1]).toBe("Organization hello.");
      const none = new URL((await create("iago", { welcome_message_custom_text: "" })).success().invite_link).pathname;
      await submit(none, { email: "plain@zulip.com", full_name: "Plain", password: "correct horse battery" });
      expect(await welcomes("plain@zulip.com")).toHaveLength(1);
    } finally {
      await restore();
    }
  });

  test("a reusable link works more than once", async () => {
    const path = new URL((await create("iago", { invite_as: 600 })).success().invite_link).pathname;
    expect((await submit(path, { email: "guest1@zulip.com", full_name: "Guest One", password: "correct horse battery" })).status).toBe(303);
    expect((await submit(path, { email: "guest2@zulip.com", full_name: "Guest Two", password: "correct horse battery" })).status).toBe(303);
    const roles = await s.app.db.all<{ role: number }>("SELECT role FROM users WHERE email IN ('guest1@zulip.com', 'guest2@zulip.com')");
    expect(roles).toEqual([{ role: 600 }, { role: 600 }]);
  });

  test("bad form input re-renders the form with the reason and creates nothing", async () => {
    const path = new URL((await create("iago")).success().invite_link).pathname;
    const count = async () => (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM users"))!.n;
    const before = await count();
    const cases: [Record<string, string>, string][] = [
      [{ email: "hamlet@zulip.com", full_name: "Again", password: "correct horse battery" }, "Email &#39;hamlet@zulip.com&#39; already in use"],
      [{ email: "not-an-email", full_name: "X", password: "correct horse battery" }, "Invalid email"],
      [{ email: "weak@zulip.com", full_name: "Weak", password: "123" }, "The password is too weak."],
      [{ email: "noname@zulip.com", full_name: "  ", password: "correct horse battery" }, "Name too short!"],
      [{ email: "<b>x</b>@zulip.com", full_name: "X", password: "" }, "Invalid email"],
    ];
    for (const [form, message] of cases) {
      const r = await submit(path, form);
      expect(r.status).toBe(400);
      expect(r.text).toContain(message);
      expect(r.text).not.toContain("<b>x</b>");
    }
    expect(await count()).toBe(before);
  });
});

describe("deleteStaleInvites (scheduler)", () => {
  test("deletes links that expired more than a week ago and keeps the rest", async () => {
    const { deleteStaleInvites } = await import("../../src/actions/invites");
    const stale = keyOf((await create("iago", { invite_expires_in_minutes: 1 })).success().invite_link);
    const lasting = keyOf((await create("iago", { invite_expires_in_minutes: null })).success().invite_link);
    s.clock.advance(6 * 86_400_000);
    expect(await deleteStaleInvites(s.app)).toBe(0);
    s.clock.advance(2 * 86_400_000);
    expect(await deleteStaleInvites(s.app)).toBeGreaterThan(0);
    expect(await inviteRow(stale)).toBeUndefined();
    expect(await inviteRow(lasting)).toBeDefined();
  });
});
