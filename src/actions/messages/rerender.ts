import { nowSecs, type App } from "../../app";
import { flagList } from "../../domain/flags";
import { mapAttachmentMessages } from "../../store/attachments";
import { findMessage, listMessagesByIds, updateMessage as updateMessageRow } from "../../store/messages";
import { listHolders } from "../../store/user-messages";
import { loadDirectory } from "./directory";
import { render } from "./render";

/**
 * Zulip's rendering-only update (do_update_embedded_data), run when an uploaded image's thumbnails are done
 * or have failed: each message linking it is rendered again (as its sender); where the HTML changed it is
 * stored and every holder gets `update_message` with `rendering_only: true` and `user_id: null`. Edit
 * history, edit times and flags stay as they are. A message edited meanwhile keeps its newer rendering.
 */
export async function rerenderMessages(app: App, messageIds: number[]): Promise<void> {
  if (!messageIds.length) return;
  const d = await loadDirectory(app);
  for (const row of await listMessagesByIds(app.db, messageIds)) {
    const sender = d.users.get(row.sender_id);
    if (!sender) continue;
    const html = (await render(app, d, sender, row.content)).html;
    if (html === row.rendered_content) continue;
    const holders = await app.db.tx(async (sql) => {
      const now = await findMessage(sql, row.id);
      if (!now || now.content !== row.content || now.rendered_content !== row.rendered_content) return null;
      await updateMessageRow(sql, row.id, { rendered_content: html });
      return listHolders(sql, row.id);
    });
    if (!holders?.length) continue;
    const event = {
      type: "update_message",
      user_id: null,
      edit_timestamp: Math.floor(nowSecs(app)),
      message_id: row.id,
      message_ids: [row.id],
      content: row.content,
      rendered_content: html,
      rendering_only: true,
    };
    const flagsOf = new Map(holders.map((h) => [h.user_id, h.flags]));
    app.events.publishEach([...flagsOf.keys()], (u) => ({ ...event, flags: flagList(flagsOf.get(u)!) }) as any);
  }
}

/** After an attachment's thumbnails are done or have failed: the messages linking it are rendered again. */
export async function rerenderForAttachment(app: App, attachmentId: number): Promise<void> {
  const linked = (await mapAttachmentMessages(app.db, [attachmentId])).get(attachmentId) ?? [];
  await rerenderMessages(app, linked.map((m) => m.id));
}
