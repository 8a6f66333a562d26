/**
 * Who the settings screens offer what, by the same rules as the server: administering a channel, its
 * privacy choices, adding and removing its members, default channels, roles, deactivation, bots and
 * user groups. The sample state's people: 4 the reader (member), 5 and 6 members, 7 a guest, 8 an
 * administrator, 9 a moderator; 1 an owner added here.
 */
import { describe, expect, test } from "bun:test";
import {
  assignableRoles,
  canAddGroupMembers,
  canAddSubscribers,
  canAdministerChannel,
  canCreateGroups,
  canDeactivateUser,
  canJoinGroup,
  canLeaveGroup,
  canManageBot,
  canManageGroup,
  canReactivateUser,
  canRemoveGroupMembers,
  canRemoveSubscribers,
  canSendPasswordReset,
  canSetDefaultChannel,
  canUnarchive,
  channelPrivacy,
  channelPrivacyChoices,
  creatableBotTypes,
} from "../../assets/app/state/permissions";
import type { State, UserGroup } from "../../assets/app/state/types";
import { sampleState } from "./fixtures";

const OWNER = 1;
function base(): State {
  const s = sampleState();
  const owners: UserGroup = { id: 13, is_system_group: true, name: "role:owners", members: [OWNER], direct_subgroup_ids: [] };
  return {
    ...s,
    users: { ...s.users, [OWNER]: { user_id: OWNER, full_name: "Desdemona", email: "1@example.com", is_bot: false, is_active: true, role: 100, timezone: "", avatar_url: null } },
    groups: { ...s.groups, 13: owners, 11: { ...s.groups[11]!, direct_subgroup_ids: [13] } },
    realm: { ...s.realm, can_add_subscribers_group: 3, can_create_bots_group: 3, can_create_write_only_bots_group: 3, can_create_groups: 3, can_manage_all_groups: 13 },
    bots: {},
  };
}
const as = (me: number, change: (s: State) => State = (s) => s): State => change({ ...base(), me });
const withChannel = (id: number, patch: Partial<State["channels"][number]>) => (s: State): State => ({
  ...s,
  channels: { ...s.channels, [id]: { ...s.channels[id]!, ...patch } },
  subscriptions: s.subscriptions[id] ? { ...s.subscriptions, [id]: { ...s.subscriptions[id]!, ...patch } } : s.subscriptions,
});
const withRealm = (patch: Partial<State["realm"]>) => (s: State): State => ({ ...s, realm: { ...s.realm, ...patch } });
const both = (...fs: ((s: State) => State)[]) => (s: State) => fs.reduce((acc, f) => f(acc), s);

describe("administering a channel", () => {
  test("administrators may; a member only through the channel's can_administer_channel_group; guests never", () => {
    expect(canAdministerChannel(as(8), 12)).toBe(true);
    expect(canAdministerChannel(as(4), 12)).toBe(false);
    expect(canAdministerChannel(as(9), 12)).toBe(false);
    const creator = withChannel(12, { can_administer_channel_group: { direct_members: [4, 7], direct_subgroups: [] } });
    expect(canAdministerChannel(as(4, creator), 12)).toBe(true);
    expect(canAdministerChannel(as(7, creator), 12)).toBe(false);
  });

  test("an archived channel is not edited, only unarchived, by those who administer it", () => {
    const archived = withChannel(12, { is_archived: true });
    expect(canAdministerChannel(as(8, archived), 12)).toBe(false);
    expect(canUnarchive(as(8, archived), 12)).toBe(true);
    expect(canUnarchive(as(4, archived), 12)).toBe(false);
    expect(canUnarchive(as(8), 12)).toBe(false);
  });

  test("privacy is read from the three fields, and the choices follow the organization's create-channel groups", () => {
    expect(channelPrivacy(base().channels[12]!)).toBe("public");
    expect(channelPrivacy({ ...base().channels[12]!, invite_only: true, history_public_to_subscribers: false })).toBe("private_protected");
    expect(channelPrivacy({ ...base().channels[12]!, invite_only: true, history_public_to_subscribers: true })).toBe("private_shared");
    expect(channelPrivacyChoices(as(8), 12)).toEqual(["public", "private_shared", "private_protected"]);
    const spectators = withRealm({ enable_spectator_access: true });
    expect(channelPrivacyChoices(as(8, spectators), 12)).toEqual(["public", "private_shared", "private_protected", "web_public"]);
    // a channel administrator who may not create private channels keeps only the current choice and public ones
    const admin4 = both(withChannel(12, { can_administer_channel_group: { direct_members: [4], direct_subgroups: [] } }), withRealm({ can_create_private_channel_group: 11 }));
    expect(channelPrivacyChoices(as(4, admin4), 12)).toEqual(["public"]);
    // someone who may not administer sees only the current privacy
    expect(channelPrivacyChoices(as(4), 12)).toEqual(["public"]);
  });

  test("only administrators set default channels, and never a private one", () => {
    expect(canSetDefaultChannel(as(8), 12)).toBe(true);
    expect(canSetDefaultChannel(as(4), 12)).toBe(false);
    expect(canSetDefaultChannel(as(8, withChannel(12, { invite_only: true })), 12)).toBe(false);
  });
});

