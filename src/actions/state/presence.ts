import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { realmPresence } from "../presence";
import type { StateOptions } from ".";

/** `presence` initial state: presences (format per slim_presence), presence_last_update_id, server_timestamp. */
export async function presenceState(app: App, me: UserRow, opts: StateOptions) {
  return realmPresence(app, me, { slim: opts.slimPresence, historyLimitDays: opts.presenceHistoryLimitDays });
}
