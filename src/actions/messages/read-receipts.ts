import { realmOf, type App } from "../../app";
import { parseStoredSettings, settingsOver } from "../../domain/user-settings";
import { badRequest } from "../../errors";
import { listReadersForReceipts } from "../../store/user-messages";
import type { UserRow } from "../../store/users";
import { accessMessage } from "./access";
import { loadDirectory } from "./directory";

/**
 * GET /messages/{message_id}/read_receipts (Zulip's read_receipts view): the ids of the users who
 * have read the message. The message must be one `me` may read ("Invalid message(s)"), then the
 * organization must have read receipts on. Left out: the sender, deactivated users, users whose
 * send_read_receipts is off, users `me` muted and users who muted `me`. Bots are included.
 */
export async function readReceipts(app: App, me: UserRow, messageId: number): Promise<{ user_ids: number[] }> {
  const { row } = await accessMessage(app, await loadDirectory(app), me, messageId);
  if (!realmOf(app).settings.enable_read_receipts) throw badRequest("Read receipts are disabled in this organization.");
  const readers = await listReadersForReceipts(app.db, messageId, row.sender_id, me.id);
  return { user_ids: readers.filter((u) => settingsOver(parseStoredSettings(u.settings)).send_read_receipts).map((u) => u.id) };
}
