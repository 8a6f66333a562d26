/**
 * Temporary, credential-free URLs for one uploaded file (GET /user_uploads/{realm}/{path} under
 * /api/v1): `/user_uploads/temporary/{token}/{filename}` where the token is the path id and an
 * expiry, HMAC-SHA256-signed with a per-process secret. They stop working after `ttlSecs` (and at
 * a restart).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const TEMPORARY_URL_TTL_SECS = 60;

export class UrlSigner {
  constructor(private readonly secret: Buffer = randomBytes(32)) {}

  private mac(payload: string): Buffer {
    return createHmac("sha256", this.secret).update(payload).digest();
  }

  /** A token for pathId valid until `expiresSecs`. */
  sign(pathId: string, expiresSecs: number): string {
    const payload = `${pathId}\n${Math.floor(expiresSecs)}`;
    return `${Buffer.from(payload).toString("base64url")}.${this.mac(payload).toString("base64url")}`;
  }

  /** The path id of a valid, unexpired token; null otherwise. */
  verify(token: string, nowSecs: number): string | null {
    const [data, sig, extra] = token.split(".");
    if (!data || !sig || extra !== undefined) return null;
    const payload = Buffer.from(data, "base64url").toString("utf8");
    const expected = this.mac(payload);
    const given = Buffer.from(sig, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const nl = payload.lastIndexOf("\n");
    const expires = Number(payload.slice(nl + 1));
    if (nl < 0 || !Number.isFinite(expires) || nowSecs > expires) return null;
    return payload.slice(0, nl);
  }
}
