import type { App } from "../app";
import { userDict } from "../domain/user-format";
import { maxMessageIdOf, type UserRow } from "../store/users";
import { profileDataOf } from "./profile-data";

/** GET /users/me: the caller's own user object, with their custom profile data and newest message id. */
export async function ownProfile(app: App, me: UserRow) {
  const profile = me.is_bot ? undefined : ((await profileDataOf(app, [me.id])).get(me.id) ?? {});
  const { bot_type: _t, bot_owner_id: _o, is_imported_stub: _s, ...user } = userDict(me, { clientGravatar: false, profileData: profile, deliveryEmail: true });
  return { ...user, max_message_id: await maxMessageIdOf(app.db, me.id) };
}
