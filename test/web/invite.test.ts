/**
 * Inviting people, the pure parts: who is offered "Invite people" (the organization's
 * create_multiuse_invite_group for links and can_invite_users_group for email, kept current from realm events), which roles the dialog offers (none
 * above the person's own, as the server checks), the expiry choices and line, and the list of links
 * made: its lines, its order, and whose links the person is offered to revoke.
 */
import { describe, expect, test } from "bun:test";
import { applyEvent } from "../../assets/app/state/apply-event";
import { canInvite, canInviteAnyhow, canInviteByEmail, canRevokeInvite, invitableRoles, inviteRoleName, seesAllInvites } from "../../assets/app/state/permissions";
import { emailInviteTitle, expiresLine, linkTitle, madeLine, newestFirst, revokeQuestion } from "../../assets/app/lib/invite-list";
import { inviteFailure, parseAddresses, sentLine } from "../../assets/app/lib/invite-email";
import { invitesChanged, noteInviteEvents } from "../../assets/app/state/invites-changed";
import type { State } from "../../assets/app/state/types";
import { DEFAULT_INVITE_EXPIRY, expiresAt, expiryLine, INVITE_EXPIRY } from "../../assets/app/lib/invite-expiry";
import { sampleState } from "./fixtures";

/** The sample state with an owner (3, in role:owners under role:administrators), as `me`, the organization's setting changed. */
function as(me: number, setting?: State["realm"]["create_multiuse_invite_group"], byEmail?: State["realm"]["can_invite_users_group"]): State {
  const s = sampleState();
  const groups = { ...s.groups, 11: { ...s.groups[11]!, direct_subgroup_ids: [13] }, 13: { id: 13, is_system_group: true, name: "role:owners", members: [3], direct_subgroup_ids: [] } };
  const users = { ...s.users, 3: { ...s.users[4]!, user_id: 3, full_name: "Desdemona", role: 100 } };
  return { ...s, me, users, groups, realm: { ...s.realm, ...(setting === undefined ? {} : { create_multiuse_invite_group: setting }), ...(byEmail === undefined ? {} : { can_invite_users_group: byEmail }) } };
}
const labels = (s: State) => invitableRoles(s).map((r) => r.label);
const OWNER = 3, ADMIN = 8, MODERATOR = 9, MEMBER = 4, GUEST = 7;

describe("who may invite people", () => {
  test("by default only administrators and owners are offered invitation links", () => {
    expect([OWNER, ADMIN, MODERATOR, MEMBER, GUEST].map((me) => canInvite(as(me)))).toEqual([true, true, false, false, false]);
    expect(labels(as(MEMBER))).toEqual([]);
  });

  test("a setting naming the members lets members and moderators invite, never guests", () => {
    expect([OWNER, ADMIN, MODERATOR, MEMBER, GUEST].map((me) => canInvite(as(me, 3)))).toEqual([true, true, true, true, false]);
    // a guest stays out even where the setting reaches them
    expect(canInvite(as(GUEST, 2))).toBe(false);
    expect(canInvite(as(GUEST, { direct_members: [GUEST], direct_subgroups: [] }))).toBe(false);
  });

  test("an anonymous group names people directly or through its subgroups", () => {
    const setting = { direct_members: [MEMBER], direct_subgroups: [10] };
    expect([OWNER, ADMIN, MODERATOR, MEMBER, 5].map((me) => canInvite(as(me, setting)))).toEqual([true, true, true, true, false]);
    // role:nobody: not even the owner
    expect(canInvite(as(OWNER, 12))).toBe(false);
  });

  test("a change of the organization's setting (a realm event) shows or hides the entry at once", () => {
    const before = as(MEMBER);
    const opened = applyEvent(before, { type: "realm", op: "update_dict", property: "default", data: { create_multiuse_invite_group: 3 }, id: 1 });
    expect(canInvite(opened)).toBe(true);
    const anonymous = applyEvent(opened, { type: "realm", op: "update_dict", property: "default", data: { create_multiuse_invite_group: { direct_members: [5], direct_subgroups: [] } }, id: 2 });
    expect(canInvite(anonymous)).toBe(false);
    expect(anonymous.realm.create_multiuse_invite_group).toEqual({ direct_members: [5], direct_subgroups: [] });
  });
});

