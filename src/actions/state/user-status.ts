import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { userStatusMap } from "../user-status";
import type { StateOptions } from "./options";

/** `user_status` initial state (none for spectators, as Zulip). */
export async function userStatusState(app: App, me: UserRow, opts: StateOptions) {
  return { user_status: opts.spectator ? {} : await userStatusMap(app, me) };
}
