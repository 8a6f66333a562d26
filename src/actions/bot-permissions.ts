import { realmOf, type App } from "../app";
import { isAdmin, isGuest } from "../domain/roles";
import { badRequest } from "../errors";
import type { UserRow } from "../store/users";

export const BOT_TYPE = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3, embedded: 4 } as const;

/** Zulip's check_bot_creation_policy: administrators, can_create_bots_group, or write-only bots for can_create_write_only_bots_group. */
export function checkBotCreationPolicy(app: App, actor: UserRow, botType: number) {
  if (isAdmin(actor.role)) return;
  const s = realmOf(app).settings;
  if (!isGuest(actor.role) && !actor.is_bot) {
    if (app.groups.settingIncludes(s.can_create_bots_group, actor.id)) return;
    if (botType === BOT_TYPE.incomingWebhook && app.groups.settingIncludes(s.can_create_write_only_bots_group, actor.id)) return;
  }
  throw badRequest("Insufficient permission");
}
