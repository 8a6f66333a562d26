import { nowSecs, realmOf, type App } from "../app";
import { ROLE } from "../domain/roles";
import { generateApiKey } from "../lib/random";
import { insertRecipient } from "../store/realm";
import { botDict, userDict } from "../domain/user-format";
import { splitByEmailAccess } from "./user-access";
import { findUserByEmail, findUserById, insertUser, listActiveUserIds, listActiveUserIdsWithRoles, updateUser, type UserRow } from "../store/users";

const creating = new Map<string, Promise<UserRow>>();

/**
 * One of Zulip's system bots (Notification Bot, Welcome Bot): a bot of the organization with no
 * owner, created on first use. Concurrent first uses share one creation.
 */
export async function systemBot(app: App, email: string, fullName: string): Promise<UserRow> {
  const realm = realmOf(app);
  const found = await findUserByEmail(app.db, realm.id, email);
  if (found) return found;
  let pending = creating.get(email);
  if (!pending) {
    pending = app.db
      .tx(async (sql) => {
        const again = await findUserByEmail(sql, realm.id, email);
        if (again) return { id: again.id, created: false };
        const id = await insertUser(sql, { realmId: realm.id, email, fullName, role: ROLE.member, apiKey: generateApiKey(), passwordHash: null, isBot: true, botType: 1, dateJoined: nowSecs(app) });
        await updateUser(sql, id, { recipient_id: await insertRecipient(sql, 1, id) });
        return { id, created: true };
      })
      .then(async ({ id, created }) => {
        const bot = (await findUserById(app.db, id))!;
        // clients registered before the bot's first use learn of it (everyone may see system bots)
        if (created) {
          const audience = await splitByEmailAccess(app, bot, await listActiveUserIds(app.db, realm.id));
          for (const [ids, deliveryEmail] of [[audience.see, true], [audience.blind, false]] as const) {
            if (ids.length) app.events.publish({ type: "realm_user", op: "add", person: userDict(bot, { clientGravatar: false, deliveryEmail }) }, ids);
          }
          // administrators' realm_bots lists every bot of the organization, this one too (it has no owner
          // and no default channels)
          const admins = await listActiveUserIdsWithRoles(app.db, realm.id, [ROLE.owner, ROLE.administrator]);
          app.events.publish({ type: "realm_bot", op: "add", bot: botDict(bot, () => null) }, admins);
        }
        return bot;
      })
      .finally(() => creating.delete(email));
    creating.set(email, pending);
  }
  return pending;
}
