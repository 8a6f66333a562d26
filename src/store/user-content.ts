import type { Sql } from "./db";

/** Which of a sender's messages a deactivation deletes. */
export type ContentKind = "public_channel" | "private_channel" | "direct";

export interface SentMessageRow {
  id: number;
  stream_id: number | null;
  topic: string;
  dm_key: string | null;
}

const KIND_FILTER: Record<ContentKind, string> = {
  public_channel: "m.stream_id IS NOT NULL AND s.invite_only = 0",
  private_channel: "m.stream_id IS NOT NULL AND s.invite_only = 1",
  direct: "m.stream_id IS NULL",
};

/** The messages `senderId` sent, of the given kinds. */
export function listSentMessages(sql: Sql, senderId: number, kinds: ContentKind[]) {
  if (!kinds.length) return Promise.resolve([] as SentMessageRow[]);
  return sql.all<SentMessageRow>(
    `SELECT m.id, m.stream_id, m.topic, m.dm_key FROM messages m LEFT JOIN streams s ON s.id = m.stream_id
     WHERE m.sender_id = ? AND (${kinds.map((k) => `(${KIND_FILTER[k]})`).join(" OR ")}) ORDER BY m.id`,
    [senderId],
  );
}

const CHUNK = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** Who had each message (their user_messages rows): the recipients of delete_message events. */
export async function listMessageHolders(sql: Sql, messageIds: number[]) {
  const out: { message_id: number; user_id: number }[] = [];
  for (const part of chunks(messageIds)) {
    out.push(...(await sql.all<{ message_id: number; user_id: number }>(
      `SELECT message_id, user_id FROM user_messages WHERE message_id IN (${part.map(() => "?").join(",")})`,
      part,
    )));
  }
  return out;
}

/** Deletes messages; user_messages, reactions and attachment links go with them (ON DELETE CASCADE). */
export async function deleteMessagesByIds(sql: Sql, messageIds: number[]) {
  for (const part of chunks(messageIds)) await sql.run(`DELETE FROM messages WHERE id IN (${part.map(() => "?").join(",")})`, part);
}
