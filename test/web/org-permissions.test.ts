/** Who sees which organization section and who may change what (state/permissions.ts), as the server decides. */
import { describe, expect, test } from "bun:test";
import { canAddEmoji, canAdministerOrg, canDeleteEmoji, canEditOrgSetting, seesOrgSection, type OrgSection } from "../../assets/app/state/permissions";
import type { State } from "../../assets/app/state/types";
import { sampleState } from "./fixtures";

/** The sample state seen by another person: 4 member, 7 guest, 8 administrator, 9 moderator, 1 an owner. */
function as(userId: number): State {
  const s = sampleState();
  s.users[1] = { ...s.users[8]!, user_id: 1, full_name: "Desdemona", role: 100 };
  s.groups[11] = { ...s.groups[11]!, members: [1, 8] };
  return { ...s, me: userId };
}
const OWNER = 1, ADMIN = 8, MODERATOR = 9, MEMBER = 4, GUEST = 7;
const SECTIONS: OrgSection[] = ["profile", "settings", "permissions", "user-defaults", "emoji", "linkifiers", "playgrounds", "profile-fields", "default-channels", "channel-folders"];

describe("the organization's sections", () => {
  test("everyone sees the organization's settings, read-only unless they may change them", () => {
    for (const id of [OWNER, ADMIN, MODERATOR, MEMBER, GUEST]) for (const s of SECTIONS) expect(seesOrgSection(as(id), s)).toBe(true);
    expect([OWNER, ADMIN, MODERATOR, MEMBER, GUEST].map((id) => canAdministerOrg(as(id)))).toEqual([true, true, false, false, false]);
  });

  test("only the owner sees the server's page; administrators do not", () => {
    expect([OWNER, ADMIN, MODERATOR, MEMBER, GUEST].map((id) => seesOrgSection(as(id), "server"))).toEqual([true, false, false, false, false]);
  });

  test("the invitations are shown to administrators and to those who may invite, never to guests", () => {
    expect([OWNER, ADMIN, MODERATOR, MEMBER, GUEST].map((id) => seesOrgSection(as(id), "invites"))).toEqual([true, true, false, false, false]);
    const open = (id: number) => ({ ...as(id), realm: { ...as(id).realm, create_multiuse_invite_group: 2 } });
    expect([MEMBER, GUEST].map((id) => seesOrgSection(open(id), "invites"))).toEqual([true, false]);
  });
});

describe("changing organization settings", () => {
  test("administrators change ordinary settings; moderators, members and guests do not", () => {
    expect([OWNER, ADMIN, MODERATOR, MEMBER, GUEST].map((id) => canEditOrgSetting(as(id), "name"))).toEqual([true, true, false, false, false]);
  });

  test("the settings Zulip keeps for owners are the owner's alone", () => {
    for (const name of ["waiting_period_threshold", "can_invite_users_group", "invite_required", "message_retention_days", "can_manage_all_groups"]) {
      expect(canEditOrgSetting(as(OWNER), name)).toBe(true);
      expect(canEditOrgSetting(as(ADMIN), name)).toBe(false);
    }
  });
});

describe("custom emoji", () => {
  test("those in can_add_custom_emoji_group may add one, guests never", () => {
    expect([OWNER, ADMIN, MODERATOR, MEMBER, GUEST].map((id) => canAddEmoji(as(id)))).toEqual([true, true, true, true, false]);
    const adminsOnly = (id: number) => {
      const s = as(id);
      return { ...s, org: { ...s.org!, settings: { ...s.org!.settings, can_add_custom_emoji_group: 11 } } };
    };
    expect([ADMIN, MODERATOR, MEMBER].map((id) => canAddEmoji(adminsOnly(id)))).toEqual([true, false, false]);
  });

  test("administrators delete any emoji, others only their own", () => {
    const byOthello = { author_id: 5 };
    expect([OWNER, ADMIN, MODERATOR, MEMBER].map((id) => canDeleteEmoji(as(id), byOthello))).toEqual([true, true, false, false]);
    expect(canDeleteEmoji(as(MEMBER), { author_id: MEMBER })).toBe(true);
    expect(canDeleteEmoji(as(MEMBER), { author_id: null })).toBe(false);
  });
});
