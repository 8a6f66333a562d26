import { describe, expect, test } from "bun:test";
import {
  canAccessHistory,
  canAddSubscribers,
  canAdminister,
  canCreateTopics,
  canDeleteAnyMessage,
  canDeleteOwnMessage,
  canPost,
  canRemoveSubscribers,
  channelKind,
  hasContentAccess,
  hasMetadataAccess,
  postRefusal,
  type ChannelAccess,
  type ChannelFacts,
} from "../../src/domain/channel-permissions";
import { ROLE } from "../../src/domain/roles";

// System groups as in a real organization: each role's group is inside the wider ones.
const G = { everyone: 1, members: 2, moderators: 3, admins: 4, owners: 5, nobody: 6, team: 7 } as const;
const groupsOf = (role: number): number[] => {
  switch (role) {
    case ROLE.owner:
      return [G.everyone, G.members, G.moderators, G.admins, G.owners];
    case ROLE.administrator:
      return [G.everyone, G.members, G.moderators, G.admins];
    case ROLE.moderator:
      return [G.everyone, G.members, G.moderators];
    case ROLE.member:
      return [G.everyone, G.members];
    default:
      return [G.everyone];
  }
};

const base: ChannelFacts = {
  name: "Denmark",
  invite_only: 0,
  is_web_public: 0,
  history_public_to_subscribers: 1,
  is_archived: 0,
  can_add_subscribers_group: G.nobody,
  can_administer_channel_group: G.nobody,
  can_create_topic_group: G.everyone,
  can_delete_any_message_group: G.nobody,
  can_delete_own_message_group: G.nobody,
  can_move_messages_out_of_channel_group: G.nobody,
  can_move_messages_within_channel_group: G.nobody,
  can_remove_subscribers_group: G.admins,
  can_resolve_topics_group: G.nobody,
  can_send_message_group: G.everyone,
  can_subscribe_group: G.nobody,
};

const KINDS: Record<string, Partial<ChannelFacts>> = {
  public: {},
  private_shared: { invite_only: 1, history_public_to_subscribers: 1 },
  private_protected: { invite_only: 1, history_public_to_subscribers: 0 },
  web_public: { is_web_public: 1 },
  archived: { is_archived: 1 },
};
const ROLES = { owner: ROLE.owner, admin: ROLE.administrator, moderator: ROLE.moderator, member: ROLE.member, guest: ROLE.guest } as const;

function access(role: number, kind: keyof typeof KINDS, opts: { subscribed?: boolean; extraGroups?: number[]; channel?: Partial<ChannelFacts> } = {}): ChannelAccess {
  const groups = new Set([...groupsOf(role), ...(opts.extraGroups ?? [])]);
  return { user: { id: 10, role }, channel: { ...base, ...KINDS[kind], ...opts.channel }, subscribed: opts.subscribed ?? false, inGroup: (g) => groups.has(g) };
}

describe("channel kinds", () => {
  test("each combination of flags names its kind", () => {
    expect(channelKind({ ...base })).toBe("public");
    expect(channelKind({ ...base, ...KINDS.private_shared })).toBe("private_shared_history");
    expect(channelKind({ ...base, ...KINDS.private_protected })).toBe("private_protected_history");
    expect(channelKind({ ...base, ...KINDS.web_public })).toBe("web_public");
  });
});

// Expected answers for an unsubscribed user, per kind and role: [metadata, content, history, post].
type Row = [boolean, boolean, boolean, boolean];
const UNSUBSCRIBED: Record<string, Record<keyof typeof ROLES, Row>> = {
  public: { owner: [true, true, true, true], admin: [true, true, true, true], moderator: [true, true, true, true], member: [true, true, true, true], guest: [false, false, false, false] },
  private_shared: { owner: [true, false, false, false], admin: [true, false, false, false], moderator: [false, false, false, false], member: [false, false, false, false], guest: [false, false, false, false] },
  private_protected: { owner: [true, false, false, false], admin: [true, false, false, false], moderator: [false, false, false, false], member: [false, false, false, false], guest: [false, false, false, false] },
  web_public: { owner: [true, true, true, true], admin: [true, true, true, true], moderator: [true, true, true, true], member: [true, true, true, true], guest: [true, true, true, true] },
  archived: { owner: [true, true, true, false], admin: [true, true, true, false], moderator: [true, true, true, false], member: [true, true, true, false], guest: [false, false, false, false] },
};
// Subscribed users: [metadata, content, history, post].
const SUBSCRIBED: Record<string, Row> = {
  public: [true, true, true, true],
  private_shared: [true, true, true, true],
  private_protected: [true, true, false, true],
  web_public: [true, true, true, true],
  archived: [true, true, true, false],
};

