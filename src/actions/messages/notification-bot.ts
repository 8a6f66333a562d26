import { nowSecs, realmOf, type App } from "../../app";
import { ROLE } from "../../domain/roles";
import { generateApiKey } from "../../lib/random";
import { insertRecipient } from "../../store/realm";
import { findUserByEmail, findUserById, insertUser, updateUser, type UserRow } from "../../store/users";
import type { StreamRow } from "../../store/streams";
import { loadDirectory } from "./directory";
import { deliverMessage, type SendResult } from "./send";

/**
 * Zulip's Notification Bot, the sender of automatic messages (topic resolved, messages moved).
 * Created on first use as a bot of the organization.
 */
export const NOTIFICATION_BOT_EMAIL = "notification-bot@zulip.com";

let creating: Promise<UserRow> | null = null;

export async function notificationBot(app: App): Promise<UserRow> {
  const realm = realmOf(app);
  const found = await findUserByEmail(app.db, realm.id, NOTIFICATION_BOT_EMAIL);
  if (found) return found;
  creating ??= app.db
    .tx(async (sql) => {
      const again = await findUserByEmail(sql, realm.id, NOTIFICATION_BOT_EMAIL);
      if (again) return again.id;
      const id = await insertUser(sql, {
        realmId: realm.id,
        email: NOTIFICATION_BOT_EMAIL,
        fullName: "Notification Bot",
        role: ROLE.member,
        apiKey: generateApiKey(),
        passwordHash: null,
        isBot: true,
        botType: 1,
        dateJoined: nowSecs(app),
      });
      await updateUser(sql, id, { recipient_id: await insertRecipient(sql, 1, id) });
      return id;
    })
    .then(async (id) => (await findUserById(app.db, id))!)
    .finally(() => (creating = null));
  return creating;
}

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
