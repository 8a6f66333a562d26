import { nowSecs, realmOf, type App } from "../app";
import { canAddSubscribers } from "../domain/channel-permissions";
import { isAdmin, isGuest, isOwner, ROLE } from "../domain/roles";
import { badRequest, ownerRequired, ZulipError } from "../errors";
import { findGroup } from "../store/groups";
import {
  deleteExpiredInvites,
  deleteInviteEmailsSentBefore,
  findMultiuseInvite,
  insertMultiuseInvite,
  listActiveInvites,
  revokeInvite,
  type InviteRow,
} from "../store/invites";
import { listDefaultStreamIds } from "../store/streams";
import { listActiveUserIdsWithRoles, type UserRow } from "../store/users";
import { accessChannelById, hasRealmPermission } from "./channel-access";

/** Zulip's limit on welcome_message_custom_text, in Unicode code points. */
export const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH = 8000;

/** A confirmation key like Zulip's: 24 characters of lower-case base32. */
export function generateInviteKey(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => alphabet[b & 31]).join("");
}

export const inviteLink = (app: App, key: string) => `${app.config.server.external_url.replace(/\/+$/, "")}/join/${key}/`;

/** Zulip's require_member_or_admin: no guests (and no incoming-webhook bots). */
export function requireMemberOrAdmin(user: UserRow) {
  if (isGuest(user.role)) throw badRequest("Not allowed for guest users");
  if (user.is_bot && user.bot_type === 2) throw badRequest("This endpoint does not accept bot requests.");
}

/**
 * Roles an invitation may grant: never a role above the inviter's own (owners by owners only,
 * administrators by administrators, moderators by moderators and above).
 */
export function checkInvitedRole(invitedAs: number, user: UserRow) {
  if (invitedAs === ROLE.owner && !isOwner(user.role)) throw ownerRequired();
  if (invitedAs < user.role) throw badRequest("Must be an organization administrator");
}

/** Revoking someone else's invitation needs an administrator (an owner for owner invitations). */
export function checkManageInvite(invite: InviteRow, user: UserRow) {
  if (invite.referrer_id === user.id) return;
  if (invite.invited_as === ROLE.owner && !isOwner(user.role)) throw ownerRequired();
  if (!isAdmin(user.role)) throw badRequest("Must be an organization administrator");
}

/**
 * The channels of an invitation: each must exist and be accessible, then be a default channel or
 * one the inviter may add subscribers to; none at all when the inviter may not subscribe others.
 */
export async function checkInviteChannels(app: App, user: UserRow, streamIds: number[]): Promise<number[]> {
  const ids = [...new Set(streamIds)];
  const accessed = [];
  for (const id of ids) {
    try {
      accessed.push(await accessChannelById(app, user, id));
    } catch (e) {
      if (e instanceof ZulipError) throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
      throw e;
    }
  }
  if (!accessed.length) return ids;
  const realmAllows = hasRealmPermission(app, user, "can_add_subscribers_group");
  const allowed = accessed.map((a) => canAddSubscribers(a.access, realmAllows));
  const denied = () => badRequest("You do not have permission to subscribe other users to channels.");
  // "cannot subscribe others": neither the organization setting nor any of these channels lets them
  if (!realmAllows && !isAdmin(user.role) && !allowed.some(Boolean)) throw denied();
  const defaults = new Set(await listDefaultStreamIds(app.db, realmOf(app).id));
  if (accessed.some((a, i) => !allowed[i] && !defaults.has(a.stream.id))) throw denied();
  return ids;
}

/**
 * Whether the user may add members to a user group (Zulip's access_user_group_for_update with
 * can_add_members_group): named, active, not a system group; the organization's
 * can_manage_all_groups, or the group's can_manage_group / can_add_members_group.
 */
export async function checkInviteGroups(app: App, user: UserRow, groupIds: number[]): Promise<number[]> {
  const ids = [...new Set(groupIds)];
  for (const id of ids) {
    const g = await findGroup(app.db, id);
    if (!g || g.realm_id !== realmOf(app).id || g.name === null) throw badRequest("Invalid user group");
    if (g.deactivated) throw badRequest("You can only change an active user group.");
    if (g.is_system_group) throw badRequest("Insufficient permission");
    if (hasRealmPermission(app, user, "can_manage_all_groups")) continue;
    const settings = JSON.parse(g.settings || "{}") as Record<string, number | undefined>;
    const holds = (name: string) => settings[name] !== undefined && app.groups.settingIncludes(settings[name]!, user.id);
    if (!holds("can_manage_group") && !holds("can_add_members_group")) throw badRequest("Insufficient permission");
  }
  return ids;
}

