import { nowSecs, realmOf, type App } from "../app";
import { systemBot } from "./system-bots";
import type { Sql } from "../store/db";
import { addMembers } from "../store/groups";
import { findInviteByKey, liveGroupIds, liveStreamIds, markInviteUsed, revokePendingEmailInvites, type InviteRow } from "../store/invites";
import { findUserById, listActiveUserIds, type UserRow } from "../store/users";
import { notifyInvitesChanged } from "./invites";
import { sendNotificationDm, silentMention } from "./messages/notification-bot";
import { sendMessage } from "./messages/send";
import { createUser, subscribeNewUser, type CreatedUser } from "./users";

/** Redeeming an invitation link (GET and POST /join/{key}/): checks, account creation, welcome. */

/** Why an invitation link cannot be used: unknown (404), or revoked or expired (410). */
export class InviteLinkError extends Error {
  constructor(
    readonly status: 404 | 410,
    message: string,
  ) {
    super(message);
  }
}

function checkUsable(app: App, invite: InviteRow | undefined): InviteRow {
  if (!invite || invite.realm_id !== realmOf(app).id) {
    throw new InviteLinkError(404, "This invitation link does not exist. Check that you copied the whole link.");
  }
  if (invite.used_by !== null) throw new InviteLinkError(410, "This invitation has already been used. Log in with the account you made.");
  if (invite.revoked) throw new InviteLinkError(410, "This invitation link has been revoked. Ask the person who invited you for a new one.");
  if (invite.expires !== null && invite.expires <= nowSecs(app)) {
    throw new InviteLinkError(410, "This invitation link has expired. Ask the person who invited you for a new one.");
  }
  return invite;
}

/** GET /join/{key}/: the invitation behind a link, or an InviteLinkError. */
export async function usableInvite(app: App, key: string): Promise<InviteRow> {
  return checkUsable(app, await findInviteByKey(app.db, key));
}

/** GET /join/{key}/: the invitation, and for an emailed one who sent it (the email named them already). */
export async function describeInvite(app: App, key: string): Promise<{ invite: InviteRow; inviter: string | null }> {
  const invite = await usableInvite(app, key);
  if (invite.is_multiuse) return { invite, inviter: null };
  const referrer = await findUserById(app.db, invite.referrer_id);
  return { invite, inviter: referrer?.full_name ?? null };
}

export interface SignUp {
  /** ignored for an email invitation: the address it was sent to is the account's */
  email: string;
  fullName: string;
  password: string;
}

/**
 * POST /join/{key}/: creates the account with the invited role, subscribes it to the invitation's
 * channels (and the organization's default channels when the invitation says so) and adds it to
 * the invitation's groups, all in createUser's transaction (which also sends the peer_add events).
 * An emailed invitation is used up there, and any other pending invitation of the address revoked
 * (Zulip's process_new_human_user). Then the group and invites_changed events, the inviter's
 * "accepted your invitation" message when they asked for it, and the welcome.
 */
export async function redeemInvite(app: App, key: string, input: SignUp): Promise<CreatedUser> {
  const invite = await usableInvite(app, key);
  const realm = realmOf(app);
  const email = invite.is_multiuse ? input.email : invite.email!;
  const streamIds = await liveStreamIds(app.db, realm.id, JSON.parse(invite.stream_ids) as number[]);
  const groupIds = await liveGroupIds(app.db, realm.id, JSON.parse(invite.group_ids) as number[]);
  let revokedFor: number[] = [];
  const created = await createUser(
    app,
    null,
    { email, fullName: input.fullName, password: input.password, role: invite.invited_as, defaultChannels: Boolean(invite.include_realm_default_subscriptions) },
    async (sql: Sql, userId: number) => {
      checkUsable(app, await findInviteByKey(sql, key));
      if (!invite.is_multiuse) await markInviteUsed(sql, invite.id, userId);
      revokedFor = await revokePendingEmailInvites(sql, realm.id, email.trim(), invite.is_multiuse ? null : invite.id);
      await subscribeNewUser(sql, userId, streamIds);
      for (const g of groupIds) await addMembers(sql, g, [userId]);
    },
  );
  const everyone = await listActiveUserIds(app.db, realm.id);
  for (const g of groupIds) app.events.publish({ type: "user_group", op: "add_members", group_id: g, user_ids: [created.userId] }, everyone);
  const referrers = invite.is_multiuse ? revokedFor : [invite.referrer_id, ...revokedFor];
  if (referrers.length) await notifyInvitesChanged(app, referrers);
  if (!invite.is_multiuse && invite.notify_referrer_on_join) await tellReferrer(app, invite.referrer_id, created.userId, input.fullName);
  await sendWelcomeMessages(app, created.userId, invite.welcome_message_custom_text);
  return created;
}

/** Notification Bot tells the inviter (still active) that the person joined; a failure is logged, the sign-up stands. */
async function tellReferrer(app: App, referrerId: number, userId: number, fullName: string): Promise<void> {
  try {
    const referrer = await findUserById(app.db, referrerId);
    if (!referrer?.is_active) return;
    await sendNotificationDm(app, [referrerId], `${silentMention({ id: userId, full_name: fullName.trim() })} accepted your invitation to join Parley!`);
  } catch (e) {
    app.log.warn("invitation accepted message not sent", { referrerId, error: String(e) });
  }
}

/** Zulip's Welcome Bot, the sender of the welcome direct messages; created on first use. */
export const WELCOME_BOT_EMAIL = "welcome-bot@zulip.com";

export const welcomeBot = (app: App): Promise<UserRow> => systemBot(app, WELCOME_BOT_EMAIL, "Welcome Bot");

/**
 * Welcome Bot's direct messages to a new member: the greeting, then the custom text, which is the
 * invitation's (null: the organization's welcome_message_custom_text; empty: none). A failure here
 * is logged and never undoes the sign-up.
 */
export async function sendWelcomeMessages(app: App, userId: number, inviteText: string | null): Promise<void> {
  const realm = realmOf(app);
  const orgText = typeof realm.settings.welcome_message_custom_text === "string" ? realm.settings.welcome_message_custom_text : "";
  const custom = (inviteText ?? orgText).trim();
  const greeting =
    `Hello, and welcome to **${realm.name}**! :wave: This is a direct message from me, Welcome Bot.\n\n` +
    "Channels on the left are where conversations happen, each split into topics. " +
    "Reply to me here any time; I am a bot, but the people in your organization are not.";
  try {
    const bot = await welcomeBot(app);
    for (const content of custom ? [greeting, custom] : [greeting]) {
      await sendMessage(app, bot, { type: "direct", to: [userId], content, readBySender: true }, { clientName: "Internal" });
    }
  } catch (e) {
    app.log.warn("welcome message not sent", { userId, error: String(e) });
  }
}
