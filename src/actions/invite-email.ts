import { realmOf, type App } from "../app";
import type { InviteRow } from "../store/invites";
import type { UserRow } from "../store/users";
import { inviteLink } from "./invites";
import { queueEmail } from "./mail";
import type { Sql } from "../store/db";

/**
 * The invitation email (Zulip's zerver/emails/invitation): who invites, to which organization, and
 * the one-time link to the sign-up page, with when it stops working. The inviter's address is left
 * out: the organization may hide members' emails.
 */
export function invitationEmail(app: App, invite: InviteRow, referrer: Pick<UserRow, "full_name">) {
  const org = realmOf(app).name;
  const until =
    invite.expires === null
      ? "The link does not expire, and works once."
      : `The link works once, until ${new Date(invite.expires * 1000).toUTCString().replace("GMT", "UTC")}.`;
  return {
    to: invite.email!,
    subject: `${referrer.full_name} invited you to join ${org}`,
    body: [
      "Hello,",
      "",
      `${referrer.full_name} has invited you to join ${org}, a team chat on Parley.`,
      "",
      "Create your account here (you choose your name and password):",
      inviteLink(app, invite.key),
      "",
      until,
      "",
      "If you were not expecting this invitation, you can ignore this email.",
    ].join("\n"),
  };
}

/** Queues the invitation emails in the caller's transaction (the outbox sends them once it commits). */
export async function queueInvitationEmails(app: App, sql: Sql, invites: InviteRow[], referrer: Pick<UserRow, "full_name">): Promise<void> {
  for (const invite of invites) await queueEmail(app, sql, invitationEmail(app, invite, referrer));
}
