import { realmOf, type App } from "../../app";
import { isAdmin } from "../../domain/roles";
import { botDict } from "../../domain/user-format";
import { listBots, listBotsOwnedBy, type UserRow } from "../../store/users";
import { streamNames } from "../users";
import { listBotServices } from "../../store/webhooks";

/** `realm_bot` initial state: every bot for administrators, the caller's own bots otherwise. */
export async function realmBotState(app: App, me: UserRow) {
  const bots = isAdmin(me.role) ? await listBots(app.db, realmOf(app).id) : await listBotsOwnedBy(app.db, me.id, false);
  const names = await streamNames(app, bots);
  // outgoing-webhook bots carry their service (Zulip's services: base_url, interface, token)
  const services = new Map((await listBotServices(app.db, bots.filter((b) => b.bot_type === 3).map((b) => b.id))).map((s) => [s.bot_id, s]));
  return {
    realm_bots: bots.map((b) => {
      const dict = botDict(b, names);
      const s = services.get(b.id);
      if (s) dict.services = [{ base_url: s.base_url, interface: s.interface, token: s.token }];
      return dict;
    }),
  };
}