describe("the roles an invitation may give", () => {
  test("none above the inviter's own: an owner any, an administrator up to administrator", () => {
    expect(labels(as(OWNER))).toEqual(["Guest", "Member", "Moderator", "Administrator", "Owner"]);
    expect(labels(as(ADMIN))).toEqual(["Guest", "Member", "Moderator", "Administrator"]);
    expect(labels(as(MODERATOR, 3))).toEqual(["Guest", "Member", "Moderator"]);
    expect(labels(as(MEMBER, 3))).toEqual(["Guest", "Member"]);
    expect(invitableRoles(as(ADMIN)).map((r) => r.role)).toEqual([600, 400, 300, 200]);
  });
});

describe("how long a link lasts", () => {
  test("Zulip's choices in minutes, ten days by default, null for never", () => {
    expect(INVITE_EXPIRY.map((x) => [x.label, x.minutes])).toEqual([
      ["30 minutes", 30],
      ["1 day", 1440],
      ["10 days", 14400],
      ["30 days", 43200],
      ["Never", null],
    ]);
    expect(DEFAULT_INVITE_EXPIRY).toBe(14400);
  });

  test("the line under the link says when it stops working, or that it never does", () => {
    expect(expiresAt(1_000_000, 30)).toBe(1_001_800);
    expect(expiresAt(1_000_000, null)).toBeNull();
    expect(expiryLine(1_001_800, (s) => `T${s}`)).toBe("This link expires on T1001800.");
    expect(expiryLine(null)).toBe("This link never expires.");
  });
});

describe("the links made", () => {
  const fmt = (t: number) => `T${t}`;
  const link = (id: number, by: number, invited: number, invited_as = 400) => ({ id, invited_by_user_id: by, invited, invited_as, expiry_date: null, is_multiuse: true });

  test("each says the role it gives, who made it and when, and when it stops working or that it never does", () => {
    const s = as(OWNER);
    expect([600, 400, 300, 200, 100].map(inviteRoleName)).toEqual(["Guest", "Member", "Moderator", "Administrator", "Owner"]);
    expect(inviteRoleName(250)).toBe("Unknown role");
    expect(linkTitle({ invited_as: 300 })).toBe("Moderator link");
    expect(madeLine(link(1, OWNER, 1000), s.users, OWNER, fmt)).toBe("Made by you on T1000");
    expect(madeLine(link(1, ADMIN, 1000), s.users, OWNER, fmt)).toBe("Made by Iago on T1000");
    // someone the state does not know (a deactivated account not sent) still reads sensibly
    expect(madeLine(link(1, 77, 1000), s.users, OWNER, fmt)).toBe("Made by Unknown user on T1000");
    expect(expiresLine(2000, fmt)).toBe("Expires on T2000");
    expect(expiresLine(null, fmt)).toBe("Never expires");
    expect(revokeQuestion(link(1, ADMIN, 1000, 600), s.users, OWNER)).toBe("Revoke the guest link Iago made? No one can sign up with it any more.");
    expect(revokeQuestion(link(1, OWNER, 1000), s.users, OWNER)).toBe("Revoke the member link you made? No one can sign up with it any more.");
  });

  test("the newest comes first, the later id first when two were made in the same second", () => {
    expect(newestFirst([link(1, OWNER, 100), link(2, OWNER, 300), link(3, OWNER, 200), link(4, OWNER, 300)]).map((l) => l.id)).toEqual([4, 2, 3, 1]);
  });

  test("revoking is offered as the server allows it: one's own always, others' to administrators, an owner's link to owners only", () => {
    const mine = (me: number, invited_as = 400) => ({ invited_by_user_id: me, invited_as });
    const othersMember = { invited_by_user_id: 5, invited_as: 400 };
    const othersOwner = { invited_by_user_id: 5, invited_as: 100 };
    expect([OWNER, ADMIN, MODERATOR, MEMBER].map((me) => canRevokeInvite(as(me, 3), mine(me)))).toEqual([true, true, true, true]);
    expect([OWNER, ADMIN, MODERATOR, MEMBER].map((me) => canRevokeInvite(as(me, 3), othersMember))).toEqual([true, true, false, false]);
    expect([OWNER, ADMIN, MODERATOR, MEMBER].map((me) => canRevokeInvite(as(me, 3), othersOwner))).toEqual([true, false, false, false]);
    // a guest revokes nothing (the server refuses guests outright)
    expect(canRevokeInvite(as(GUEST, 2), mine(GUEST, 600))).toBe(false);
    // administrators are answered with everyone's links, others with their own
    expect([OWNER, ADMIN, MODERATOR, MEMBER].map((me) => seesAllInvites(as(me)))).toEqual([true, true, false, false]);
  });

  test("an invites_changed event, and only that, tells an open list to fetch again", () => {
    const before = invitesChanged.peek();
    noteInviteEvents([{ type: "message", id: 1 }, { type: "realm", id: 2 }]);
    expect(invitesChanged.peek()).toBe(before);
    noteInviteEvents([{ type: "invites_changed", id: 3 }, { type: "invites_changed", id: 4 }]);
    expect(invitesChanged.peek()).toBe(before + 1);
  });
});

