import { nowSecs, type App } from "../app";
import { randomAlnum } from "../lib/random";
import { deleteExpiredSessions, deleteSession, insertSession } from "../store/sessions";
import { fetchApiKey } from "./auth";
import { csrfToken } from "../domain/csrf";

/** Browser sessions last two weeks. */
export const SESSION_SECONDS = 14 * 24 * 3600;

/** Web login: the same password check (and throttle) as /fetch_api_key, then a session token for the cookie. */
export async function logIn(app: App, email: string, password: string, address: string): Promise<{ token: string; csrf: string; expires: number }> {
  const { user_id } = await fetchApiKey(app, email, password, address);
  const token = randomAlnum(40);
  const now = nowSecs(app);
  await app.db.tx((sql) => insertSession(sql, token, user_id, now, now + SESSION_SECONDS));
  return { token, csrf: csrfToken(token), expires: now + SESSION_SECONDS };
}

export async function logOut(app: App, token: string): Promise<void> {
  await app.db.tx((sql) => deleteSession(sql, token));
}

/** Scheduler job: forget expired sessions. */
export async function deleteExpiredSessionsNow(app: App): Promise<number> {
  return (await app.db.tx((sql) => deleteExpiredSessions(sql, nowSecs(app)))).changes;
}