describe("access matrix: role × channel kind", () => {
  for (const [kind, byRole] of Object.entries(UNSUBSCRIBED)) {
    for (const [roleName, role] of Object.entries(ROLES)) {
      test(`an unsubscribed ${roleName} in a ${kind} channel`, () => {
        const a = access(role, kind as keyof typeof KINDS);
        expect([hasMetadataAccess(a), hasContentAccess(a), canAccessHistory(a), canPost(a)]).toEqual(byRole[roleName as keyof typeof ROLES]);
      });
      test(`a subscribed ${roleName} in a ${kind} channel`, () => {
        const a = access(role, kind as keyof typeof KINDS, { subscribed: true });
        expect([hasMetadataAccess(a), hasContentAccess(a), canAccessHistory(a), canPost(a)]).toEqual(SUBSCRIBED[kind]!);
      });
    }
  }

  test("archived channels refuse posting with Zulip's message", () => {
    expect(postRefusal(access(ROLE.member, "archived", { subscribed: true }))).toBe("Not authorized to send to channel 'Denmark'");
  });

  test("a private channel refuses an unsubscribed poster by name", () => {
    expect(postRefusal(access(ROLE.member, "private_shared"))).toBe("Not authorized to send to channel 'Denmark'");
  });
});

describe("group-granted access to private channels", () => {
  test("can_subscribe_group and can_add_subscribers_group grant content access, not to guests", () => {
    for (const setting of ["can_subscribe_group", "can_add_subscribers_group"] as const) {
      const member = access(ROLE.member, "private_shared", { channel: { [setting]: G.members } });
      expect(hasContentAccess(member)).toBe(true);
      expect(hasMetadataAccess(member)).toBe(true);
      expect(canPost(member)).toBe(true);
      const guest = access(ROLE.guest, "private_shared", { channel: { [setting]: G.everyone } });
      expect(hasContentAccess(guest)).toBe(false);
    }
  });

  test("can_administer_channel_group grants metadata access but not content", () => {
    const a = access(ROLE.member, "private_protected", { extraGroups: [G.team], channel: { can_administer_channel_group: G.team } });
    expect(hasMetadataAccess(a)).toBe(true);
    expect(hasContentAccess(a)).toBe(false);
    expect(canAdminister(a)).toBe(true);
  });

  test("a protected-history channel does not let group members post without subscribing", () => {
    const a = access(ROLE.member, "private_protected", { channel: { can_subscribe_group: G.members } });
    expect(canPost(a)).toBe(false);
  });
});

describe("posting and topics", () => {
  test("can_send_message_group restricts posting for every role outside it", () => {
    const channel = { can_send_message_group: G.admins };
    expect(postRefusal(access(ROLE.member, "public", { subscribed: true, channel }))).toBe("You do not have permission to post in this channel.");
    expect(canPost(access(ROLE.administrator, "public", { channel }))).toBe(true);
    expect(canPost(access(ROLE.owner, "public", { channel: { can_send_message_group: G.nobody } }))).toBe(false);
  });

  test("guests may post in web-public channels and in channels they are subscribed to", () => {
    expect(canPost(access(ROLE.guest, "web_public"))).toBe(true);
    expect(canPost(access(ROLE.guest, "public"))).toBe(false);
    expect(canPost(access(ROLE.guest, "private_protected", { subscribed: true }))).toBe(true);
  });

  test("a bot is judged by its owner's groups and subscription when it lacks them", () => {
    const bot = access(ROLE.member, "private_shared", { channel: { can_send_message_group: G.admins } });
    const owner = access(ROLE.administrator, "private_shared", { subscribed: true, channel: { can_send_message_group: G.admins } });
    expect(canPost(bot)).toBe(false);
    expect(canPost(bot, owner)).toBe(true);
  });

  test("can_create_topic_group decides who starts topics", () => {
    expect(canCreateTopics(access(ROLE.guest, "public"))).toBe(true);
    const channel = { can_create_topic_group: G.moderators };
    expect(canCreateTopics(access(ROLE.member, "public", { channel }))).toBe(false);
    expect(canCreateTopics(access(ROLE.moderator, "public", { channel }))).toBe(true);
  });
});

