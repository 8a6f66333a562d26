import { nowSecs, type App } from "../app";
import type { Sql } from "../store/db";
import { oldestStreamMessageId, type MessageRow } from "../store/messages";
import { deleteMessagesByIds, listExpiredChannelMessages, listExpiredDirectMessages, type ExpiringMessage } from "../store/retention";
import { listStreams, updateStream } from "../store/streams";
import { mapHolders } from "../store/user-messages";
import { applyAttachmentEffects, deleteAttachmentsOfDeletedMessages } from "./attachments";
import { actionAudience } from "./messages/delete";
import { loadDirectory, type Directory } from "./messages/directory";

const BATCH = 500;
const DAY = 86_400;

/** Days a setting keeps messages: null (or -1) is forever. */
const keeps = (days: number | null | undefined): number | null => (typeof days === "number" && days > 0 ? days : null);

/**
 * The timer loop's job: deletes messages older than their retention period, like a normal delete
 * (attachments only they used go too, delete_message events to everyone who had them). A channel
 * follows its own message_retention_days (NULL: the organization's, -1: forever); direct messages
 * follow the organization's (-1: forever). Deletes in batches, one transaction each. Returns how
 * many messages went.
 */
export async function applyMessageRetention(app: App): Promise<number> {
  if (!app.realm) return 0;
  const realm = app.realm;
  const realmDays = keeps(realm.settings.message_retention_days as number | null);
  const now = nowSecs(app);
  let total = 0;
  const d = await loadDirectory(app);
  for (const stream of await listStreams(app.db, realm.id)) {
    const days = stream.message_retention_days === null ? realmDays : keeps(stream.message_retention_days);
    if (days === null) continue;
    total += await deleteExpired(app, d, (sql, limit) => listExpiredChannelMessages(sql, stream.id, now - days * DAY, limit), stream.id);
  }
  if (realmDays !== null) total += await deleteExpired(app, d, (sql, limit) => listExpiredDirectMessages(sql, realm.id, now - realmDays * DAY, limit), null);
  return total;
}

type Lister = (sql: Sql, limit: number) => Promise<ExpiringMessage[]>;

async function deleteExpired(app: App, d: Directory, list: Lister, streamId: number | null): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows, holders, effects } = await app.db.tx(async (sql) => {
      const rows = await list(sql, BATCH);
      if (!rows.length) return { rows, holders: new Map<number, number[]>(), effects: null };
      const ids = rows.map((r) => r.id);
      const holders = await mapHolders(sql, ids);
      const effects = await deleteAttachmentsOfDeletedMessages(sql, app, ids);
      await deleteMessagesByIds(sql, ids);
      if (streamId !== null) await updateStream(sql, streamId, { first_message_id: await oldestStreamMessageId(sql, streamId) });
      return { rows, holders, effects };
    });
    if (effects) await applyAttachmentEffects(app, effects);
    await publishDeletions(app, d, rows, holders);
    total += rows.length;
    if (rows.length < BATCH) return total;
  }
}

/** One delete_message event per topic (or direct conversation), like Zulip's bulk deletion. */
async function publishDeletions(app: App, d: Directory, rows: ExpiringMessage[], holders: Map<number, number[]>) {
  const groups = new Map<string, ExpiringMessage[]>();
  for (const r of rows) {
    const key = r.stream_id !== null ? `s:${r.stream_id}:${r.topic.toLowerCase()}` : `d:${r.dm_key}`;
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  for (const list of groups.values()) {
    const first = list[0]!;
    const had = [...new Set(list.flatMap((r) => holders.get(r.id) ?? []))];
    const audience = await actionAudience(app, d, first as unknown as MessageRow, had);
    const ids = list.map((r) => r.id);
    const event =
      first.stream_id !== null
        ? { type: "delete_message", message_type: "stream", message_ids: ids, stream_id: first.stream_id, topic: first.topic }
        : { type: "delete_message", message_type: "private", message_ids: ids };
    app.events.publish(event, audience);
  }
}