/** When an invitation made at `created` expires: `minutes` after (undefined: the organization's default; null: never). */
export function expiryFrom(app: App, created: number, minutes: number | null | undefined): number | null {
  const fallback = Number(realmOf(app).settings.default_invite_expires_in_minutes);
  const m = minutes === undefined ? (Number.isFinite(fallback) && fallback > 0 ? fallback : 14400) : minutes;
  return m === null ? null : created + m * 60;
}

export interface NewMultiuseInvite {
  /** undefined: the server default; null: never expires */
  expiresInMinutes: number | null | undefined;
  invitedAs: number;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  welcomeMessageCustomText: string | undefined;
}

/** POST /invites/multiuse: the rules of Zulip's generate_multiuse_invite_backend, in its order. */
export async function createMultiuseInvite(app: App, me: UserRow, input: NewMultiuseInvite): Promise<string> {
  requireMemberOrAdmin(me);
  const text = input.welcomeMessageCustomText;
  // a parameter check in Zulip (code points), so it comes before the permission checks
  if (text !== undefined && [...text].length > MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH) {
    throw badRequest(`welcome_message_custom_text is too long (limit: ${MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH} characters)`);
  }
  if (!hasRealmPermission(app, me, "create_multiuse_invite_group")) throw badRequest("Insufficient permission");
  checkInvitedRole(input.invitedAs, me);
  const streamIds = await checkInviteChannels(app, me, input.streamIds);
  const groupIds = await checkInviteGroups(app, me, input.groupIds);
  if (text !== undefined && !isAdmin(me.role)) throw badRequest("Must be an organization administrator");
  const realm = realmOf(app);
  const created = nowSecs(app);
  const expires = expiryFrom(app, created, input.expiresInMinutes);
  const key = generateInviteKey();
  await app.db.tx((sql) =>
    insertMultiuseInvite(sql, {
      realmId: realm.id,
      referrerId: me.id,
      key,
      invitedAs: input.invitedAs,
      streamIds,
      groupIds,
      includeRealmDefaultSubscriptions: input.includeRealmDefaultSubscriptions,
      welcomeMessageCustomText: text ?? null,
      created,
      expires,
    }),
  );
  await notifyInvitesChanged(app, me.id);
  return inviteLink(app, key);
}

/** GET /invites: administrators see every invitation that still works, others their own; emailed ones and links. */
export async function listInvites(app: App, me: UserRow) {
  requireMemberOrAdmin(me);
  const rows = await listActiveInvites(app.db, realmOf(app).id, nowSecs(app), isAdmin(me.role) ? null : me.id);
  return rows.map((i) => {
    const common = {
      id: i.id,
      invited_by_user_id: i.referrer_id,
      invited: Math.floor(i.created),
      expiry_date: i.expires === null ? null : Math.floor(i.expires),
      invited_as: i.invited_as,
    };
    return i.is_multiuse
      ? { ...common, is_multiuse: true, link_url: inviteLink(app, i.key) }
      : { ...common, is_multiuse: false, email: i.email!, notify_referrer_on_join: Boolean(i.notify_referrer_on_join) };
  });
}

/** DELETE /invites/multiuse/{invite_id}. */
export async function revokeMultiuseInvite(app: App, me: UserRow, inviteId: number): Promise<void> {
  requireMemberOrAdmin(me);
  const invite = await findMultiuseInvite(app.db, realmOf(app).id, inviteId);
  if (!invite) throw badRequest("No such invitation");
  checkManageInvite(invite, me);
  await app.db.tx(async (sql) => {
    const fresh = await findMultiuseInvite(sql, realmOf(app).id, inviteId);
    if (!fresh || fresh.revoked) throw badRequest("Invitation has already been revoked");
    await revokeInvite(sql, inviteId);
  });
  await notifyInvitesChanged(app, invite.referrer_id);
}

/** `invites_changed` to the organization's administrators and the invitations' creators (after commit). */
export async function notifyInvitesChanged(app: App, referrerIds: number | null | readonly number[]): Promise<void> {
  const ids = new Set(await listActiveUserIdsWithRoles(app.db, realmOf(app).id, [ROLE.owner, ROLE.administrator]));
  for (const id of referrerIds === null ? [] : typeof referrerIds === "number" ? [referrerIds] : referrerIds) ids.add(id);
  app.events.publish({ type: "invites_changed" }, [...ids].sort((a, b) => a - b));
}

/**
 * Scheduler job: deletes invitations that expired more than a week ago (their links already show
 * "expired"), and forgets invitation emails older than the daily limit's day.
 */
export async function deleteStaleInvites(app: App): Promise<number> {
  const now = nowSecs(app);
  return app.db.tx(async (sql) => {
    await deleteInviteEmailsSentBefore(sql, now - 86_400);
    return (await deleteExpiredInvites(sql, now - 7 * 86_400)).changes;
  });
}
