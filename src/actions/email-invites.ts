import { nowSecs, realmOf, type App } from "../app";
import { isAdmin } from "../domain/roles";
import { isValidEmail } from "../domain/validate";
import { badRequest, ZulipError } from "../errors";
import {
  countInviteEmailsSince,
  findEmailInvite,
  insertEmailInvite,
  recordInviteEmailsSent,
  revokeInvite,
  type InviteRow,
} from "../store/invites";
import type { Sql } from "../store/db";
import { findUserByEmail, findUserById, type UserRow } from "../store/users";
import { hasRealmPermission } from "./channel-access";
import { queueInvitationEmails } from "./invite-email";
import {
  checkInviteChannels,
  checkInvitedRole,
  checkInviteGroups,
  checkManageInvite,
  expiryFrom,
  generateInviteKey,
  MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH,
  notifyInvitesChanged,
  requireMemberOrAdmin,
} from "./invites";
import { NOTIFICATION_BOT_EMAIL } from "./messages/notification-bot";
import { WELCOME_BOT_EMAIL } from "./join";

/** Invitations by email (Zulip's POST /invites, resend and revoke), in the order of Zulip's checks. */

/** [email, reason, deactivated]: Zulip's per-address error. */
export type InviteeError = [string, string, boolean];

/** Zulip's InvitationError: INVITATION_FAILED with the per-address errors and whether any invitation went out. */
export const invitationFailed = (msg: string, errors: InviteeError[], sentInvitations: boolean, dailyLimitReached = false) =>
  new ZulipError("INVITATION_FAILED", msg, 400, {
    errors,
    sent_invitations: sentInvitations,
    license_limit_reached: false,
    daily_limit_reached: dailyLimitReached,
  });

const SYSTEM_BOT_EMAILS = new Set([NOTIFICATION_BOT_EMAIL, WELCOME_BOT_EMAIL]);

/**
 * The addresses of `invitee_emails`: separated by commas or newlines, "Name <address>" read as the
 * address, blanks dropped, each address once (the first spelling kept).
 */
export function parseInviteeEmails(raw: string): string[] {
  const seen = new Map<string, string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    const email = (named ? named[1]! : part).trim();
    if (email && !seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), email);
  }
  return [...seen.values()];
}

/** Zulip's check_invite_limit: the organization's invitation emails in the last 24 hours. */
async function checkInviteLimit(app: App, sql: Sql, count: number): Promise<void> {
  const max = app.config.limits.max_invites_per_day;
  if (max === 0) return;
  const sent = await countInviteEmailsSince(sql, realmOf(app).id, nowSecs(app) - 86_400);
  if (sent + count > max) {
    throw invitationFailed(
      "To protect users, Parley limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.",
      [],
      false,
      true,
    );
  }
}

/** Why an address cannot be invited (Zulip's validate_email_is_valid and get_existing_user_errors), or null. */
async function inviteeProblem(app: App, email: string): Promise<{ reason: string; deactivated: boolean; invalid: boolean } | null> {
  if (!isValidEmail(email)) return { reason: "Invalid address.", deactivated: false, invalid: true };
  if (SYSTEM_BOT_EMAILS.has(email.toLowerCase())) return { reason: "Reserved for system bots.", deactivated: false, invalid: false };
  const user = await findUserByEmail(app.db, realmOf(app).id, email);
  if (!user) return null;
  return user.is_active
    ? { reason: "Already has an account.", deactivated: false, invalid: false }
    : { reason: "Account has been deactivated.", deactivated: true, invalid: false };
}

export interface NewEmailInvites {
  inviteeEmails: string;
  /** undefined: the organization's default; null: never expires */
  expiresInMinutes: number | null | undefined;
  invitedAs: number;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
  welcomeMessageCustomText: string | undefined;
}

/**
 * POST /invites: one invitation (and email) per address. Invalid addresses refuse the whole request;
 * addresses that already have an account are skipped, and said so after the others are invited.
 */
