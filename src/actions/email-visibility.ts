import type { App } from "../app";
import { canSeeDeliveryEmail, dummyEmail, EMAIL_VISIBILITY, emailVisibilityOf } from "../domain/user-format";
import { findUserById, listUsersByIds, updateUser, type UserRow } from "../store/users";
import { usersWhoCanAccess } from "./user-access";

/**
 * The personal setting email_address_visibility, as Zulip applies it: a user who shows their email
 * to everyone has it as their API `email`; anyone else is known by the dummy `user{id}@{host}`
 * (users still log in and authenticate with their real address), and user objects carry
 * `delivery_email` only for the viewers the setting admits.
 */

/** The host of dummy addresses: the server's external host name. */
export function emailHost(app: App): string {
  try {
    return new URL(app.config.server.external_url).hostname || "parley.localhost";
  } catch {
    return "parley.localhost";
  }
}

/** The API email a user with this visibility has. */
export const apiEmailFor = (app: App, user: Pick<UserRow, "id" | "delivery_email">, visibility: number) =>
  visibility === EMAIL_VISIBILITY.everyone ? user.delivery_email : dummyEmail(user.id, emailHost(app));

/**
 * After PATCH /settings changed `before`'s email_address_visibility (already stored): the API email
 * follows when it crosses "everyone", then realm_user update events to those who may see the user:
 * `delivery_email` (the address or null) to each viewer whose access to it changed, and `new_email`
 * to everyone when the API email changed.
 */
export async function emailVisibilityChanged(app: App, before: UserRow): Promise<void> {
  const stored = (await findUserById(app.db, before.id))!;
  const email = apiEmailFor(app, stored, emailVisibilityOf(stored));
  if (email !== stored.email) await app.db.tx((sql) => updateUser(sql, stored.id, { email }));
  const after = { ...stored, email };
  const audience = await usersWhoCanAccess(app, after.id);
  for (const viewer of await listUsersByIds(app.db, audience)) {
    const sees = canSeeDeliveryEmail(viewer, after);
    if (sees === canSeeDeliveryEmail(viewer, before)) continue;
    app.events.publish({ type: "realm_user", op: "update", person: { user_id: after.id, delivery_email: sees ? after.delivery_email : null } }, [viewer.id]);
  }
  if (email !== before.email) app.events.publish({ type: "realm_user", op: "update", person: { user_id: after.id, new_email: email } }, audience);
}
