import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { makeChannel, systemGroup, withRealmSettings } from "../helpers/invite-fixtures";
import { listOutboxEmails } from "../../src/store/outbox";

/** Invitations by email: POST /invites, GET /invites, resend, revoke, and signing up through the emailed link. */

let s: TestServer;
let open: number; // public channel, not default
let lobby: number; // default channel
let secret: number; // private, only iago
let granted: number; // public, members may add subscribers
let helpers: number; // group members may add to
let locked: number; // group only its managers may add to

beforeAll(async () => {
  s = await startServer();
  const u = s.users;
  open = await makeChannel(s, "open", [u.iago.id, u.hamlet.id]);
  lobby = await makeChannel(s, "lobby", [u.iago.id, u.othello.id], { isDefault: true });
  secret = await makeChannel(s, "secret", [u.iago.id], { inviteOnly: true });
  granted = await makeChannel(s, "granted", [u.cordelia.id], { groups: { can_add_subscribers_group: systemGroup(s, "role:members") } });
  const realmId = s.app.realm!.id;
  helpers = (await s.app.db.run("INSERT INTO user_groups (realm_id, name, settings) VALUES (?, 'helpers', ?)", [realmId, JSON.stringify({ can_add_members_group: systemGroup(s, "role:members") })])).lastId;
  locked = (await s.app.db.run("INSERT INTO user_groups (realm_id, name, settings) VALUES (?, 'locked', '{}')", [realmId])).lastId;
  const { reloadGroups } = await import("../../src/app");
  await reloadGroups(s.app);
});
afterAll(() => s.close());

const invite = (name: CastName, params: Record<string, any>) => s.users[name].client.post("/invites", { stream_ids: [], ...params });
const rowsFor = (email: string) => s.app.db.all<any>("SELECT * FROM invites WHERE email = ? COLLATE NOCASE ORDER BY id", [email]);
const rowFor = async (email: string) => (await rowsFor(email)).at(-1);
const mailsTo = (email: string) => listOutboxEmails(s.app.db, email);
const linkIn = (body: string) => /http:\/\/parley\.test\/join\/[a-z2-7]{24}\//.exec(body)?.[0];
const now = () => s.clock.now() / 1000;
const page = (path: string) => s.anonymous.request("GET", path, {}, { raw: true });
const submit = (path: string, form: Record<string, string>) => s.anonymous.request("POST", path, form, { raw: true });
const listed = async (name: CastName) => (await s.users[name].client.get("/invites")).success().invites as any[];

