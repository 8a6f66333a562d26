import type { App } from "../app";
import { userDict } from "../domain/user-format";
import type { UserRow } from "../store/users";

/** GET /users/me: the caller's own user object (with avatar URL resolved). */
export async function ownProfile(_app: App, me: UserRow) {
  return userDict(me, { clientGravatar: false });
}
