/**
 * The lines of the "Links made" list (Zulip's organization settings → Invitations): who made a link and
 * when, the role it gives, when it stops working; newest first. Pure: dates come through `format`.
 */
import type { InviteLink } from "../api/calls";
import { userName } from "../state/people";
import { inviteRoleName } from "../state/permissions";
import type { State } from "../state/types";

type Format = (seconds: number) => string;

/** Newest first (a link just made is at the top), the server's order (by id) breaking ties. */
export const newestFirst = <T extends Pick<InviteLink, "id" | "invited">>(links: readonly T[]): T[] =>
  [...links].sort((a, b) => b.invited - a.invited || b.id - a.id);

/** "Member link", the heading of an entry. */
export const linkTitle = (invite: Pick<InviteLink, "invited_as">) => `${inviteRoleName(invite.invited_as)} link`;

/** "Made by you on Nov 26, 2026, 6:30 PM", or by whom else. */
export function madeLine(invite: Pick<InviteLink, "invited_by_user_id" | "invited">, users: State["users"], me: number, format: Format): string {
  const who = invite.invited_by_user_id === me ? "you" : userName(users, invite.invited_by_user_id);
  return `Made by ${who} on ${format(invite.invited)}`;
}

/** "Expires on Dec 6, 2026, 6:30 PM", or "Never expires". */
export const expiresLine = (expiry: number | null, format: Format) => (expiry === null ? "Never expires" : `Expires on ${format(expiry)}`);

/** "Revoke the member link Desdemona made?" and its consequence, for the confirmation. */
export function revokeQuestion(invite: Pick<InviteLink, "invited_by_user_id" | "invited_as">, users: State["users"], me: number): string {
  const role = inviteRoleName(invite.invited_as).toLowerCase();
  const who = invite.invited_by_user_id === me ? "you" : userName(users, invite.invited_by_user_id);
  return `Revoke the ${role} link ${who} made? No one can sign up with it any more.`;
}
