import { nowSecs, realmOf, type App } from "../../app";
import { canDeleteAnyMessage, canDeleteOwnMessage } from "../../domain/channel-permissions";
import { badRequest } from "../../errors";
import { deleteMessage as deleteMessageRow, oldestStreamMessageId, type MessageRow } from "../../store/messages";
import { updateStream } from "../../store/streams";
import { listHolders } from "../../store/user-messages";
import type { UserRow } from "../../store/users";
import { isGuest } from "../../domain/roles";
import { applyAttachmentEffects, deleteAttachmentsOfDeletedMessages } from "../attachments";
import { hasRealmPermission } from "../channel-access";
import { accessMessage } from "./access";
import { loadDirectory, type Directory } from "./directory";

const noPermission = () => badRequest("You don't have permission to delete this message");

/**
 * Zulip's validate_can_delete_message with the per-channel groups: anyone's message through the
 * organization's or the channel's can_delete_any_message_group; one's own (or one's bot's) through
 * can_delete_own_message_group, within message_content_delete_limit_seconds.
 */
export function checkCanDelete(app: App, d: Directory, me: UserRow, row: MessageRow, subscribed: boolean): void {
  const realmAny = hasRealmPermission(app, me, "can_delete_any_message_group");
  const realmOwn = hasRealmPermission(app, me, "can_delete_own_message_group");
  const stream = row.stream_id !== null ? d.streams.get(row.stream_id) : undefined;
  const access = stream ? { user: me, channel: stream, subscribed, inGroup: (g: number) => app.groups.isMember(g, me.id) } : null;
  if (access ? canDeleteAnyMessage(access, realmAny) : realmAny) return;
  const sender = d.users.get(row.sender_id);
  const own = row.sender_id === me.id || (sender?.is_bot && sender.bot_owner_id === me.id);
  if (!own) throw noPermission();
  if (!(access ? canDeleteOwnMessage(access, realmOwn) : realmOwn)) throw noPermission();
  const limit = realmOf(app).settings.message_content_delete_limit_seconds;
  if (limit !== null && limit !== undefined && nowSecs(app) - row.date_sent > limit) throw badRequest("The time limit for deleting this message has passed");
}

/** Who hears about an edit of a message (Zulip's update_message recipients): everyone who has it, plus a public-history channel's subscribers. */
export async function messageAudience(app: App, d: Directory, row: MessageRow, holders: number[]): Promise<number[]> {
  const out = new Set(holders);
  const stream = row.stream_id !== null ? d.streams.get(row.stream_id) : undefined;
  if (stream && stream.history_public_to_subscribers) for (const u of await d.subscriberIds(app.db, stream.id)) out.add(u);
  return [...out].sort((a, b) => a - b);
}

/**
 * Who hears of a reaction or a deletion (Zulip's event_recipient_ids_for_action_on_messages): those
 * who may still read the message. A direct message's holders; in a channel with protected history
 * the holders still subscribed; in a private channel with shared history its subscribers; in a
 * public channel its subscribers and the holders who are not guests.
 */
export async function actionAudience(app: App, d: Directory, row: MessageRow, holders: number[]): Promise<number[]> {
  const stream = row.stream_id !== null ? d.streams.get(row.stream_id) : undefined;
  if (!stream) return [...new Set(holders)].sort((a, b) => a - b);
  const subscribers = new Set(await d.subscriberIds(app.db, stream.id));
  let out: number[];
  if (!stream.history_public_to_subscribers) out = holders.filter((u) => subscribers.has(u));
  else if (stream.invite_only) out = [...subscribers];
  else out = [...subscribers, ...holders.filter((u) => d.users.has(u) && !isGuest(d.users.get(u)!.role))];
  return [...new Set(out)].sort((a, b) => a - b);
}

/** DELETE /messages/{message_id}. */
export async function deleteMessage(app: App, me: UserRow, messageId: number): Promise<void> {
  const d = await loadDirectory(app);
  const { row } = await accessMessage(app, d, me, messageId, app.db, { modifying: true });
  const subscribed = row.stream_id !== null && (await d.subscriberIds(app.db, row.stream_id)).includes(me.id);
  checkCanDelete(app, d, me, row, subscribed);
  await removeMessage(app, d, row, me.id);
}

/**
 * Deletes a message (no checks: the caller made them): its rows, its attachments when it was their
 * last link, the channel's first_message_id; then delete_message (and the channel's
 * first_message_id update) to those who may read it and to the acting user (Zulip tells them too,
 * even when they never had the message).
 */
export async function removeMessage(app: App, d: Directory, row: MessageRow, actingUserId: number): Promise<void> {
  const stream = row.stream_id !== null ? d.streams.get(row.stream_id) : undefined;
  const { holders, effects, firstMessageId } = await app.db.tx(async (sql) => {
    const holders = (await listHolders(sql, row.id)).map((h) => h.user_id);
    const effects = await deleteAttachmentsOfDeletedMessages(sql, app, [row.id]);
    await deleteMessageRow(sql, row.id);
    let firstMessageId: number | null | undefined;
    if (stream && stream.first_message_id === row.id) {
      firstMessageId = await oldestStreamMessageId(sql, stream.id);
      await updateStream(sql, stream.id, { first_message_id: firstMessageId });
    }
    return { holders, effects, firstMessageId };
  });
  await applyAttachmentEffects(app, effects);
  const audience = [...new Set([...(await actionAudience(app, d, row, holders)), actingUserId])].sort((a, b) => a - b);
  const event: Record<string, unknown> = stream
    ? { type: "delete_message", message_type: "stream", message_ids: [row.id], stream_id: stream.id, topic: row.topic }
    : { type: "delete_message", message_type: "private", message_ids: [row.id] };
  app.events.publish(event as any, audience);
  if (stream && firstMessageId !== undefined) {
    app.events.publish({ type: "stream", op: "update", stream_id: stream.id, name: stream.name, property: "first_message_id", value: firstMessageId } as any, audience);
  }
}
