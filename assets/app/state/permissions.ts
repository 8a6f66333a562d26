/**
 * What the person may do to a message or a topic, by the organization's and the channel's settings
 * from /register, so the app offers only what the server will allow (the server still decides; its
 * refusal is shown when the two disagree). The rules follow Zulip's (message_edit.ts, settings_data.ts)
 * and Parley's server (src/domain/channel-permissions.ts): groups through their subgroups, moderators
 * free of the time limits for moves, archived channels closed to changes.
 */
import { groupHasMember } from "./people";
import { orgGroup } from "./org";
import type { Channel, ChannelPermission, GroupSetting, Message, State, UserGroupPermission } from "./types";

const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

const role = (state: State) => state.users[state.me]?.role ?? ROLE.member;
export const isGuest = (state: State) => role(state) >= ROLE.guest;
export const isModerator = (state: State) => role(state) <= ROLE.moderator;
export const isAdmin = (state: State) => role(state) <= ROLE.admin;

/** Whether the person is in a group setting (a group, through its subgroups, or an anonymous group). */
export function holds(state: State, setting: GroupSetting | undefined): boolean {
  if (setting === undefined) return false;
  if (typeof setting === "number") return groupHasMember(state.groups, setting, state.me);
  return setting.direct_members.includes(state.me) || setting.direct_subgroups.some((g) => groupHasMember(state.groups, g, state.me));
}

/** Channel settings that never include guests (Zulip's allow_everyone_group=False). */
const WITHOUT_GUESTS = new Set<ChannelPermission>(["can_administer_channel_group", "can_subscribe_group", "can_add_subscribers_group"]);

function inChannelSetting(state: State, ch: Channel | undefined, setting: ChannelPermission): boolean {
  if (!ch || (WITHOUT_GUESTS.has(setting) && isGuest(state))) return false;
  return holds(state, ch[setting]);
}

/** Whether the person reads the channel's messages (subscribed, a public channel for a member, or a private one's granting groups). */
function hasContentAccess(state: State, streamId: number): boolean {
  const ch = state.channels[streamId];
  if (!ch) return false;
  if (ch.is_web_public || state.subscriptions[streamId] || (!ch.invite_only && !isGuest(state))) return true;
  // a private channel: through its groups that grant content access (as the server's hasContentAccess)
  return inChannelSetting(state, ch, "can_subscribe_group") || inChannelSetting(state, ch, "can_add_subscribers_group");
}

const canAdminister = (state: State, ch: Channel | undefined) => isAdmin(state) || inChannelSetting(state, ch, "can_administer_channel_group");

/** May move messages between the topics of this channel (no time limit considered). */
export function canMoveWithin(state: State, streamId: number): boolean {
  const ch = state.channels[streamId];
  if (!ch || ch.is_archived) return false;
  return holds(state, state.realm.can_move_messages_between_topics_group) || canAdminister(state, ch) || inChannelSetting(state, ch, "can_move_messages_within_channel_group");
}

/** May move messages out of this channel into another (no time limit considered). */
export function canMoveOut(state: State, streamId: number): boolean {
  const ch = state.channels[streamId];
  if (!ch || ch.is_archived) return false;
  const realmAllows = !isGuest(state) && holds(state, state.realm.can_move_messages_between_channels_group);
  return realmAllows || canAdminister(state, ch) || inChannelSetting(state, ch, "can_move_messages_out_of_channel_group");
}

/** May mark this channel's topics resolved or unresolved. */
export function canResolve(state: State, streamId: number): boolean {
  const ch = state.channels[streamId];
  if (!ch || ch.is_archived) return false;
  return holds(state, state.realm.can_resolve_topics_group) || inChannelSetting(state, ch, "can_resolve_topics_group");
}

/** Within a limit in seconds since `sentAt` (null: no limit). */
const within = (limit: number | null, sentAt: number, now: number) => limit === null || now - sentAt <= limit;

