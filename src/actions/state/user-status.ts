import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { userStatusMap } from "../user-status";

/** `user_status` initial state. */
export async function userStatusState(app: App, me: UserRow) {
  return { user_status: await userStatusMap(app, me) };
}
