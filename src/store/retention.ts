import type { Sql } from "./db";
import { chunked } from "./chunks";

/** What deleting a message needs to know to announce it. */
export interface ExpiringMessage {
  id: number;
  stream_id: number | null;
  dm_key: string | null;
  topic: string;
}

const qs = (n: number) => Array(n).fill("?").join(", ");

/** A channel's messages sent before `before`, oldest first (walks messages_by_stream). */
export const listExpiredChannelMessages = (sql: Sql, streamId: number, before: number, limit: number) =>
  sql.all<ExpiringMessage>("SELECT id, stream_id, dm_key, topic FROM messages WHERE stream_id = ? AND date_sent < ? ORDER BY id LIMIT ?", [streamId, before, limit]);

/** The organization's direct messages sent before `before`, oldest first. */
export const listExpiredDirectMessages = (sql: Sql, realmId: number, before: number, limit: number) =>
  sql.all<ExpiringMessage>("SELECT id, stream_id, dm_key, topic FROM messages WHERE realm_id = ? AND stream_id IS NULL AND date_sent < ? ORDER BY id LIMIT ?", [
    realmId,
    before,
    limit,
  ]);

/** Deletes messages (their user_messages and reactions go by cascade, search rows by trigger). */
export async function deleteMessagesByIds(sql: Sql, ids: number[]): Promise<void> {
  for (const part of chunked(ids)) await sql.run(`DELETE FROM messages WHERE id IN (${qs(part.length)})`, part);
}