describe("POST /invites", () => {
  test("an administrator invites several addresses: one invitation and one email each, administrators and the inviter told", async () => {
    let body: any;
    const events = await s.captureEvents(async () => {
      body = (await invite("iago", { invitee_emails: "ann@example.com, Bob Smith <bob@example.com>\ncarl@example.com,,\n ANN@example.com ", stream_ids: [open] })).success();
    });
    expect(body).toEqual({ result: "success", msg: "" });
    for (const email of ["ann@example.com", "bob@example.com", "carl@example.com"]) {
      const rows = await rowsFor(email);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        referrer_id: s.users.iago.id,
        is_multiuse: 0,
        email,
        invited_as: 400,
        stream_ids: JSON.stringify([open]),
        group_ids: "[]",
        include_realm_default_subscriptions: 0,
        notify_referrer_on_join: 1,
        created: now(),
        expires: now() + 14400 * 60,
        revoked: 0,
        used_by: null,
      });
      const mails = await mailsTo(email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe("Iago invited you to join Zulip Dev");
      expect(mails[0]!.body).toContain("Iago has invited you to join Zulip Dev");
      expect(linkIn(mails[0]!.body)).toBe(`http://parley.test/join/${rows[0].key}/`);
      expect(mails[0]!.body).toContain("The link works once, until Sun, 11 Jan 2026 00:00:00 UTC.");
    }
    for (const name of ["iago", "desdemona"] as const) expect(events.of(name)).toEqual([{ type: "invites_changed" }]);
    for (const name of ["shiva", "hamlet", "polonius"] as const) expect(events.of(name)).toEqual([]);
  });

  test("members may invite by default (can_invite_users_group), and are told of their own invitations", async () => {
    const events = await s.captureEvents(async () => {
      (await invite("hamlet", { invitee_emails: "friend-of-hamlet@example.com" })).success();
    });
    expect(await rowFor("friend-of-hamlet@example.com")).toMatchObject({ referrer_id: s.users.hamlet.id });
    expect(events.of("hamlet")).toEqual([{ type: "invites_changed" }]);
    expect(events.of("iago")).toEqual([{ type: "invites_changed" }]);
    expect(events.of("othello")).toEqual([]);
  });

  test("no invitation from guests, nor from members when can_invite_users_group leaves them out", async () => {
    const restore = await withRealmSettings(s, { can_invite_users_group: systemGroup(s, "role:administrators") });
    try {
      const events = await s.captureEvents(async () => {
        (await invite("hamlet", { invitee_emails: "nope1@example.com" })).error("Insufficient permission", "BAD_REQUEST", 400);
        (await invite("shiva", { invitee_emails: "nope1@example.com" })).error("Insufficient permission");
        (await invite("polonius", { invitee_emails: "nope1@example.com" })).error("Not allowed for guest users");
        (await invite("iago", { invitee_emails: "yes1@example.com" })).success();
      });
      expect(await rowsFor("nope1@example.com")).toEqual([]);
      expect(await mailsTo("nope1@example.com")).toEqual([]);
      expect(events.of("hamlet")).toEqual([]);
      expect(await mailsTo("yes1@example.com")).toHaveLength(1);
    } finally {
      await restore();
    }
    // a guest stays out even where the setting names everyone
    (await invite("polonius", { invitee_emails: "nope1@example.com" })).error("Not allowed for guest users");
  });

  test("invite_as: no role above the inviter's own, owners only by owners, and only Zulip's roles", async () => {
    (await invite("hamlet", { invitee_emails: "role1@example.com", invite_as: 200 })).error("Must be an organization administrator");
    (await invite("hamlet", { invitee_emails: "role1@example.com", invite_as: 300 })).error("Must be an organization administrator");
    (await invite("shiva", { invitee_emails: "role1@example.com", invite_as: 200 })).error("Must be an organization administrator");
    (await invite("iago", { invitee_emails: "role1@example.com", invite_as: 100 })).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL", 400);
    (await invite("iago", { invitee_emails: "role1@example.com", invite_as: 500 })).error("Invalid invite_as");
    expect(await rowsFor("role1@example.com")).toEqual([]);
    (await invite("hamlet", { invitee_emails: "role-guest@example.com", invite_as: 600 })).success();
    (await invite("iago", { invitee_emails: "role-admin@example.com", invite_as: 200 })).success();
    (await invite("desdemona", { invitee_emails: "role-owner@example.com", invite_as: 100 })).success();
    expect((await rowFor("role-guest@example.com")).invited_as).toBe(600);
    expect((await rowFor("role-admin@example.com")).invited_as).toBe(200);
    expect((await rowFor("role-owner@example.com")).invited_as).toBe(100);
  });

  test("invitee_emails and stream_ids are required, and an empty list of addresses is refused", async () => {
    (await s.users.iago.client.post("/invites", { stream_ids: [] })).error("Missing 'invitee_emails' argument", "REQUEST_VARIABLE_MISSING");
    (await s.users.iago.client.post("/invites", { invitee_emails: "x@example.com" })).error("Missing 'stream_ids' argument", "REQUEST_VARIABLE_MISSING");
    (await invite("iago", { invitee_emails: "" })).error("You must specify at least one email address.");
    (await invite("iago", { invitee_emails: " ,\n , " })).error("You must specify at least one email address.");
    (await invite("iago", { invitee_emails: "x@example.com", stream_ids: "[1," })).error("stream_ids is not valid JSON");
  });

  test("an invalid address refuses the whole request, listing every problem, and nothing is sent", async () => {
    const before = (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM outbox_emails"))!.n;
    const events = await s.captureEvents(async () => {
      const r = (await invite("iago", { invitee_emails: "good@example.com, not-an-address, hamlet@zulip.com, <b>@x" })).error(
        "Some emails did not validate, so we didn't send any invitations.",
        "INVITATION_FAILED",
        400,
      );
      expect(r.errors).toEqual([
        ["not-an-address", "Invalid address.", false],
        ["b", "Invalid address.", false],
        ["hamlet@zulip.com", "Already has an account.", false],
      ]);
      expect(r.sent_invitations).toBe(false);
      expect(r.daily_limit_reached).toBe(false);
      expect(r.license_limit_reached).toBe(false);
    });
    expect(events.types()).toEqual([]);
    expect(await rowsFor("good@example.com")).toEqual([]);
    expect((await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM outbox_emails"))!.n).toBe(before);
  });

  test("addresses with an account (active, deactivated, a system bot) are skipped; the others are invited", async () => {
    const { createUser } = await import("../../src/actions/users");
    const gone = await createUser(s.app, null, { email: "gone@example.com", fullName: "Gone", password: null, role: 400 });
    (await s.users.iago.client.delete(`/users/${gone.userId}`)).success();

    const all = (await invite("iago", { invitee_emails: "HAMLET@zulip.com, gone@example.com" })).error("We weren't able to invite anyone.", "INVITATION_FAILED");
    expect(all.errors).toEqual([
      ["HAMLET@zulip.com", "Already has an account.", false],
      ["gone@example.com", "Account has been deactivated.", true],
    ]);
    expect(all.sent_invitations).toBe(false);
    expect(await mailsTo("gone@example.com")).toEqual([]);

    const events = await s.captureEvents(async () => {
      const some = (await invite("iago", { invitee_emails: "othello@zulip.com, newcomer@example.com, notification-bot@zulip.com" })).error(
        "Some of those addresses are already using Parley, so we didn't send them an invitation. We did send invitations to everyone else!",
        "INVITATION_FAILED",
        400,
      );
      expect(some.errors).toEqual([
        ["othello@zulip.com", "Already has an account.", false],
        ["notification-bot@zulip.com", "Reserved for system bots.", false],
      ]);
      expect(some.sent_invitations).toBe(true);
    });
    expect(await rowsFor("newcomer@example.com")).toHaveLength(1);
    expect(await mailsTo("newcomer@example.com")).toHaveLength(1);
    expect(await rowsFor("othello@zulip.com")).toEqual([]);
    expect(events.of("iago")).toEqual([{ type: "invites_changed" }]);
  });

  test("a pending invitation does not stop another one to the same address", async () => {
    (await invite("iago", { invitee_emails: "twice@example.com" })).success();
    (await invite("hamlet", { invitee_emails: "twice@example.com" })).success();
    expect((await rowsFor("twice@example.com")).map((r) => r.referrer_id)).toEqual([s.users.iago.id, s.users.hamlet.id]);
    expect(await mailsTo("twice@example.com")).toHaveLength(2);
  });

  test("channels must exist and be accessible to the inviter", async () => {
    (await invite("iago", { invitee_emails: "ch1@example.com", stream_ids: [99999] })).error("Invalid channel ID 99999. No invites were sent.");
    (await invite("hamlet", { invitee_emails: "ch1@example.com", stream_ids: [secret] })).error(`Invalid channel ID ${secret}. No invites were sent.`);
    expect(await rowsFor("ch1@example.com")).toEqual([]);
    (await invite("iago", { invitee_emails: "ch1@example.com", stream_ids: [secret, lobby] })).success();
    expect(JSON.parse((await rowFor("ch1@example.com")).stream_ids)).toEqual([secret, lobby]);
  });

  test("channels must be default ones or ones the inviter may add subscribers to", async () => {
    const restore = await withRealmSettings(s, { can_add_subscribers_group: systemGroup(s, "role:administrators") });
    try {
      const denied = "You do not have permission to subscribe other users to channels.";
      (await invite("hamlet", { invitee_emails: "ch2@example.com", stream_ids: [open] })).error(denied);
      (await invite("othello", { invitee_emails: "ch2@example.com", stream_ids: [lobby] })).error(denied);
      (await invite("hamlet", { invitee_emails: "ch2@example.com", stream_ids: [granted, open] })).error(denied);
      expect(await rowsFor("ch2@example.com")).toEqual([]);
      (await invite("hamlet", { invitee_emails: "ch2@example.com", stream_ids: [granted, lobby] })).success();
      expect(JSON.parse((await rowFor("ch2@example.com")).stream_ids)).toEqual([granted, lobby]);
    } finally {
      await restore();
    }
  });

  test("groups must be ones the inviter may add members to", async () => {
    (await invite("hamlet", { invitee_emails: "gr@example.com", group_ids: [99999] })).error("Invalid user group");
    (await invite("hamlet", { invitee_emails: "gr@example.com", group_ids: [systemGroup(s, "role:members")] })).error("Insufficient permission");
    (await invite("hamlet", { invitee_emails: "gr@example.com", group_ids: [locked] })).error("Insufficient permission");
    expect(await rowsFor("gr@example.com")).toEqual([]);
    (await invite("hamlet", { invitee_emails: "gr@example.com", group_ids: [helpers] })).success();
    expect(JSON.parse((await rowFor("gr@example.com")).group_ids)).toEqual([helpers]);
  });

  test("invite_expires_in_minutes: a number counts from now, null never expires, at least one minute and at most a century", async () => {
    (await invite("iago", { invitee_emails: "exp-hour@example.com", invite_expires_in_minutes: 60 })).success();
    expect((await rowFor("exp-hour@example.com")).expires).toBe(now() + 3600);
    (await invite("iago", { invitee_emails: "exp-never@example.com", invite_expires_in_minutes: null })).success();
    expect((await rowFor("exp-never@example.com")).expires).toBeNull();
    expect((await mailsTo("exp-never@example.com"))[0]!.body).toContain("The link does not expire, and works once.");
    (await invite("iago", { invitee_emails: "exp-bad@example.com", invite_expires_in_minutes: 0 })).error("invite_expires_in_minutes is too small");
    (await invite("iago", { invitee_emails: "exp-bad@example.com", invite_expires_in_minutes: -5 })).error("invite_expires_in_minutes is too small");
    (await invite("iago", { invitee_emails: "exp-bad@example.com", invite_expires_in_minutes: "soon" })).error("invite_expires_in_minutes is not valid JSON");
    (await invite("iago", { invitee_emails: "exp-bad@example.com", invite_expires_in_minutes: 10 ** 12 })).error("invite_expires_in_minutes is too large");
    expect(await rowsFor("exp-bad@example.com")).toEqual([]);
  });

  test("include_realm_default_subscriptions and notify_referrer_on_join are stored; bad booleans refused", async () => {
    (await invite("iago", { invitee_emails: "flags@example.com", include_realm_default_subscriptions: true, notify_referrer_on_join: false })).success();
    expect(await rowFor("flags@example.com")).toMatchObject({ include_realm_default_subscriptions: 1, notify_referrer_on_join: 0 });
    (await invite("iago", { invitee_emails: "flags2@example.com", notify_referrer_on_join: "maybe" })).error("notify_referrer_on_join is not valid JSON");
  });

  test("welcome_message_custom_text is for administrators", async () => {
    (await invite("hamlet", { invitee_emails: "welcome@example.com", welcome_message_custom_text: "hi" })).error("Must be an organization administrator");
    (await invite("iago", { invitee_emails: "welcome@example.com", welcome_message_custom_text: "x".repeat(8001) })).error("welcome_message_custom_text is too long (limit: 8000 characters)");
    (await invite("iago", { invitee_emails: "welcome@example.com", welcome_message_custom_text: "Read the rules." })).success();
    expect((await rowFor("welcome@example.com")).welcome_message_custom_text).toBe("Read the rules.");
  });

  test("the organization's daily limit on invitation emails refuses a request that would pass it, and counts resends", async () => {
    const limits = s.app.config.limits;
    const sent = (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM invite_emails_sent WHERE sent_at > ?", [now() - 86_400]))!.n;
    limits.max_invites_per_day = sent + 2;
    try {
      const r = (await invite("iago", { invitee_emails: "lim1@example.com, lim2@example.com, lim3@example.com" })).error(
        "To protect users, Parley limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.",
        "INVITATION_FAILED",
      );
      expect(r).toMatchObject({ errors: [], sent_invitations: false, daily_limit_reached: true });
      expect(await rowsFor("lim1@example.com")).toEqual([]);
      (await invite("iago", { invitee_emails: "lim1@example.com" })).success();
      const id = (await rowFor("lim1@example.com")).id;
      (await s.users.iago.client.post(`/invites/${id}/resend`)).success();
      (await s.users.iago.client.post(`/invites/${id}/resend`)).error(
        "To protect users, Parley limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.",
        "INVITATION_FAILED",
      );
      expect(await mailsTo("lim1@example.com")).toHaveLength(2);
      // a day later the old sends no longer count
      s.clock.advance(86_400_000 + 1000);
      (await invite("iago", { invitee_emails: "lim2@example.com" })).success();
    } finally {
      limits.max_invites_per_day = 100;
    }
  });
});

describe("GET /invites", () => {
  test("email invitations are listed beside the links: administrators see all, others their own, guests nothing", async () => {
    (await invite("othello", { invitee_emails: "othellos-friend@example.com", invite_as: 600, notify_referrer_on_join: false })).success();
    const link = (await s.users.iago.client.post("/invites/multiuse", {})).success().invite_link;
    const row = await rowFor("othellos-friend@example.com");
    const own = await listed("othello");
    expect(own).toEqual([
      {
        id: row.id,
        invited_by_user_id: s.users.othello.id,
        invited: Math.floor(now()),
        expiry_date: Math.floor(now()) + 14400 * 60,
        invited_as: 600,
        is_multiuse: false,
        email: "othellos-friend@example.com",
        notify_referrer_on_join: false,
      },
    ]);
    const all = await listed("iago");
    expect(all.find((i) => i.id === row.id)).toEqual(own[0]);
    expect(all.find((i) => i.is_multiuse && i.link_url === link)).toBeDefined();
    const active = await s.app.db.all<{ id: number }>(
      "SELECT id FROM invites WHERE revoked = 0 AND used_by IS NULL AND (expires IS NULL OR expires > ?) ORDER BY id",
      [now()],
    );
    expect(all.map((i) => i.id)).toEqual(active.map((r) => r.id));
    (await s.users.polonius.client.get("/invites")).error("Not allowed for guest users");
  });

  test("expired, revoked and used invitations are not listed", async () => {
    (await invite("iago", { invitee_emails: "short@example.com", invite_expires_in_minutes: 1 })).success();
    (await invite("iago", { invitee_emails: "revoked@example.com" })).success();
    (await invite("iago", { invitee_emails: "used@example.com" })).success();
    const revoked = (await rowFor("revoked@example.com")).id;
    (await s.users.iago.client.delete(`/invites/${revoked}`)).success();
    const used = await rowFor("used@example.com");
    expect((await submit(`/join/${used.key}/`, { full_name: "Used", password: "correct horse battery" })).status).toBe(303);
    s.clock.advance(61_000);
    const ids = (await listed("iago")).map((i) => i.id);
    expect(ids).not.toContain((await rowFor("short@example.com")).id);
    expect(ids).not.toContain(revoked);
    expect(ids).not.toContain(used.id);
  });
});

describe("POST /invites/{invite_id}/resend", () => {
  test("sends the same link again to the same address, its expiry unchanged, and no event", async () => {
    (await invite("hamlet", { invitee_emails: "resend-me@example.com", invite_expires_in_minutes: 120 })).success();
    const row = await rowFor("resend-me@example.com");
    s.clock.advance(60_000);
    const events = await s.captureEvents(async () => {
      expect((await s.users.hamlet.client.post(`/invites/${row.id}/resend`)).success()).toEqual({ result: "success", msg: "" });
    });
    expect(events.types()).toEqual([]);
    const mails = await mailsTo("resend-me@example.com");
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe("King Hamlet invited you to join Zulip Dev");
    expect(linkIn(mails[1]!.body)).toBe(linkIn(mails[0]!.body));
    expect(await rowFor("resend-me@example.com")).toEqual(row);
  });

  test("only the inviter or an administrator may resend; an owner's invitation only an owner", async () => {
    (await invite("hamlet", { invitee_emails: "resend-rules@example.com" })).success();
    (await invite("desdemona", { invitee_emails: "resend-owner@example.com", invite_as: 100 })).success();
    const id = (await rowFor("resend-rules@example.com")).id;
    const owners = (await rowFor("resend-owner@example.com")).id;
    (await s.users.othello.client.post(`/invites/${id}/resend`)).error("Must be an organization administrator");
    (await s.users.shiva.client.post(`/invites/${id}/resend`)).error("Must be an organization administrator");
    (await s.users.polonius.client.post(`/invites/${id}/resend`)).error("Not allowed for guest users");
    expect(await mailsTo("resend-rules@example.com")).toHaveLength(1);
    (await s.users.iago.client.post(`/invites/${id}/resend`)).success();
    expect((await mailsTo("resend-rules@example.com"))[1]!.subject).toBe("King Hamlet invited you to join Zulip Dev");
    (await s.users.iago.client.post(`/invites/${owners}/resend`)).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.desdemona.client.post(`/invites/${owners}/resend`)).success();
  });

  test("unknown, reusable-link, revoked, used and expired invitations cannot be resent", async () => {
    const linkId = (await listed("iago")).find((i) => i.is_multiuse).id;
    (await invite("iago", { invitee_emails: "resend-gone@example.com", invite_expires_in_minutes: 1 })).success();
    const gone = (await rowFor("resend-gone@example.com")).id;
    (await s.users.iago.client.post("/invites/99999/resend")).error("No such invitation", "BAD_REQUEST", 400);
    (await s.users.iago.client.post(`/invites/${linkId}/resend`)).error("No such invitation");
    (await s.users.iago.client.post("/invites/abc/resend")).error("Invalid invite_id");
    s.clock.advance(61_000);
    (await s.users.iago.client.post(`/invites/${gone}/resend`)).error("No such invitation");
    (await invite("iago", { invitee_emails: "resend-revoked@example.com" })).success();
    const revoked = (await rowFor("resend-revoked@example.com")).id;
    (await s.users.iago.client.delete(`/invites/${revoked}`)).success();
    (await s.users.iago.client.post(`/invites/${revoked}/resend`)).error("No such invitation");
    expect(await mailsTo("resend-revoked@example.com")).toHaveLength(1);
  });
});

describe("DELETE /invites/{invite_id}", () => {
  test("the inviter revokes their own invitation: its link is dead, administrators and the inviter told", async () => {
    (await invite("hamlet", { invitee_emails: "revoke-me@example.com" })).success();
    const row = await rowFor("revoke-me@example.com");
    (await s.users.othello.client.delete(`/invites/${row.id}`)).error("Must be an organization administrator");
    (await s.users.polonius.client.delete(`/invites/${row.id}`)).error("Not allowed for guest users");
    const events = await s.captureEvents(async () => {
      (await s.users.hamlet.client.delete(`/invites/${row.id}`)).success();
    });
    expect((await rowFor("revoke-me@example.com")).revoked).toBe(1);
    expect(events.of("hamlet")).toEqual([{ type: "invites_changed" }]);
    expect(events.of("iago")).toEqual([{ type: "invites_changed" }]);
    expect(events.of("othello")).toEqual([]);
    const dead = await page(`/join/${row.key}/`);
    expect(dead.status).toBe(410);
    expect(dead.text).toContain("has been revoked");
    (await s.users.hamlet.client.delete(`/invites/${row.id}`)).error("Invitation has already been revoked");
  });

  test("administrators revoke anyone's, but an owner's invitation only an owner; links and unknown ids are not email invitations", async () => {
    (await invite("cordelia", { invitee_emails: "rv-member@example.com" })).success();
    (await invite("desdemona", { invitee_emails: "rv-owner@example.com", invite_as: 100 })).success();
    const member = (await rowFor("rv-member@example.com")).id;
    const owner = (await rowFor("rv-owner@example.com")).id;
    (await s.users.iago.client.delete(`/invites/${owner}`)).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL", 400);
    (await s.users.iago.client.delete(`/invites/${member}`)).success();
    (await s.users.desdemona.client.delete(`/invites/${owner}`)).success();
    const linkId = (await listed("iago")).find((i) => i.is_multiuse).id;
    (await s.users.iago.client.delete(`/invites/${linkId}`)).error("No such invitation");
    (await s.users.iago.client.delete("/invites/99999")).error("No such invitation");
    (await s.users.iago.client.delete("/invites/x1")).error("Invalid invite_id");
  });
});

describe("signing up through the emailed link", () => {
  const keyFor = async (email: string) => (await rowFor(email)).key as string;

  test("the page shows the invited address fixed; the account gets it whatever the form says", async () => {
    (await invite("iago", { invitee_emails: "fixed@example.com" })).success();
    const key = await keyFor("fixed@example.com");
    const shown = await page(`/join/${key}/`);
    expect(shown.status).toBe(200);
    expect(shown.text).toMatch(/<input id="email" name="email" type="email" required value="fixed@example.com" readonly/);
    expect(shown.text).toContain("Iago invited you to join <strong>Zulip Dev</strong>.");
    const r = await submit(`/join/${key}/`, { email: "someone-else@example.com", full_name: "Fixed Person", password: "correct horse battery" });
    expect(r.status).toBe(303);
    expect(await s.app.db.get("SELECT id FROM users WHERE email = 'someone-else@example.com'")).toBeUndefined();
    expect(await s.app.db.get<any>("SELECT full_name FROM users WHERE delivery_email = 'fixed@example.com'")).toEqual({ full_name: "Fixed Person" });
  });

  test("the account has the invited role, channels and groups; the link then works no more", async () => {
    (await invite("iago", { invitee_emails: "joiner@example.com", invite_as: 300, stream_ids: [open, secret], group_ids: [helpers], include_realm_default_subscriptions: true })).success();
    const key = await keyFor("joiner@example.com");
    let r: Awaited<ReturnType<typeof submit>> | undefined;
    const events = await s.captureEvents(async () => {
      r = await submit(`/join/${key}/`, { full_name: "Joiner", password: "correct horse battery" });
    });
    expect(r!.status).toBe(303);
    expect(r!.header("location")).toBe("/");
    expect(r!.response.headers.getSetCookie().some((c) => c.startsWith("parley_session="))).toBe(true);
    const user = (await s.app.db.get<any>("SELECT * FROM users WHERE delivery_email = 'joiner@example.com'"))!;
    expect(user).toMatchObject({ full_name: "Joiner", role: 300, is_active: 1 });
    const subs = await s.app.db.all<{ stream_id: number }>("SELECT stream_id FROM subscriptions WHERE user_id = ? AND active = 1 ORDER BY stream_id", [user.id]);
    expect(subs.map((x) => x.stream_id)).toEqual([open, lobby, secret].sort((a, b) => a - b));
    expect(s.app.groups.isMember(helpers, user.id, true)).toBe(true);
    expect(await rowFor("joiner@example.com")).toMatchObject({ used_by: user.id, revoked: 0 });
    expect(events.of("othello")).toContainEqual({ type: "user_group", op: "add_members", group_id: helpers, user_ids: [user.id] });
    // the invitation left the lists: administrators and the inviter are told
    expect(events.of("iago").filter((e) => e.type === "invites_changed")).toHaveLength(1);
    expect(events.of("desdemona").filter((e) => e.type === "invites_changed")).toHaveLength(1);
    expect(events.of("othello").filter((e) => e.type === "invites_changed")).toHaveLength(0);

    const again = await submit(`/join/${key}/`, { full_name: "Joiner Again", password: "correct horse battery" });
    expect(again.status).toBe(410);
    expect(again.text).toContain("already been used");
    expect((await page(`/join/${key}/`)).status).toBe(410);
  });

  test("an expired emailed link is refused and makes no account", async () => {
    (await invite("iago", { invitee_emails: "late@example.com", invite_expires_in_minutes: 5 })).success();
    const key = await keyFor("late@example.com");
    s.clock.advance(5 * 60_000);
    const r = await submit(`/join/${key}/`, { full_name: "Late", password: "correct horse battery" });
    expect(r.status).toBe(410);
    expect(r.text).toContain("has expired");
    expect(await s.app.db.get("SELECT id FROM users WHERE delivery_email = 'late@example.com'")).toBeUndefined();
  });

  test("Notification Bot tells the inviter who joined, unless they asked not to be told", async () => {
    const dmsTo = async (userId: number) =>
      (
        await s.app.db.all<{ content: string }>(
          `SELECT m.content FROM messages m JOIN users b ON b.id = m.sender_id JOIN user_messages um ON um.message_id = m.id
           WHERE b.email = 'notification-bot@zulip.com' AND um.user_id = ? AND m.content LIKE '%accepted your invitation%' ORDER BY m.id`,
          [userId],
        )
      ).map((m) => m.content);
    const before = (await dmsTo(s.users.cordelia.id)).length;
    (await invite("cordelia", { invitee_emails: "told@example.com" })).success();
    (await invite("cordelia", { invitee_emails: "untold@example.com", notify_referrer_on_join: false })).success();
    let events: Awaited<ReturnType<TestServer["captureEvents"]>> | undefined;
    events = await s.captureEvents(async () => {
      await submit(`/join/${await keyFor("told@example.com")}/`, { full_name: "Told Person", password: "correct horse battery" });
    });
    const told = (await s.app.db.get<{ id: number }>("SELECT id FROM users WHERE delivery_email = 'told@example.com'"))!.id;
    const dms = await dmsTo(s.users.cordelia.id);
    expect(dms.slice(before)).toEqual([`@_**Told Person|${told}** accepted your invitation to join Parley!`]);
    expect(events.of("cordelia").some((e) => e.type === "message" && (e.message as any).sender_email === "notification-bot@zulip.com")).toBe(true);
    expect(events.of("cordelia")).toContainEqual({ type: "invites_changed" });
    await submit(`/join/${await keyFor("untold@example.com")}/`, { full_name: "Untold", password: "correct horse battery" });
    expect((await dmsTo(s.users.cordelia.id)).slice(before)).toHaveLength(1);
  });

  test("signing up revokes the other pending invitations of the same address, and their inviters are told", async () => {
    (await invite("iago", { invitee_emails: "popular@example.com" })).success();
    (await invite("hamlet", { invitee_emails: "popular@example.com" })).success();
    const [first, second] = await rowsFor("popular@example.com");
    const events = await s.captureEvents(async () => {
      expect((await submit(`/join/${first.key}/`, { full_name: "Popular", password: "correct horse battery" })).status).toBe(303);
    });
    const after = await rowsFor("popular@example.com");
    expect(after.map((r) => [r.revoked, r.used_by !== null])).toEqual([
      [0, true],
      [1, false],
    ]);
    expect(events.of("hamlet")).toContainEqual({ type: "invites_changed" });
    expect((await page(`/join/${second.key}/`)).status).toBe(410);
  });

  test("a bad form re-renders with the reason and leaves the invitation usable", async () => {
    (await invite("iago", { invitee_emails: "retry@example.com" })).success();
    const key = await keyFor("retry@example.com");
    const weak = await submit(`/join/${key}/`, { full_name: "Retry", password: "123" });
    expect(weak.status).toBe(400);
    expect(weak.text).toContain("The password is too weak.");
    expect(weak.text).toContain('value="retry@example.com" readonly');
    expect((await rowFor("retry@example.com")).used_by).toBeNull();
    expect((await submit(`/join/${key}/`, { full_name: "Retry", password: "correct horse battery" })).status).toBe(303);
  });
});

describe("deactivating the inviter", () => {
  test("their invitations, emailed and links, stop working at once, and administrators are told", async () => {
    const { createUser } = await import("../../src/actions/users");
    const leaver = await createUser(s.app, null, { email: "leaver@zulip.com", fullName: "Leaver", password: null, role: 400 });
    const client = s.clientFor(leaver.email, leaver.apiKey);
    (await client.post("/invites", { invitee_emails: "leavers-friend@example.com", stream_ids: [], invite_expires_in_minutes: null })).success();
    const restore = await withRealmSettings(s, { create_multiuse_invite_group: systemGroup(s, "role:members") });
    let link = "";
    try {
      link = (await client.post("/invites/multiuse", {})).success().invite_link;
    } finally {
      await restore();
    }
    (await invite("iago", { invitee_emails: "kept@example.com" })).success();
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.delete(`/users/${leaver.userId}`)).success();
    });
    expect(events.of("iago")).toContainEqual({ type: "invites_changed" });
    expect(events.of("desdemona")).toContainEqual({ type: "invites_changed" });
    const emailed = await rowFor("leavers-friend@example.com");
    expect(emailed.expires).toBe(now());
    for (const path of [`/join/${emailed.key}/`, new URL(link).pathname]) {
      const r = await page(path);
      expect(r.status).toBe(410);
      expect(r.text).toContain("has expired");
    }
    const ids = (await listed("iago")).map((i) => i.id);
    expect(ids).not.toContain(emailed.id);
    // someone else's invitation is untouched
    expect(ids).toContain((await rowFor("kept@example.com")).id);
  });
});
