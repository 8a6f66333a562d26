import { createHmac, timingSafeEqual } from "node:crypto";
import type { App } from "../app";
import { randomAlnum } from "../lib/random";
import { serverSecret } from "../store/notify";
import { findUserById, type UserRow } from "../store/users";
import { updateSettings } from "../actions/settings";
import { userSettings } from "../domain/user-settings";

/**
 * One-click unsubscribe from missed-message emails (Zulip's one_click_unsubscribe_link, RFC 8058):
 * the link carries the user id and an HMAC of it under a secret this server keeps, so it needs no
 * login and cannot be made for anyone else. GET shows a confirmation page, POST turns the emails off.
 */
const KIND = "missed_messages";

async function mac(app: App, userId: number): Promise<string> {
  const secret = await serverSecret(app.db, "unsubscribe", () => randomAlnum(48));
  return createHmac("sha256", secret).update(`${KIND}:${userId}`).digest("base64url");
}

export async function unsubscribeUrl(app: App, userId: number): Promise<string> {
  return `${app.config.server.external_url}/accounts/unsubscribe/${KIND}/${userId}.${await mac(app, userId)}`;
}

/** The user a token names, or null when it is not one this server made. */
export async function unsubscribeTarget(app: App, token: string): Promise<UserRow | null> {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const expected = Buffer.from(await mac(app, Number(m[1])));
  const given = Buffer.from(m[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const user = await findUserById(app.db, Number(m[1]));
  return user && user.is_active && !user.is_bot ? user : null;
}

/** POST: turns enable_offline_email_notifications off (with its user_settings events), as Zulip's unsubscribe does. */
export async function unsubscribeFromMissedMessages(app: App, token: string): Promise<UserRow | null> {
  const user = await unsubscribeTarget(app, token);
  if (!user) return null;
  if (userSettings(user).enable_offline_email_notifications) await updateSettings(app, user, { settings: { enable_offline_email_notifications: false } });
  return user;
}
