/**
 * The lines of the "Invitations" list (Zulip's organization settings → Invitations): who made a link or
 * sent an email invitation and when, the role it gives, when it stops working; newest first. Pure:
 * dates come through `format`.
 */
import type { InviteLink } from "../api/calls";
import { userName } from "../state/people";
import { inviteRoleName } from "../state/permissions";
import type { State } from "../state/types";

type Format = (seconds: number) => string;

/** Newest first (a link just made is at the top), the server's order (by id) breaking ties. */
export const newestFirst = <T extends Pick<InviteLink, "id" | "invited">>(links: readonly T[]): T[] =>
  [...links].sort((a, b) => b.invited - a.invited || b.id - a.id);

/** "Member link", the heading of a link's entry. */
export const linkTitle = (invite: Pick<InviteLink, "invited_as">) => `${inviteRoleName(invite.invited_as)} link`;

/** "Member invitation", what an email invitation gives (its heading is the address). */
export const emailInviteTitle = (invite: Pick<InviteLink, "invited_as">) => `${inviteRoleName(invite.invited_as)} invitation`;

/** "Made by you on Nov 26, 2026, 6:30 PM" (a link) or "Sent by Iago on …" (an email), or by whom else. */
export function madeLine(invite: Pick<InviteLink, "invited_by_user_id" | "invited" | "is_multiuse">, users: State["users"], me: number, format: Format): string {
  const who = invite.invited_by_user_id === me ? "you" : userName(users, invite.invited_by_user_id);
  return `${invite.is_multiuse === false ? "Sent" : "Made"} by ${who} on ${format(invite.invited)}`;
}

/** "Expires on Dec 6, 2026, 6:30 PM", or "Never expires". */
export const expiresLine = (expiry: number | null, format: Format) => (expiry === null ? "Never expires" : `Expires on ${format(expiry)}`);

/** "Revoke the member link Desdemona made?" (or the invitation sent to an address) and its consequence, for the confirmation. */
export function revokeQuestion(invite: Pick<InviteLink, "invited_by_user_id" | "invited_as" | "email">, users: State["users"], me: number): string {
  const role = inviteRoleName(invite.invited_as).toLowerCase();
  const who = invite.invited_by_user_id === me ? "you" : userName(users, invite.invited_by_user_id);
  if (invite.email !== undefined) return `Revoke the ${role} invitation ${who} sent to ${invite.email}? Its link will stop working.`;
  return `Revoke the ${role} link ${who} made? No one can sign up with it any more.`;
}
