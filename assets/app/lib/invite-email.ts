/**
 * Inviting by email, the pure parts: the addresses typed (read as the server reads them), the line
 * that says what was sent, and the server's per-address reasons (Zulip's INVITATION_FAILED) as lines
 * shown next to the field.
 */

/** [address, reason, deactivated], as the server lists them. */
export type AddressError = [string, string, boolean];

/** The addresses of the text: separated by commas or newlines, "Name <address>" read as the address, each once. */
export function parseAddresses(text: string): string[] {
  const seen = new Map<string, string>();
  for (const part of text.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    const email = (named ? named[1]! : part).trim();
    if (email && !seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), email);
  }
  return [...seen.values()];
}

/** What the server said when it refused some or all addresses. */
export interface InviteOutcome {
  /** the server's sentence */
  message: string;
  /** one line per refused address */
  lines: string[];
  /** whether the other addresses were invited */
  sent: boolean;
}

/** The body of an INVITATION_FAILED error as an outcome; null for any other error. */
export function inviteFailure(code: string, body: Record<string, unknown>): InviteOutcome | null {
  if (code !== "INVITATION_FAILED") return null;
  const errors = Array.isArray(body.errors) ? (body.errors as AddressError[]) : [];
  return {
    message: typeof body.msg === "string" ? body.msg : "No invitations were sent.",
    lines: errors.map(([email, reason, deactivated]) => `${email}: ${reason}${deactivated ? " An administrator can reactivate the account instead." : ""}`),
    sent: body.sent_invitations === true,
  };
}

/** The success line: to whom the invitations went (all of `addresses`, but those refused). */
export function sentLine(addresses: readonly string[], refused: readonly AddressError[] = []): string {
  const skipped = new Set(refused.map(([email]) => email.toLowerCase()));
  const sent = addresses.filter((a) => !skipped.has(a.toLowerCase()));
  if (sent.length === 0) return "No invitations were sent.";
  if (sent.length === 1) return `An invitation was sent to ${sent[0]}.`;
  return `Invitations were sent to ${sent.length} addresses.`;
}
