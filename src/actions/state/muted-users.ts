import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { mutedUserList } from "../muted-users";

/** `muted_users` initial state. */
export async function mutedUsersState(app: App, me: UserRow) {
  return { muted_users: await mutedUserList(app, me.id) };
}
