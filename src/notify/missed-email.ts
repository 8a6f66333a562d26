import { nowSecs, realmOf, type App } from "../app";
import { avatarUrl } from "../domain/user-format";
import { dmNarrow, topicNarrow } from "../domain/narrow-url";
import { userSettings } from "../domain/user-settings";
import { loadDirectory, type Directory } from "../actions/messages/directory";
import { emptyTopicName } from "../actions/messages/render";
import { queueEmail, type Email } from "../actions/mail";
import {
  deleteAllMissedRows,
  deleteMissedRows,
  listMissedRows,
  listStillUnread,
  listTopicContext,
  listUsersWithDueMissed,
  type MissedMessage,
  type MissedRow,
} from "../store/notify";
import { composeMissedEmail, type MissedConversation } from "./compose";
import type { Trigger } from "./decide";
import { unsubscribeUrl } from "./unsubscribe";

/**
 * Timer job: for each person whose first waiting notification is due (Zulip's
 * email_notifications_batching_period_seconds), one email per conversation (Zulip's
 * handle_missedmessage_emails) with what is still unread, written to the outbox in the transaction
 * that removes the rows it covers: a crash sends it once or not yet, never twice.
 */
export async function sendMissedMessageEmails(app: App): Promise<number> {
  if (!app.realm) return 0;
  let emails = 0;
  for (const userId of await listUsersWithDueMissed(app.db, nowSecs(app), 50)) emails += await emailOneUser(app, userId);
  return emails;
}

const conversationKey = (m: MissedMessage) => (m.stream_id !== null ? `s:${m.stream_id}:${m.topic.toLowerCase()}` : `d:${m.dm_key}`);

async function emailOneUser(app: App, userId: number): Promise<number> {
  const rows = await listMissedRows(app.db, userId);
  const d = await loadDirectory(app);
  const user = d.users.get(userId);
  // as Zulip, the switch is read again when sending: turned off meanwhile, nothing goes
  if (!user || !user.is_active || !userSettings({ settings: user.settings, timezone: "" }).enable_offline_email_notifications) {
    await app.db.tx((sql) => deleteAllMissedRows(sql, userId));
    return 0;
  }
  const ids = rows.map((r) => r.message_id);
  // read meanwhile, or deleted: nothing to say about it
  const unread = ids.length ? await listStillUnread(app.db, userId, ids) : [];
  const byKey = new Map<string, MissedMessage[]>();
  for (const m of unread) {
    const list = byKey.get(conversationKey(m));
    if (list) list.push(m);
    else byKey.set(conversationKey(m), [m]);
  }
  const rowOf = new Map(rows.map((r) => [r.message_id, r]));
  const emails: Email[] = [];
  for (const missed of byKey.values()) emails.push(await buildEmail(app, d, userId, missed, rowOf));
  await app.db.tx(async (sql) => {
    for (const e of emails) await queueEmail(app, sql, e);
    await deleteMissedRows(sql, userId, ids);
  });
  return emails.length;
}

async function buildEmail(app: App, d: Directory, userId: number, missed: MissedMessage[], rowOf: Map<number, MissedRow>) {
  const realm = realmOf(app);
  const user = d.users.get(userId)!;
  const base = app.config.server.external_url;
  const first = missed[0]!;
  const context = first.stream_id !== null ? (await listTopicContext(app.db, userId, first)).reverse() : [];
  const absolute = (html: string) => html.replace(/(href|src)="\/(?!\/)/g, `$1="${base}/`);
  const nameOf = (id: number) => d.users.get(id)?.full_name ?? "Someone";
  const others = first.dm_key ? first.dm_key.split(",").map(Number).filter((id) => id !== userId) : [];
  const stream = first.stream_id !== null ? d.streams.get(first.stream_id) : undefined;
  const topic = first.topic === "" ? emptyTopicName(app) : first.topic;
  const triggers = missed.map((m) => rowOf.get(m.id)?.trigger as Trigger);
  const groupId = missed.map((m) => rowOf.get(m.id)?.mentioned_group_id).find((g) => g != null) ?? null;
  const groupName = groupId === null ? null : ([...d.groupsByName.values()].find((g) => g.id === groupId)?.name ?? null);
  const settings = userSettings({ settings: user.settings, timezone: "" });
  const conversation: MissedConversation = {
    userName: user.full_name,
    realmName: realm.name,
    kind: first.stream_id !== null ? "channel" : others.length === 1 ? "direct" : "group",
    others: others.map(nameOf),
    channelName: stream?.name,
    topic,
    triggers,
    mentionedGroupName: groupName,
    senders: [...new Set(missed.map((m) => nameOf(m.sender_id)))],
    messages: [...context, ...missed].map((m) => {
      const sender = d.users.get(m.sender_id);
      const avatar = sender ? avatarUrl(sender, false) : null;
      return { senderName: nameOf(m.sender_id), avatarUrl: avatar?.startsWith("/") ? base + avatar : (avatar ?? ""), sent: m.date_sent, text: m.content, html: absolute(m.rendered_content) };
    }),
    count: missed.length,
    showContent: Boolean(realm.settings.message_content_allowed_in_email_notifications) && settings.message_content_in_email_notifications,
    conversationUrl: `${base}/${stream ? topicNarrow(stream.id, stream.name, first.topic) : dmNarrow(others.length ? others : [userId], nameOf(others.length === 1 ? others[0]! : userId))}`,
    settingsUrl: `${base}/#settings/notifications`,
    unsubscribeUrl: await unsubscribeUrl(app, userId),
  };
  const { subject, text, html } = composeMissedEmail(conversation);
  return {
    to: user.delivery_email,
    subject,
    body: text,
    html,
    headers: { "List-Unsubscribe": `<${conversation.unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