const isArchivedChannel = (state: State, m: Message) => m.type === "stream" && !!state.channels[m.stream_id!]?.is_archived;

/** May change the message's text: their own, editing allowed, within the organization's limit. */
export function canEditContent(state: State, m: Message, now: number): boolean {
  if (m.local_id || m.sender_id !== state.me || !state.realm.allow_message_editing || isArchivedChannel(state, m)) return false;
  return within(state.realm.message_content_edit_limit_seconds, m.timestamp, now);
}

/** May move this message to another topic of its channel (rename the topic from it). */
export function canEditTopic(state: State, m: Message, now: number): boolean {
  if (m.local_id || m.type !== "stream" || !canMoveWithin(state, m.stream_id!)) return false;
  return isModerator(state) || within(state.realm.move_messages_within_stream_limit_seconds, m.timestamp, now);
}

/** May move this message to another channel. */
export function canMoveChannel(state: State, m: Message, now: number): boolean {
  if (m.local_id || m.type !== "stream" || !canMoveOut(state, m.stream_id!)) return false;
  return isModerator(state) || within(state.realm.move_messages_between_streams_limit_seconds, m.timestamp, now);
}

/** May delete the message: anyone's through the delete-any groups; one's own through the delete-own groups, in time. */
export function canDelete(state: State, m: Message, now: number): boolean {
  if (m.local_id || isArchivedChannel(state, m)) return false;
  const ch = m.type === "stream" ? state.channels[m.stream_id!] : undefined;
  const access = m.type !== "stream" || hasContentAccess(state, m.stream_id!);
  if (holds(state, state.realm.can_delete_any_message_group)) return true;
  if (ch && access && inChannelSetting(state, ch, "can_delete_any_message_group")) return true;
  if (m.sender_id !== state.me) return false;
  const mayDeleteOwn = holds(state, state.realm.can_delete_own_message_group) || (!!ch && access && inChannelSetting(state, ch, "can_delete_own_message_group"));
  return mayDeleteOwn && within(state.realm.message_content_delete_limit_seconds, m.timestamp, now);
}

/** Whether the message's edit history may be shown: it changed, in a way the organization lets people see. */
export function canViewHistory(state: State, m: Message): boolean {
  const policy = state.realm.message_edit_history_visibility_policy;
  if (policy === "none" || m.local_id) return false;
  if (policy === "moves") return m.last_moved_timestamp !== undefined;
  return m.last_edit_timestamp !== undefined || m.last_moved_timestamp !== undefined;
}

/** May create invitation links: in the organization's create_multiuse_invite_group (never a guest). */
export const canInvite = (state: State): boolean => !isGuest(state) && holds(state, state.realm.create_multiuse_invite_group);

/** The roles an invitation may give, most restricted first, with the names Zulip's web app shows. */
export const INVITE_ROLES = [
  { role: ROLE.guest, label: "Guest" },
  { role: ROLE.member, label: "Member" },
  { role: ROLE.moderator, label: "Moderator" },
  { role: ROLE.admin, label: "Administrator" },
  { role: ROLE.owner, label: "Owner" },
] as const;

/** May invite people by email: in the organization's can_invite_users_group (never a guest). */
export const canInviteByEmail = (state: State): boolean => !isGuest(state) && holds(state, state.realm.can_invite_users_group);

/** Offered "Invite people" at all: by link or by email. */
export const canInviteAnyhow = (state: State): boolean => canInvite(state) || canInviteByEmail(state);

/**
 * The roles the person may invite as, by link or by email: none unless they may invite that way, and
 * none above their own (as the server checks).
 */
export const invitableRoles = (state: State, by: "link" | "email" = "link") =>
  (by === "link" ? canInvite(state) : canInviteByEmail(state)) ? INVITE_ROLES.filter((r) => r.role >= role(state)) : [];

/** Whether GET /invites answers with everyone's invitations (an administrator) rather than the person's own. */
export const seesAllInvites = (state: State) => isAdmin(state);

