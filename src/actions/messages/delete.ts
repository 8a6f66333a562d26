import { nowSecs, realmOf, type App } from "../../app";
import { canDeleteAnyMessage, canDeleteOwnMessage } from "../../domain/channel-permissions";
import { badRequest } from "../../errors";
import { deleteMessage as deleteMessageRow, oldestStreamMessageId, type MessageRow } from "../../store/messages";
import { updateStream } from "../../store/streams";
import { listHolders } from "../../store/user-messages";
import type { UserRow } from "../../store/users";
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

/** Who hears about a change to a message: everyone who has it, plus a public-history channel's subscribers. */
export async function messageAudience(app: App, d: Directory, row: MessageRow, holders: number[]): Promise<number[]> {
  const out = new Set(holders);
  const stream = row.stream_id !== null ? d.streams.get(row.stream_id) : undefined;
  if (stream && stream.history_public_to_subscribers) for (const u of await d.subscriberIds(app.db, stream.id)) out.add(u);
  return [...out].sort((a, b) => a - b);
}

/** DELETE /messages/{message_id}. */
export async function deleteMessage(app: App, me: UserRow, messageId: number): Promise<void> {
  const d = await loadDirectory(app);
  const { row } = await accessMessage(app, d, me, messageId);
  const subscribed = row.stream_id !== null && (await d.subscriberIds(app.db, row.stream_id)).includes(me.id);
  checkCanDelete(app, d, me, row, subscribed);
  const { holders, effects } = await app.db.tx(async (sql) => {
    const holders = (await listHolders(sql, messageId)).map((h) => h.user_id);
    const effects = await deleteAttachmentsOfDeletedMessages(sql, app, [messageId]);
    await deleteMessageRow(sql, messageId);
    const stream = row.stream_id !== null ? d.streams.get(row.stream_id) : undefined;
    if (stream && stream.first_message_id === messageId) await updateStream(sql, stream.id, { first_message_id: await oldestStreamMessageId(sql, stream.id) });
    return { holders, effects };
  });
  await applyAttachmentEffects(app, effects);
  const event: Record<string, unknown> =
    row.stream_id !== null
      ? { type: "delete_message", message_type: "stream", message_ids: [messageId], stream_id: row.stream_id, topic: row.topic }
      : { type: "delete_message", message_type: "private", message_ids: [messageId] };
  app.events.publish(event as any, await messageAudience(app, d, row, holders));
}
