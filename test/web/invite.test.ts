/**
 * Inviting people, the pure parts: who is offered "Invite people" (the organization's
 * create_multiuse_invite_group, kept current from realm events), which roles the dialog offers (none
 * above the person's own, as the server checks), and the expiry choices and line.
 */
import { describe, expect, test } from "bun:test";
import { applyEvent } from "../../assets/app/state/apply-event";
import { canInvite, invitableRoles } from "../../assets/app/state/permissions";
import type { State } from "../../assets/app/state/types";
import { DEFAULT_INVITE_EXPIRY, expiresAt, expiryLine, INVITE_EXPIRY } from "../../assets/app/lib/invite-expiry";
import { sampleState } from "./fixtures";

/** The sample state with an owner (3, in role:owners under role:administrators), as `me`, the organization's setting changed. */
function as(me: number, setting?: State["realm"]["create_multiuse_invite_group"]): State {
  const s = sampleState();
  const groups = { ...s.groups, 11: { ...s.groups[11]!, direct_subgroup_ids: [13] }, 13: { id: 13, is_system_group: true, name: "role:owners", members: [3], direct_subgroup_ids: [] } };
  const users = { ...s.users, 3: { ...s.users[4]!, user_id: 3, full_name: "Desdemona", role: 100 } };
  return { ...s, me, users, groups, realm: { ...s.realm, ...(setting === undefined ? {} : { create_multiuse_invite_group: setting }) } };
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