/** The name of the role an invitation gives ("Member"). */
export const inviteRoleName = (invitedAs: number): string => INVITE_ROLES.find((r) => r.role === invitedAs)?.label ?? "Unknown role";

/**
 * Whether the person may revoke (or, for an email invitation, resend) an invitation, as the server decides:
 * their own always (not as a guest); someone else's as an administrator, and an owner's only as an owner.
 */
export function canRevokeInvite(state: State, invite: { invited_by_user_id: number; invited_as: number }): boolean {
  if (isGuest(state)) return false;
  if (invite.invited_by_user_id === state.me) return true;
  if (invite.invited_as === ROLE.owner && role(state) !== ROLE.owner) return false;
  return isAdmin(state);
}

// Channels: which kinds the person may create, and whether they may join or leave one (Zulip's
// settings_data.user_can_create_*_streams and stream_data.can_toggle_subscription).

/** The kinds of channel a person may be offered to create, in the order the dialog lists them. */
export type ChannelPrivacy = "public" | "private_shared" | "private_protected" | "web_public";

/** The privacy choices the person may create: none for guests (these settings never include them). */
export function creatableChannelKinds(state: State): ChannelPrivacy[] {
  if (isGuest(state)) return [];
  const out: ChannelPrivacy[] = [];
  if (holds(state, state.realm.can_create_public_channel_group)) out.push("public");
  if (holds(state, state.realm.can_create_private_channel_group)) out.push("private_shared", "private_protected");
  const webPublic = state.realm.web_public_channels_enabled && state.realm.enable_spectator_access;
  if (webPublic && holds(state, state.realm.can_create_web_public_channel_group)) out.push("web_public");
  return out;
}

/** Whether the person may bring an archived channel back (its administrators, as the server's PATCH /streams checks). */
export function canUnarchive(state: State, streamId: number): boolean {
  const ch = state.channels[streamId];
  return !!ch?.is_archived && canAdminister(state, ch);
}

/**
 * Whether the person may subscribe to the channel by themselves (or leave it): one's own subscription can
 * always be left; guests join nothing by themselves; a public channel is open to members; a private one
 * only through its can_subscribe_group or can_add_subscribers_group (Zulip's content access).
 */
export function canToggleSubscription(state: State, streamId: number): boolean {
  if (state.subscriptions[streamId]) return true;
  const ch = state.channels[streamId];
  if (!ch || ch.is_archived || isGuest(state)) return false;
  if (!ch.invite_only) return true;
  return inChannelSetting(state, ch, "can_subscribe_group") || inChannelSetting(state, ch, "can_add_subscribers_group");
}

// Settings screens: channels, people, groups and bots (the server's rules in src/domain/channel-permissions.ts,
// src/actions/channels.ts, user-updates.ts, deactivation.ts, user-group-access.ts, bot-permissions.ts).

export const isOwner = (state: State) => role(state) === ROLE.owner;

/** A channel's privacy as one choice (its invite_only, history_public_to_subscribers and is_web_public). */
export function channelPrivacy(ch: Channel): ChannelPrivacy {
  if (ch.is_web_public) return "web_public";
  if (!ch.invite_only) return "public";
  return ch.history_public_to_subscribers === false ? "private_protected" : "private_shared";
}

/** May change the channel's settings (name, description, permissions) and archive it. */
export function canAdministerChannel(state: State, streamId: number): boolean {
  const ch = state.channels[streamId];
  return !!ch && !ch.is_archived && canAdminister(state, ch);
}

/**
 * The privacy choices offered for an existing channel: its own, plus those the person may switch to
 * (content access, the organization's create-channel groups, web-public where allowed).
 */
