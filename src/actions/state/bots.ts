import { realmOf, type App } from "../../app";
import { isAdmin } from "../../domain/roles";
import { botDict } from "../../domain/user-format";
import { listBots, listBotsOwnedBy, type UserRow } from "../../store/users";
import { streamNames } from "../users";

/** `realm_bot` initial state: every bot for administrators, the caller's own bots otherwise. */
export async function realmBotState(app: App, me: UserRow) {
  const bots = isAdmin(me.role) ? await listBots(app.db, realmOf(app).id) : await listBotsOwnedBy(app.db, me.id, false);
  const names = await streamNames(app, bots);
  return { realm_bots: bots.map((b) => botDict(b, names)) };
}
