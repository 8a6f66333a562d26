// One-time login links for people who have no password yet (an import's people): the link signs its
// person in once, within a week, into a browser session; only the token's hash is stored.
import { createHash } from "node:crypto";
import { nowSecs, type App } from "../app";
import { csrfToken } from "../domain/csrf";
import { randomAlnum } from "../lib/random";
import { findLoginLink, insertLoginLink, markLoginLinkUsed } from "../store/login-links";
import { insertSession } from "../store/sessions";
import { findUserById, listUsers } from "../store/users";
import { SESSION_SECONDS } from "./sessions";

export const LOGIN_LINK_SECONDS = 7 * 24 * 3600;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

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
      await insertLoginLink(sql, hashOf(token), id, now, now + LOGIN_LINK_SECONDS);
      out.push({ userId: id, email: u.delivery_email, url: `${site}/accounts/login/link/${token}` });
    }
  });
  return out;
}

/** Uses a link: a new session for its person, or null when the link is unknown, used, expired or its person deactivated. */
export async function useLoginLink(app: App, token: string): Promise<{ token: string; csrf: string } | null> {
  if (!/^[A-Za-z0-9]{40}$/.test(token)) return null;
  const now = nowSecs(app);
  const hash = hashOf(token);
  return app.db.tx(async (sql) => {
    const link = await findLoginLink(sql, hash);
    if (!link || link.used_at !== null || link.expires_at < now) return null;
    const user = await findUserById(sql, link.user_id);
    if (!user || !user.is_active) return null;
    if ((await markLoginLinkUsed(sql, hash, now)).changes !== 1) return null;
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