export function channelPrivacyChoices(state: State, streamId: number): ChannelPrivacy[] {
  const ch = state.channels[streamId];
  if (!ch) return [];
  const current = channelPrivacy(ch);
  if (!canAdministerChannel(state, streamId) || !hasContentAccess(state, streamId)) return [current];
  const creatable = new Set(creatableChannelKinds(state));
  return (["public", "private_shared", "private_protected", "web_public"] as const).filter((k) => k === current || creatable.has(k));
}

/** May add other people to the channel. */
export function canAddSubscribers(state: State, streamId: number): boolean {
  const ch = state.channels[streamId];
  if (!ch || ch.is_archived || isGuest(state) || !hasContentAccess(state, streamId)) return false;
  if (isAdmin(state) || holds(state, state.realm.can_add_subscribers_group)) return true;
  return inChannelSetting(state, ch, "can_administer_channel_group") || inChannelSetting(state, ch, "can_add_subscribers_group");
}

/** May remove other people from the channel (one's own subscription can always be left). */
export function canRemoveSubscribers(state: State, streamId: number): boolean {
  const ch = state.channels[streamId];
  if (!ch || isGuest(state)) return false;
  if (isAdmin(state) || inChannelSetting(state, ch, "can_administer_channel_group")) return true;
  const basicAccess = hasContentAccess(state, streamId) || inChannelSetting(state, ch, "can_subscribe_group") || inChannelSetting(state, ch, "can_add_subscribers_group");
  return basicAccess && inChannelSetting(state, ch, "can_remove_subscribers_group");
}

/** Only administrators choose the default channels (which must be public). */
export const canSetDefaultChannel = (state: State, streamId: number) => isAdmin(state) && !!state.channels[streamId] && !state.channels[streamId]!.invite_only;

/** Only owners change a channel's message retention. */
export const canSetChannelRetention = (state: State) => isOwner(state);

/** The roles the person may give someone: none unless an administrator; an owner's role only by an owner. */
export function assignableRoles(state: State, targetId: number) {
  const target = state.users[targetId];
  if (!target || !isAdmin(state) || target.is_bot) return [];
  if (target.role === ROLE.owner && !isOwner(state)) return [];
  return INVITE_ROLES.filter((r) => r.role >= role(state));
}

/** May deactivate the person: administrators, an owner only by an owner, never oneself here. */
export function canDeactivateUser(state: State, targetId: number): boolean {
  const target = state.users[targetId];
  if (!target || !target.is_active || targetId === state.me) return false;
  if (target.is_bot) return canManageBot(state, targetId);
  if (target.role === ROLE.owner && !isOwner(state)) return false;
  return isAdmin(state);
}

/** May email the person a password reset link: administrators, an owner only by an owner, never to bots or the deactivated. */
export function canSendPasswordReset(state: State, targetId: number): boolean {
  const target = state.users[targetId];
  if (!target || !target.is_active || target.is_bot || !isAdmin(state)) return false;
  return target.role !== ROLE.owner || isOwner(state);
}

/** May reactivate a deactivated person (a bot: its owner too, within the bot-creation rules). */
export function canReactivateUser(state: State, targetId: number): boolean {
  const target = state.users[targetId];
  if (!target || target.is_active) return false;
  if (target.is_bot) return canManageBot(state, targetId) && creatableBotTypes(state).includes((target.bot_type ?? 1) as BotType);
  return isAdmin(state);
}

/** 1 generic, 2 incoming webhook, 3 outgoing webhook: the kinds of bot the app creates. */
export type BotType = 1 | 2 | 3;

/** The kinds of bot the person may create: administrators any; can_create_bots_group any; the write-only group webhooks only. */
export function creatableBotTypes(state: State): BotType[] {
  const me = state.users[state.me];
  if (!me || me.is_bot) return [];
  if (isAdmin(state)) return [1, 2, 3];
  if (isGuest(state)) return [];
  if (holds(state, state.realm.can_create_bots_group)) return [1, 2, 3];
  if (holds(state, state.realm.can_create_write_only_bots_group)) return [2];
  return [];
}

