/** The CSRF token of a browser session: derived from the session token, sent back in X-CSRFToken. */
export function csrfToken(sessionToken: string): string {
  return new Bun.CryptoHasher("sha256").update(`csrf:${sessionToken}`).digest("hex").slice(0, 32);
}
