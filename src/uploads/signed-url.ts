/**
 * Temporary, credential-free URLs for one uploaded file (GET /user_uploads/{realm}/{path} under
 * /api/v1): `/user_uploads/temporary/{token}/{filename}` where the token is the path id, the user
 * it was made for and an expiry, HMAC-SHA256-signed with a per-process secret. They stop working
 * after `ttlSecs` (and at a restart); the user is named so each use can re-check their access.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const TEMPORARY_URL_TTL_SECS = 60;

export class UrlSigner {
  constructor(private readonly secret: Buffer = randomBytes(32)) {}

  private mac(payload: string): Buffer {
    return createHmac("sha256", this.secret).update(payload).digest();
  }

  /** A token for pathId, made for userId, valid until `expiresSecs`. */
  sign(pathId: string, userId: number, expiresSecs: number): string {
    const payload = `${pathId}\n${userId}\n${Math.floor(expiresSecs)}`;
    return `${Buffer.from(payload).toString("base64url")}.${this.mac(payload).toString("base64url")}`;
  }

  /** The path id and user of a valid, unexpired token; null otherwise. */
  verify(token: string, nowSecs: number): { pathId: string; userId: number } | null {
    const [data, sig, extra] = token.split(".");
    if (!data || !sig || extra !== undefined) return null;
    const payload = Buffer.from(data, "base64url").toString("utf8");
    const expected = this.mac(payload);
    const given = Buffer.from(sig, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const [pathId, user, expiry, rest] = payload.split("\n");
    const userId = Number(user);
    const expires = Number(expiry);
    if (!pathId || rest !== undefined || !Number.isSafeInteger(userId) || !Number.isFinite(expires) || nowSecs > expires) return null;
    return { pathId, userId };
  }
}