describe("inviting by email", () => {
  test("can_invite_users_group decides who is offered the email tab, never a guest; either way opens the dialog", () => {
    // the fixture's organization: links for administrators, email invitations for members
    expect([OWNER, ADMIN, MODERATOR, MEMBER, GUEST].map((me) => canInviteByEmail(as(me)))).toEqual([true, true, true, true, false]);
    expect([OWNER, ADMIN, MODERATOR, MEMBER, GUEST].map((me) => canInviteAnyhow(as(me)))).toEqual([true, true, true, true, false]);
    expect(canInviteByEmail(as(GUEST, undefined, 2))).toBe(false);
    expect([OWNER, ADMIN, MODERATOR, MEMBER].map((me) => canInviteByEmail(as(me, undefined, 11)))).toEqual([true, true, false, false]);
    expect(canInviteAnyhow(as(MEMBER, undefined, 11))).toBe(false);
    // the roles by email follow the email setting, those by link the link setting
    expect(invitableRoles(as(MEMBER), "email").map((r) => r.label)).toEqual(["Guest", "Member"]);
    expect(invitableRoles(as(MEMBER), "link")).toEqual([]);
    expect(invitableRoles(as(ADMIN, undefined, 12), "email")).toEqual([]);
  });

  test("a realm event changing can_invite_users_group is applied", () => {
    const closed = applyEvent(as(MEMBER), { type: "realm", op: "update_dict", property: "default", data: { can_invite_users_group: 11 }, id: 1 });
    expect(canInviteByEmail(closed)).toBe(false);
    expect(closed.realm.can_invite_users_group).toBe(11);
  });

  test("the addresses are read as the server reads them: commas or new lines, names around them, each once", () => {
    expect(parseAddresses("ann@example.com, Bob <bob@example.com>\n\n carl@example.com ,ANN@example.com,")).toEqual(["ann@example.com", "bob@example.com", "carl@example.com"]);
    expect(parseAddresses(" ,\n ")).toEqual([]);
  });

  test("the server's reasons become one line per address; other errors are not theirs", () => {
    const body = {
      msg: "Some emails did not validate, so we didn't send any invitations.",
      errors: [
        ["nope", "Invalid address.", false],
        ["gone@example.com", "Account has been deactivated.", true],
      ],
      sent_invitations: false,
    };
    expect(inviteFailure("INVITATION_FAILED", body)).toEqual({
      message: "Some emails did not validate, so we didn't send any invitations.",
      lines: ["nope: Invalid address.", "gone@example.com: Account has been deactivated. An administrator can reactivate the account instead."],
      sent: false,
    });
    expect(inviteFailure("INVITATION_FAILED", { msg: "x", errors: [], sent_invitations: true })!.sent).toBe(true);
    expect(inviteFailure("BAD_REQUEST", body)).toBeNull();
  });

  test("the success line names one address, or counts several, leaving out those refused", () => {
    expect(sentLine(["ann@example.com"])).toBe("An invitation was sent to ann@example.com.");
    expect(sentLine(["a@x.com", "b@x.com", "c@x.com"])).toBe("Invitations were sent to 3 addresses.");
    expect(sentLine(["a@x.com", "B@x.com"], [["b@x.com", "Already has an account.", false]])).toBe("An invitation was sent to a@x.com.");
    expect(sentLine(["a@x.com"], [["a@x.com", "Already has an account.", false]])).toBe("No invitations were sent.");
  });

  test("an email invitation in the list: its role, who sent it, and the question before revoking it", () => {
    const s = as(OWNER);
    const emailed = { id: 9, invited_by_user_id: ADMIN, invited: 1000, invited_as: 600, expiry_date: null, is_multiuse: false, email: "ann@example.com" };
    expect(emailInviteTitle(emailed)).toBe("Guest invitation");
    expect(madeLine(emailed, s.users, OWNER, (t) => `T${t}`)).toBe("Sent by Iago on T1000");
    expect(revokeQuestion(emailed, s.users, OWNER)).toBe("Revoke the guest invitation Iago sent to ann@example.com? Its link will stop working.");
    expect(revokeQuestion({ ...emailed, invited_by_user_id: OWNER }, s.users, OWNER)).toBe("Revoke the guest invitation you sent to ann@example.com? Its link will stop working.");
  });
});
