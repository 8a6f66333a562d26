/** How long an invitation link lasts: the choices of Zulip's invite dialog, and the line that says when it ends. */
import { formatFull } from "./time";

/** minutes (null: never), as POST /invites/multiuse takes them */
export const INVITE_EXPIRY = [
  { minutes: 30, label: "30 minutes" },
  { minutes: 24 * 60, label: "1 day" },
  { minutes: 10 * 24 * 60, label: "10 days" },
  { minutes: 30 * 24 * 60, label: "30 days" },
  { minutes: null, label: "Never" },
] as const;

export type ExpiryMinutes = (typeof INVITE_EXPIRY)[number]["minutes"];

/** Zulip's default: ten days. */
export const DEFAULT_INVITE_EXPIRY: ExpiryMinutes = 10 * 24 * 60;

/** When a link made at `madeAt` (seconds) stops working, in seconds; null when it never does. */
export const expiresAt = (madeAt: number, minutes: ExpiryMinutes): number | null => (minutes === null ? null : madeAt + minutes * 60);

/** The line under a new link. */
export const expiryLine = (at: number | null, format: (seconds: number) => string = formatFull) =>
  at === null ? "This link never expires." : `This link expires on ${format(at)}.`;
