import type { App } from "../../app";
import { systemBot } from "../system-bots";
import type { UserRow } from "../../store/users";
import type { StreamRow } from "../../store/streams";
import { loadDirectory } from "./directory";
import { deliverMessage, type SendResult } from "./send";

/**
 * Zulip's Notification Bot, the sender of automatic messages (topic resolved, messages moved).
 * Created on first use as a bot of the organization.
 */
export const NOTIFICATION_BOT_EMAIL = "notification-bot@zulip.com";

export const notificationBot = (app: App): Promise<UserRow> => systemBot(app, NOTIFICATION_BOT_EMAIL, "Notification Bot");

/**
 * Posts a Notification Bot message to a channel topic (no permission checks: the server speaks).
 * `readBy`: users for whom it is born read (the user whose own action it reports).
 */
export async function sendNotification(app: App, stream: StreamRow, topic: string, content: string, opts: { readBy?: number[] } = {}): Promise<SendResult> {
  const bot = await notificationBot(app);
  const d = await loadDirectory(app);
  const access = { user: bot, channel: stream, subscribed: false, inGroup: () => true };
  return deliverMessage(app, d, bot, { kind: "stream", stream, topic, access }, content, { clientName: "Internal", readBySender: false, internal: true, readBy: opts.readBy });
}

/** Posts a Notification Bot direct message to users. */
export async function sendNotificationDm(app: App, userIds: number[], content: string): Promise<SendResult> {
  const bot = await notificationBot(app);
  const d = await loadDirectory(app);
  const ids = [...new Set([bot.id, ...userIds])].sort((a, b) => a - b);
  return deliverMessage(app, d, bot, { kind: "direct", users: ids.map((id) => d.users.get(id)!).filter(Boolean), dmKey: ids.join(",") }, content, {
    clientName: "Internal",
    readBySender: false,
    internal: true,
  });
}

/** Zulip's silent mention of a user: @_**Name|id**. */
export const silentMention = (u: { id: number; full_name: string }) => `@_**${u.full_name}|${u.id}**`;