describe("adding and removing a channel's members", () => {
  test("members may add others to a public channel by the organization's default; guests may not", () => {
    expect(canAddSubscribers(as(4), 12)).toBe(true);
    expect(canAddSubscribers(as(7), 12)).toBe(false);
    expect(canAddSubscribers(as(4, withRealm({ can_add_subscribers_group: 11 })), 12)).toBe(false);
    expect(canAddSubscribers(as(8, withRealm({ can_add_subscribers_group: 11 })), 12)).toBe(true);
  });

  test("a private channel one cannot read is closed to adding, even for the organization's group", () => {
    const hidden = withChannel(14, { invite_only: true });
    expect(canAddSubscribers(as(4, hidden), 14)).toBe(false);
    expect(canAddSubscribers(as(4, both(hidden, withChannel(14, { can_add_subscribers_group: { direct_members: [4], direct_subgroups: [] } }))), 14)).toBe(true);
  });

  test("removing others takes the administrators or the channel's can_remove_subscribers_group", () => {
    expect(canRemoveSubscribers(as(8), 12)).toBe(true);
    expect(canRemoveSubscribers(as(4), 12)).toBe(false);
    expect(canRemoveSubscribers(as(4, withChannel(12, { can_remove_subscribers_group: 3 })), 12)).toBe(true);
    expect(canRemoveSubscribers(as(7, withChannel(12, { can_remove_subscribers_group: 2 })), 12)).toBe(false);
  });
});

describe("roles and deactivation", () => {
  test("an administrator may give any role but owner; an owner any; a member none", () => {
    expect(assignableRoles(as(8), 5).map((r) => r.label)).toEqual(["Guest", "Member", "Moderator", "Administrator"]);
    expect(assignableRoles(as(OWNER), 5).map((r) => r.label)).toEqual(["Guest", "Member", "Moderator", "Administrator", "Owner"]);
    expect(assignableRoles(as(4), 5)).toEqual([]);
    expect(assignableRoles(as(9), 5)).toEqual([]);
  });

  test("an owner's role and account are changed only by an owner", () => {
    expect(assignableRoles(as(8), OWNER)).toEqual([]);
    expect(canDeactivateUser(as(8), OWNER)).toBe(false);
    expect(canDeactivateUser(as(OWNER), 8)).toBe(true);
  });

  test("administrators deactivate and reactivate people, not themselves; members neither", () => {
    expect(canDeactivateUser(as(8), 5)).toBe(true);
    expect(canDeactivateUser(as(8), 8)).toBe(false);
    expect(canDeactivateUser(as(4), 5)).toBe(false);
    const gone = (s: State): State => ({ ...s, users: { ...s.users, 5: { ...s.users[5]!, is_active: false } } });
    expect(canDeactivateUser(as(8, gone), 5)).toBe(false);
    expect(canReactivateUser(as(8, gone), 5)).toBe(true);
    expect(canReactivateUser(as(4, gone), 5)).toBe(false);
    expect(canReactivateUser(as(8), 5)).toBe(false);
  });
});

test("password reset emails: administrators for members, owners for owners, never to bots or the deactivated", () => {
  expect(canSendPasswordReset(as(8), 5)).toBe(true);
  expect(canSendPasswordReset(as(4), 5)).toBe(false);
  expect(canSendPasswordReset(as(8), OWNER)).toBe(false);
  expect(canSendPasswordReset(as(OWNER), OWNER)).toBe(true);
  const gone = (s: State): State => ({ ...s, users: { ...s.users, 5: { ...s.users[5]!, is_active: false } } });
  expect(canSendPasswordReset(as(8, gone), 5)).toBe(false);
});

