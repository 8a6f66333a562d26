import { nowSecs, type App } from "../../app";
import type { UserRow } from "../../store/users";
import { realmPresence } from "../presence";
import type { StateOptions } from "./options";

/** `presence` initial state: presences (format per slim_presence), presence_last_update_id, server_timestamp. */
export async function presenceState(app: App, me: UserRow, opts: StateOptions) {
  // spectators see nobody's presence (Zulip)
  if (opts.spectator) return { presences: {}, server_timestamp: nowSecs(app), presence_last_update_id: -1 };
  return realmPresence(app, me, { slim: opts.slimPresence, historyLimitDays: opts.presenceHistoryLimitDays });
}