export async function inviteByEmail(app: App, me: UserRow, input: NewEmailInvites): Promise<void> {
  requireMemberOrAdmin(me);
  const text = input.welcomeMessageCustomText;
  if (text !== undefined && [...text].length > MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH) {
    throw badRequest(`welcome_message_custom_text is too long (limit: ${MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH} characters)`);
  }
  if (!hasRealmPermission(app, me, "can_invite_users_group")) throw badRequest("Insufficient permission");
  checkInvitedRole(input.invitedAs, me);
  const emails = parseInviteeEmails(input.inviteeEmails);
  if (!emails.length) throw badRequest("You must specify at least one email address.");
  const streamIds = await checkInviteChannels(app, me, input.streamIds);
  const groupIds = await checkInviteGroups(app, me, input.groupIds);
  if (text !== undefined && !isAdmin(me.role)) throw badRequest("Must be an organization administrator");
  await checkInviteLimit(app, app.db, emails.length);

  const invalid: InviteeError[] = [];
  const skipped: InviteeError[] = [];
  const good: string[] = [];
  for (const email of emails) {
    const problem = await inviteeProblem(app, email);
    if (!problem) good.push(email);
    else (problem.invalid ? invalid : skipped).push([email, problem.reason, problem.deactivated]);
  }
  if (invalid.length) throw invitationFailed("Some emails did not validate, so we didn't send any invitations.", [...invalid, ...skipped], false);
  if (!good.length) throw invitationFailed("We weren't able to invite anyone.", skipped, false);

  const realm = realmOf(app);
  const created = nowSecs(app);
  const expires = expiryFrom(app, created, input.expiresInMinutes);
  const invites = await app.db.tx(async (sql) => {
    await checkInviteLimit(app, sql, good.length);
    const rows: InviteRow[] = [];
    for (const email of good) {
      const id = await insertEmailInvite(sql, {
        realmId: realm.id,
        referrerId: me.id,
        key: generateInviteKey(),
        email,
        invitedAs: input.invitedAs,
        streamIds,
        groupIds,
        includeRealmDefaultSubscriptions: input.includeRealmDefaultSubscriptions,
        notifyReferrerOnJoin: input.notifyReferrerOnJoin,
        welcomeMessageCustomText: text ?? null,
        created,
        expires,
      });
      rows.push((await findEmailInvite(sql, realm.id, id))!);
    }
    await recordInviteEmailsSent(sql, realm.id, created, rows.length);
    // the emails are outbox rows of this transaction: an invitation is never stored without its email
    await queueInvitationEmails(app, sql, rows, me);
    return rows;
  });
  await notifyInvitesChanged(app, me.id);
  if (skipped.length) {
    throw invitationFailed(
      "Some of those addresses are already using Parley, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      true,
    );
  }
}

/**
 * Zulip's access_invite_by_id: an email invitation of this organization that the user may manage
 * (their own; anyone's for an administrator, an owner's invitation only for an owner).
 */
async function accessEmailInvite(app: App, me: UserRow, inviteId: number): Promise<InviteRow> {
  requireMemberOrAdmin(me);
  const invite = await findEmailInvite(app.db, realmOf(app).id, inviteId);
  if (!invite || invite.used_by !== null) throw badRequest("No such invitation");
  checkManageInvite(invite, me);
  return invite;
}

/** POST /invites/{invite_id}/resend: the same link again, to the same address (its expiry unchanged, as in Zulip). */
export async function resendEmailInvite(app: App, me: UserRow, inviteId: number): Promise<void> {
  const invite = await accessEmailInvite(app, me, inviteId);
  // a revoked or expired invitation is no longer listed: there is nothing to resend
  if (invite.revoked || (invite.expires !== null && invite.expires <= nowSecs(app))) throw badRequest("No such invitation");
  const referrer = (await findUserById(app.db, invite.referrer_id))!;
  await app.db.tx(async (sql) => {
    await checkInviteLimit(app, sql, 1);
    await recordInviteEmailsSent(sql, realmOf(app).id, nowSecs(app), 1);
    await queueInvitationEmails(app, sql, [invite], referrer);
  });
}

/** DELETE /invites/{invite_id}: the emailed link stops working. */
export async function revokeEmailInvite(app: App, me: UserRow, inviteId: number): Promise<void> {
  const invite = await accessEmailInvite(app, me, inviteId);
  await app.db.tx(async (sql) => {
    const fresh = await findEmailInvite(sql, realmOf(app).id, inviteId);
    if (!fresh || fresh.used_by !== null) throw badRequest("No such invitation");
    if (fresh.revoked) throw badRequest("Invitation has already been revoked");
    await revokeInvite(sql, inviteId);
  });
  await notifyInvitesChanged(app, invite.referrer_id);
}
