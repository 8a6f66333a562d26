import { timingSafeEqual } from "node:crypto";
import type { App } from "../app";
import { unauthorized, ZulipError } from "../errors";
import { findUserByApiKey, type UserRow } from "../store/users";
import { changedRows } from "../store/db";
import { csrfToken } from "../domain/csrf";
import { noteUser } from "./request-log";
import { apiKeyFailed } from "../actions/login-throttle";
import { clientOf } from "./client-address";

export const SESSION_COOKIE = "parley_session";
export const CSRF_COOKIE = "parley_csrf";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Who is calling: HTTP Basic `email:api_key` (what every Zulip API client sends), or the web
 * client's session cookie. Every failure is 401 UNAUTHORIZED, as Zulip's /api/v1 answers.
 */
export async function authenticate(app: App, request: Request): Promise<UserRow> {
  const user = await identify(app, request);
  noteUser(request, user.id);
  return user;
}

async function identify(app: App, request: Request): Promise<UserRow> {
  const header = request.headers.get("authorization");
  if (!header) {
    const session = sessionToken(request);
    if (session) {
      // A cookie rides along on cross-site requests: unsafe methods must prove they come from our page.
      if (!SAFE_METHODS.has(request.method) && request.headers.get("x-csrftoken") !== csrfToken(session)) {
        throw new ZulipError("CSRF_FAILED", "CSRF error: CSRF token missing or incorrect", 403);
      }
      return authenticateSession(app, session);
    }
    throw unauthorized();
  }
  // A header that authenticated before names the same user while no user row has changed or gone since
  // (a new key, a deactivation, a changed email make it stale): no decoding, no lookup. Only successes
  // are remembered; every failure goes through the checks and the throttle again.
  const user = await app.db.memo([changedRows("users")], `auth:${header}`, () => basicUser(app, request, header));
  return checkActive(app, user);
}

async function basicUser(app: App, request: Request, header: string): Promise<UserRow> {
  const [scheme, encoded] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== "basic" || !encoded) throw new ZulipError("BAD_REQUEST", "This endpoint requires HTTP basic authentication.", 400);
  let decoded: string;
  try {
    decoded = Buffer.from(encoded, "base64").toString("utf8");
  } catch {
    throw unauthorized("Invalid authorization header for basic auth");
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) throw unauthorized("Invalid authorization header for basic auth");
  const email = decoded.slice(0, colon).trim();
  const key = decoded.slice(colon + 1).trim();
  // a wrong key is counted against the client's address (login-throttle.ts; server.ts worked it out
  // with the socket's peer when the request came in)
  if (!/^[A-Za-z0-9]{32}$/.test(key)) throw apiKeyFailed(app, clientOf(app, request, null).address, unauthorized("Malformed API key"));
  const user = await findUserByApiKey(app.db, key);
  if (!user || (user.delivery_email.toLowerCase() !== email.toLowerCase() && user.email.toLowerCase() !== email.toLowerCase())) {
    throw apiKeyFailed(app, clientOf(app, request, null).address, unauthorized("Invalid API key"));
  }
  return user;
}

function checkActive(app: App, user: UserRow): UserRow {
  if (app.realm?.deactivated) throw unauthorized("This organization has been deactivated");
  if (!user.is_active) throw unauthorized("Account is deactivated");
  return user;
}

export function sessionToken(request: Request): string | null {
  const cookie = request.headers.get("cookie");
  if (!cookie) return null;
  for (const part of cookie.split(";")) {
    const [k, v] = part.trim().split("=", 2);
    if (k === SESSION_COOKIE && v) return decodeURIComponent(v);
  }
  return null;
}

/** The person signed in by the request's session cookie, or null (no cookie, an ended session, a deactivated user). */
export async function sessionUser(app: App, request: Request): Promise<UserRow | null> {
  const token = sessionToken(request);
  if (!token) return null;
  return authenticateSession(app, token).catch(() => null);
}

async function authenticateSession(app: App, token: string): Promise<UserRow> {
  // remembered until a session or a user row changes or goes (the expiry is checked on every request)
  const row = await app.db.memo(
    [changedRows("sessions"), changedRows("users")],
    `session:${token}`,
    () => app.db.get<UserRow & { expires: number }>("SELECT u.*, s.expires AS expires FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token = ?", [token]),
    (found) => found !== undefined,
  );
  // (under /json the error handler answers with Zulip's Session challenge, not Basic)
  if (!row || row.expires * 1000 < app.clock.now()) throw unauthorized();
  const { expires: _expires, ...user } = row;
  return checkActive(app, user as UserRow);
}

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function bearerMatches(request: Request, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}
