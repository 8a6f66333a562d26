import { nowSecs, type App } from "../app";
import type { UserRow } from "../store/users";
import { insertOutgoingJobs, listActiveServiceBotIds } from "../store/webhooks";

/**
 * After a message is stored: a row for each outgoing-webhook bot it triggers, mentioned in a channel
 * or sent a direct message (Zulip's get_service_bot_events). Messages from bots trigger nothing, so
 * two bots cannot answer each other forever. Costs one cached lookup when the realm has no such bot.
 */
export async function enqueueOutgoingWebhooks(app: App, sender: UserRow, addressee: { kind: "stream" } | { kind: "direct"; users: readonly { id: number }[] }, mentionedUserIds: Iterable<number>, messageId: number): Promise<void> {
  if (sender.is_bot) return;
  const bots = await listActiveServiceBotIds(app.db);
  if (bots.size === 0) return;
  const jobs: { botId: number; messageId: number; trigger: string; due: number }[] = [];
  const due = nowSecs(app);
  if (addressee.kind === "stream") {
    for (const id of new Set(mentionedUserIds)) if (bots.has(id)) jobs.push({ botId: id, messageId, trigger: "mention", due });
  } else {
    for (const u of addressee.users) if (u.id !== sender.id && bots.has(u.id)) jobs.push({ botId: u.id, messageId, trigger: "direct_message", due });
  }
  if (jobs.length) await app.db.tx((sql) => insertOutgoingJobs(sql, jobs));
}
