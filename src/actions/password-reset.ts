import { nowSecs, realmOf, type App } from "../app";
import { isAdmin, isOwner } from "../domain/roles";
import { passwordProblem } from "../domain/validate";
import { adminRequired, badRequest, ownerRequired, rateLimitHit } from "../errors";
import { FailureLimiter } from "../lib/rate-limiter";
import { randomAlnum } from "../lib/random";
import { expireUserEmailTokens, findUsableEmailToken, insertEmailToken, useEmailToken } from "../store/email-tokens";
import { deleteUserSessions, insertSession } from "../store/sessions";
import { updatePasswordHash } from "../store/settings";
import { findUserByEmail, findUserById, type UserRow } from "../store/users";
import { csrfToken } from "../domain/csrf";
import { queueEmail } from "./mail";
import { SESSION_SECONDS } from "./sessions";

/** A reset link works for an hour, once. */
export const RESET_LINK_SECONDS = 3600;
/** Reset requests per hour: per address asked for, and per client address. */
export const RESETS_PER_EMAIL = 3;
export const RESETS_PER_CLIENT = 10;

export const hashToken = (token: string) => new Bun.CryptoHasher("sha256").update(token).digest("hex");

const limiters = new WeakMap<App, { email: FailureLimiter; client: FailureLimiter }>();

/** Counts a request against its hourly limits (FailureLimiter: each request is one "attempt"); throws RATE_LIMIT_HIT past one. */
function throttle(app: App, email: string, client: string) {
  let l = limiters.get(app);
  if (!l) {
    const now = () => app.clock.now();
    limiters.set(app, (l = { email: new FailureLimiter(RESETS_PER_EMAIL, 3600_000, now), client: new FailureLimiter(RESETS_PER_CLIENT, 3600_000, now) }));
  }
  const wait = Math.max(l.email.waitSecs(email), l.client.waitSecs(client));
  if (wait > 0) throw rateLimitHit(Math.ceil(wait));
  l.email.fail(email);
  l.client.fail(client);
}

/** The reset link's email, queued in the caller's transaction. */
async function queueResetEmail(app: App, sql: Parameters<typeof queueEmail>[1], user: UserRow, byAdmin: UserRow | null): Promise<void> {
  const token = randomAlnum(40);
  const now = nowSecs(app);
  await expireUserEmailTokens(sql, user.id, "password_reset", now);
  await insertEmailToken(sql, { token_hash: hashToken(token), kind: "password_reset", user_id: user.id, new_email: null, created: now, expires: now + RESET_LINK_SECONDS });
  const realm = realmOf(app);
  const url = `${app.config.server.external_url}/accounts/password/reset/${token}/`;
  const why = byAdmin ? `${byAdmin.full_name}, an administrator of ${realm.name}, sent you a link to choose a new password.` : `Someone (hopefully you) asked to reset the password of your account in ${realm.name}.`;
  const body = [
    `Hello ${user.full_name},`,
    "",
    why,
    "",
    `Choose a new password here (the link works once, for ${RESET_LINK_SECONDS / 60} minutes):`,
    url,
    "",
    "If you did not ask for this, ignore this email: your password stays as it is.",
  ].join("\n");
  await queueEmail(app, sql, { to: user.delivery_email, subject: `Reset your password for ${realm.name}`, body });
}

/**
 * "Forgot password?": queues a one-time link to the address when it belongs to an active person of
 * the organization. An unknown address gets the same answer and no email (nobody learns who has an
 * account). Limited per address asked for and per client.
 */
export async function requestPasswordReset(app: App, email: string, clientAddress: string): Promise<void> {
  const address = email.trim().toLowerCase();
  throttle(app, address, clientAddress);
  const user = address ? await findUserByEmail(app.db, realmOf(app).id, address) : undefined;
  if (!user || !user.is_active || user.is_bot || user.delivery_email.toLowerCase() !== address) return;
  await app.db.tx((sql) => queueResetEmail(app, sql, user, null));
}

/**
 * POST /users/{user_id}/password_reset (Parley's): an administrator sends a member a reset link.
 * Owners only by owners; never to bots or deactivated users.
 */
export async function sendPasswordResetFor(app: App, actor: UserRow, userId: number): Promise<void> {
  if (!isAdmin(actor.role)) throw adminRequired();
  const target = await findUserById(app.db, userId);
  if (!target || target.realm_id !== actor.realm_id || target.is_bot) throw badRequest("No such user");
  if (!target.is_active) throw badRequest("User is deactivated");
  if (isOwner(target.role) && !isOwner(actor.role)) throw ownerRequired();
  await app.db.tx((sql) => queueResetEmail(app, sql, target, actor));
}

/** The person a reset link is for while it can still be used, else null. */
export async function passwordResetTarget(app: App, token: string): Promise<UserRow | null> {
  const row = await findUsableEmailToken(app.db, hashToken(token), "password_reset", nowSecs(app));
  if (!row) return null;
  const user = await findUserById(app.db, row.user_id);
  return user?.is_active ? user : null;
}

export class DeadLinkError extends Error {}

/**
 * Sets the new password through a reset link: spends the link, stores the password, ends the
 * person's other sessions (someone who had the old password is out), and opens a session for this
 * browser. A used or expired link throws DeadLinkError; a weak password a badRequest (the link stays).
 */
export async function resetPassword(app: App, token: string, password: string): Promise<{ user: UserRow; token: string; csrf: string; expires: number }> {
  const problem = passwordProblem(password);
  if (problem) {
    if (!(await passwordResetTarget(app, token))) throw new DeadLinkError();
    throw badRequest(problem);
  }
  const hash = await Bun.password.hash(password, { algorithm: "argon2id" });
  const session = randomAlnum(40);
  const now = nowSecs(app);
  const user = await app.db.tx(async (sql) => {
    const row = await useEmailToken(sql, hashToken(token), "password_reset", now);
    const user = row && (await findUserById(sql, row.user_id));
    if (!user || !user.is_active) throw new DeadLinkError();
    await updatePasswordHash(sql, user.id, hash);
    await deleteUserSessions(sql, user.id);
    await insertSession(sql, session, user.id, now, now + SESSION_SECONDS);
    return user;
  });
  return { user, token: session, csrf: csrfToken(session), expires: now + SESSION_SECONDS };
}
