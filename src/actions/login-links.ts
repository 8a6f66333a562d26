// One-time login links for people who have no password yet (an import's people): the link signs its
// person in once, within a week, into a browser session. They are email tokens of kind 'login_link',
// kept like password-reset links (only the token's hash, spent once, removed when expired).
import { nowSecs, type App } from "../app";
import { csrfToken } from "../domain/csrf";
import { randomAlnum } from "../lib/random";
import { findUsableEmailToken, insertEmailToken, useEmailToken } from "../store/email-tokens";
import { insertSession } from "../store/sessions";
import { findUserById, listUsers } from "../store/users";
import { hashToken } from "./password-reset";
import { SESSION_SECONDS } from "./sessions";

export const LOGIN_LINK_SECONDS = 7 * 24 * 3600;

/** A link for each active, human person given: `/accounts/login/link/TOKEN` under the server's URL. */
export async function createLoginLinks(app: App, userIds: number[]): Promise<{ userId: number; email: string; url: string }[]> {
  const now = nowSecs(app);
  const site = app.config.server.external_url.replace(/\/+$/, "");
  const out: { userId: number; email: string; url: string }[] = [];
  await app.db.tx(async (sql) => {
    for (const id of userIds) {
      const u = await findUserById(sql, id);
      if (!u || !u.is_active || u.is_bot) continue;
      const token = randomAlnum(40);
      await insertEmailToken(sql, { token_hash: hashToken(token), kind: "login_link", user_id: id, new_email: null, created: now, expires: now + LOGIN_LINK_SECONDS });
      out.push({ userId: id, email: u.delivery_email, url: `${site}/accounts/login/link/${token}` });
    }
  });
  return out;
}

/** Uses a link: a new session for its person, or null when the link is unknown, used, expired or its person deactivated. */
export async function useLoginLink(app: App, token: string): Promise<{ token: string; csrf: string } | null> {
  if (!/^[A-Za-z0-9]{40}$/.test(token)) return null;
  const now = nowSecs(app);
  const hash = hashToken(token);
  return app.db.tx(async (sql) => {
    const link = await findUsableEmailToken(sql, hash, "login_link", now);
    const user = link && (await findUserById(sql, link.user_id));
    if (!user || !user.is_active) return null;
    // spent in one statement: of two clicks racing, only one signs in
    if (!(await useEmailToken(sql, hash, "login_link", now))) return null;
    const session = randomAlnum(40);
    await insertSession(sql, session, user.id, now, now + SESSION_SECONDS);
    return { token: session, csrf: csrfToken(session) };
  });
}

/** Links for every active person of the organization (after an import). */
export async function createLoginLinksForEveryone(app: App) {
  if (!app.realm) return [];
  return createLoginLinks(app, (await listUsers(app.db, app.realm.id)).map((u) => u.id));
}
