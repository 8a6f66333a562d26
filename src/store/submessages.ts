import type { Sql } from "./db";
import { chunked } from "./chunks";

export interface SubmessageRow {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

const COLS = "id, message_id, sender_id, msg_type, content";

/** Submessages of several messages, by message then in the order they were sent (Zulip's get_raw_db_rows). */
export async function listSubmessages(sql: Sql, messageIds: number[]): Promise<SubmessageRow[]> {
  if (!messageIds.length) return [];
  if (messageIds.length === 1) return sql.all<SubmessageRow>(`SELECT ${COLS} FROM submessages WHERE message_id = ? ORDER BY id`, messageIds);
  const out: SubmessageRow[] = [];
  for (const part of chunked(messageIds)) {
    out.push(...(await sql.all<SubmessageRow>(`SELECT ${COLS} FROM submessages WHERE message_id IN (${part.map(() => "?").join(",")}) ORDER BY message_id, id`, part)));
  }
  return out;
}

/** A message's first submessage of a type (its widget, for "widget"), or undefined. */
export const findFirstSubmessage = (sql: Sql, messageId: number, msgType: string) =>
  sql.get<SubmessageRow>(`SELECT ${COLS} FROM submessages WHERE message_id = ? AND msg_type = ? ORDER BY id LIMIT 1`, [messageId, msgType]);

/** Whether a message has any submessage (Zulip's is_widget_message). */
export const hasSubmessages = async (sql: Sql, messageId: number) =>
  (await sql.get("SELECT 1 AS x FROM submessages WHERE message_id = ? LIMIT 1", [messageId])) !== undefined;

export async function insertSubmessage(sql: Sql, s: Omit<SubmessageRow, "id">): Promise<SubmessageRow> {
  const { lastId } = await sql.run("INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES (?, ?, ?, ?)", [s.message_id, s.sender_id, s.msg_type, s.content]);
  return { id: lastId, ...s };
}