describe("bots", () => {
  const withBot = (owner: number, active = true) => (s: State): State => ({
    ...s,
    users: { ...s.users, 20: { user_id: 20, full_name: "Ghost", email: "ghost-bot@x", is_bot: true, is_active: active, role: 400, timezone: "", avatar_url: null, bot_type: 1, bot_owner_id: owner } },
    bots: { 20: { user_id: 20, full_name: "Ghost", email: "ghost-bot@x", bot_type: 1, is_active: active, api_key: "k", owner_id: owner, avatar_url: null } },
  });

  test("members may create both kinds by default; the write-only group alone gives webhooks; guests none", () => {
    expect(creatableBotTypes(as(4))).toEqual([1, 2, 3]);
    expect(creatableBotTypes(as(4, withRealm({ can_create_bots_group: 11 })))).toEqual([2]);
    expect(creatableBotTypes(as(4, withRealm({ can_create_bots_group: 11, can_create_write_only_bots_group: 11 })))).toEqual([]);
    expect(creatableBotTypes(as(8, withRealm({ can_create_bots_group: 12, can_create_write_only_bots_group: 12 })))).toEqual([1, 2, 3]);
    expect(creatableBotTypes(as(7, withRealm({ can_create_bots_group: 2 })))).toEqual([]);
  });

  test("a bot is managed by its owner and the administrators, not by other members", () => {
    expect(canManageBot(as(4, withBot(4)), 20)).toBe(true);
    expect(canManageBot(as(5, withBot(4)), 20)).toBe(false);
    expect(canManageBot(as(8, withBot(4)), 20)).toBe(true);
    expect(canDeactivateUser(as(4, withBot(4)), 20)).toBe(true);
    expect(canDeactivateUser(as(5, withBot(4)), 20)).toBe(false);
  });

  test("reactivating a bot also needs the right to create it", () => {
    expect(canReactivateUser(as(4, withBot(4, false)), 20)).toBe(true);
    expect(canReactivateUser(as(4, both(withBot(4, false), withRealm({ can_create_bots_group: 11 }))), 20)).toBe(false);
  });
});

describe("user groups", () => {
  const withGroup = (settings: UserGroup["settings"]) => (s: State): State => ({
    ...s,
    groups: { ...s.groups, 30: { id: 30, name: "Players", is_system_group: false, members: [5], direct_subgroup_ids: [], description: "", settings } },
  });
  const mine = { direct_members: [4], direct_subgroups: [] };

  test("members may create groups by default; guests never", () => {
    expect(canCreateGroups(as(4))).toBe(true);
    expect(canCreateGroups(as(7, withRealm({ can_create_groups: 2 })))).toBe(false);
    expect(canCreateGroups(as(4, withRealm({ can_create_groups: 11 })))).toBe(false);
  });

  test("can_manage_group allows everything; the narrower settings only their own action", () => {
    const manager = withGroup({ can_manage_group: mine, can_add_members_group: 12, can_remove_members_group: 12, can_join_group: 12, can_leave_group: 12 });
    expect([canManageGroup, canAddGroupMembers, canRemoveGroupMembers, canJoinGroup, canLeaveGroup].map((f) => f(as(4, manager), 30))).toEqual([true, true, true, true, true]);
    const adder = withGroup({ can_manage_group: 12, can_add_members_group: mine, can_remove_members_group: 12, can_join_group: 12, can_leave_group: 12 });
    expect([canManageGroup, canAddGroupMembers, canRemoveGroupMembers, canJoinGroup, canLeaveGroup].map((f) => f(as(4, adder), 30))).toEqual([false, true, false, true, false]);
    const nothing = withGroup({ can_manage_group: 12, can_add_members_group: 12, can_remove_members_group: 12, can_join_group: 12, can_leave_group: 12 });
    expect([canManageGroup, canAddGroupMembers, canRemoveGroupMembers, canJoinGroup, canLeaveGroup].map((f) => f(as(4, nothing), 30))).toEqual([false, false, false, false, false]);
    // the organization's owners manage every group
    expect(canManageGroup(as(OWNER, nothing), 30)).toBe(true);
  });

  test("system groups and guests are never offered changes", () => {
    expect(canManageGroup(as(OWNER), 3)).toBe(false);
    expect(canAddGroupMembers(as(8), 11)).toBe(false);
    expect(canLeaveGroup(as(7, withGroup({ can_leave_group: 2 })), 30)).toBe(false);
  });
});