/** May see a bot's key, regenerate it, rename or deactivate it: its owner or an administrator. */
export function canManageBot(state: State, botId: number): boolean {
  const owner = state.bots?.[botId]?.owner_id ?? state.users[botId]?.bot_owner_id;
  return isAdmin(state) || (owner !== undefined && owner !== null && owner === state.me);
}

// User groups: guests and bots may not use them at all; system groups are the server's.

const usesGroups = (state: State) => !isGuest(state) && !state.users[state.me]?.is_bot;

export const canCreateGroups = (state: State) => usesGroups(state) && holds(state, state.realm.can_create_groups);

function groupPermission(state: State, groupId: number, name: UserGroupPermission): boolean {
  const g = state.groups[groupId];
  if (!g || g.is_system_group || !usesGroups(state)) return false;
  if (holds(state, state.realm.can_manage_all_groups) || holds(state, g.settings?.can_manage_group)) return true;
  return name !== "can_manage_group" && holds(state, g.settings?.[name]);
}

/** May rename the group, change its description and who may do what, deactivate it. */
export const canManageGroup = (state: State, groupId: number) => groupPermission(state, groupId, "can_manage_group");
export const canAddGroupMembers = (state: State, groupId: number) => groupPermission(state, groupId, "can_add_members_group");
export const canRemoveGroupMembers = (state: State, groupId: number) => groupPermission(state, groupId, "can_remove_members_group");
export const canJoinGroup = (state: State, groupId: number) => groupPermission(state, groupId, "can_join_group") || canAddGroupMembers(state, groupId);
export const canLeaveGroup = (state: State, groupId: number) => groupPermission(state, groupId, "can_leave_group") || canRemoveGroupMembers(state, groupId);

// The organization's administration screens (Zulip's settings_org.ts, settings_emoji.ts and the
// server's checks in actions/realm.ts, realm-emoji.ts): who sees which section and who may change what.

/** Settings only owners may change (the server's OWNER_ONLY_REALM_SETTINGS, Zulip's update_realm). */
export const OWNER_ONLY_ORG_SETTINGS: ReadonlySet<string> = new Set([
  "invite_required",
  "create_multiuse_invite_group",
  "can_create_groups",
  "can_invite_users_group",
  "can_manage_all_groups",
  "emails_restricted_to_domains",
  "disallow_disposable_email_addresses",
  "waiting_period_threshold",
  "message_retention_days",
]);

/** The organization's sections of the settings overlay. */
export type OrgSection = "profile" | "settings" | "permissions" | "user-defaults" | "emoji" | "linkifiers" | "playgrounds" | "profile-fields" | "default-channels" | "channel-folders" | "invites" | "server";

/**
 * Whether the person sees a section: everyone sees the organization's settings (read-only unless they
 * may change them, as in Zulip); the invitations only those who may invite or administrators; the
 * server's page only owners.
 */
export function seesOrgSection(state: State, section: OrgSection): boolean {
  if (section === "server") return isOwner(state);
  if (section === "invites") return isAdmin(state) || canInvite(state);
  return true;
}

/** May change one organization setting (PATCH /realm): administrators, owners for the owner-only ones. */
export const canEditOrgSetting = (state: State, name: string): boolean => isAdmin(state) && (!OWNER_ONLY_ORG_SETTINGS.has(name) || isOwner(state));

/** May change the organization's lists: linkifiers, playgrounds, profile fields, default channels, folders, new users' defaults. */
export const canAdministerOrg = (state: State): boolean => isAdmin(state);

/** May upload a custom emoji: in can_add_custom_emoji_group (never a guest). */
export const canAddEmoji = (state: State): boolean => !isGuest(state) && !!state.org && holds(state, orgGroup(state.org, "can_add_custom_emoji_group"));

/** May delete a custom emoji: administrators, or its author. */
export const canDeleteEmoji = (state: State, emoji: { author_id?: number | null }): boolean => isAdmin(state) || (emoji.author_id != null && emoji.author_id === state.me);