describe("administration and subscribers", () => {
  test("organization administrators administer every channel; others only through the channel group", () => {
    for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
      expect(canAdminister(access(ROLE.administrator, kind))).toBe(true);
      expect(canAdminister(access(ROLE.owner, kind))).toBe(true);
      expect(canAdminister(access(ROLE.moderator, kind))).toBe(false);
      expect(canAdminister(access(ROLE.member, kind))).toBe(false);
      expect(canAdminister(access(ROLE.member, kind, { extraGroups: [G.team], channel: { can_administer_channel_group: G.team } }))).toBe(true);
      expect(canAdminister(access(ROLE.guest, kind, { extraGroups: [G.team], channel: { can_administer_channel_group: G.team } }))).toBe(false);
    }
  });

  test("adding subscribers needs content access and a permission", () => {
    expect(canAddSubscribers(access(ROLE.member, "public"), true)).toBe(true);
    expect(canAddSubscribers(access(ROLE.member, "public"), false)).toBe(false);
    expect(canAddSubscribers(access(ROLE.member, "public", { channel: { can_add_subscribers_group: G.members } }), false)).toBe(true);
    expect(canAddSubscribers(access(ROLE.administrator, "public"), false)).toBe(true);
    expect(canAddSubscribers(access(ROLE.member, "private_shared"), true)).toBe(false);
    expect(canAddSubscribers(access(ROLE.member, "private_shared", { subscribed: true }), true)).toBe(true);
    expect(canAddSubscribers(access(ROLE.administrator, "private_protected"), true)).toBe(false);
    expect(canAddSubscribers(access(ROLE.guest, "web_public", { subscribed: true }), true)).toBe(false);
  });

  test("removing subscribers: administrators, channel administrators, and can_remove_subscribers_group with access", () => {
    expect(canRemoveSubscribers(access(ROLE.administrator, "private_protected"))).toBe(true);
    expect(canRemoveSubscribers(access(ROLE.member, "public"))).toBe(false);
    expect(canRemoveSubscribers(access(ROLE.member, "public", { channel: { can_remove_subscribers_group: G.members } }))).toBe(true);
    expect(canRemoveSubscribers(access(ROLE.member, "private_shared", { channel: { can_remove_subscribers_group: G.members } }))).toBe(false);
    expect(canRemoveSubscribers(access(ROLE.member, "private_shared", { subscribed: true, channel: { can_remove_subscribers_group: G.members } }))).toBe(true);
    expect(canRemoveSubscribers(access(ROLE.guest, "public", { subscribed: true, channel: { can_remove_subscribers_group: G.everyone } }))).toBe(false);
    expect(canRemoveSubscribers(access(ROLE.member, "private_protected", { extraGroups: [G.team], channel: { can_administer_channel_group: G.team } }))).toBe(true);
  });
});

describe("message deletion", () => {
  test("the organization's permission always applies; the channel's needs content access", () => {
    expect(canDeleteAnyMessage(access(ROLE.member, "private_shared"), true)).toBe(true);
    const channel = { can_delete_any_message_group: G.members, can_delete_own_message_group: G.members };
    expect(canDeleteAnyMessage(access(ROLE.member, "public", { channel }), false)).toBe(true);
    expect(canDeleteAnyMessage(access(ROLE.member, "private_shared", { channel }), false)).toBe(false);
    expect(canDeleteOwnMessage(access(ROLE.member, "private_shared", { subscribed: true, channel }), false)).toBe(true);
    expect(canDeleteOwnMessage(access(ROLE.member, "public"), false)).toBe(false);
    expect(canDeleteOwnMessage(access(ROLE.guest, "public", { channel: { can_delete_own_message_group: G.everyone } }), false)).toBe(false);
  });
});
