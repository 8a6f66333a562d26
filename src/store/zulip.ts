import type { Sql } from "./db";
import { chunked } from "./chunks";

/**
 * Reads and writes for moving an organization to and from Zulip's export format (src/export/,
 * src/import/zulip/): whole tables read from a snapshot, and the few columns an import sets after the
 * common import writer has made the rows.
 */

/** The tables an export reads whole, each with its order (messages are paged: see listMessagesAfter). */
const EXPORTED_ORDER = {
  realm: "id", users: "id", streams: "id", subscriptions: "stream_id, user_id", recipients: "id", direct_message_groups: "id",
  user_groups: "id", user_group_members: "group_id, user_id", user_group_subgroups: "group_id, subgroup_id", realm_emoji: "id",
  linkifiers: '"order", id', custom_profile_fields: '"order", id', custom_profile_values: "user_id, field_id", default_streams: "stream_id",
  realm_user_defaults: "realm_id", reactions: "id", attachments: "id", attachment_messages: "attachment_id, message_id",
  user_topics: "user_id, stream_id, topic", muted_users: "user_id, muted_user_id", alert_words: "user_id, word",
} as const;
export type ExportedTable = keyof typeof EXPORTED_ORDER;
export const EXPORTED_TABLES = Object.keys(EXPORTED_ORDER) as ExportedTable[];

/** Every row of one of the exported tables. */
export const listTable = (sql: Sql, table: ExportedTable) => {
  const order = EXPORTED_ORDER[table];
  if (!order) throw new Error(`not an exported table: ${table}`);
  return sql.all<Record<string, any>>(`SELECT * FROM ${table} ORDER BY ${order}`);
};

/** Up to `limit` messages with ids above `afterId`, oldest first, with their per-user rows. */
export async function listMessagesAfter(sql: Sql, afterId: number, limit: number) {
  const messages = await sql.all<Record<string, any>>("SELECT * FROM messages WHERE id > ? ORDER BY id LIMIT ?", [afterId, limit]);
  if (!messages.length) return { messages, userMessages: [] as { user_id: number; message_id: number; flags: number }[] };
  const userMessages = await sql.all<{ user_id: number; message_id: number; flags: number }>(
    "SELECT user_id, message_id, flags FROM user_messages WHERE message_id BETWEEN ? AND ? ORDER BY message_id, user_id",
    [messages[0]!.id, messages[messages.length - 1]!.id],
  );
  return { messages, userMessages };
}

export interface ImportedSubscriptionSettings {
  userId: number;
  streamId: number;
  color: string;
  isMuted: boolean;
  pinToTop: boolean;
  desktop: number | null;
  audible: number | null;
  push: number | null;
  email: number | null;
  wildcard: number | null;
}

/** A subscription's personal settings as the source had them (the row exists already). */
export async function setImportedSubscriptionSettings(sql: Sql, rows: ImportedSubscriptionSettings[]) {
  for (const r of rows) {
    await sql.run(
      `UPDATE subscriptions SET color = ?, is_muted = ?, pin_to_top = ?, desktop_notifications = ?, audible_notifications = ?,
         push_notifications = ?, email_notifications = ?, wildcard_mentions_notify = ? WHERE user_id = ? AND stream_id = ?`,
      [r.color, r.isMuted ? 1 : 0, r.pinToTop ? 1 : 0, r.desktop, r.audible, r.push, r.email, r.wildcard, r.userId, r.streamId],
    );
  }
}

/** Subscriptions the person had left (kept with their settings, inactive). */
export async function insertInactiveSubscriptions(sql: Sql, rows: { userId: number; streamId: number; color: string }[]) {
  for (const part of chunked(rows, 300)) {
    await sql.run(
      `INSERT OR IGNORE INTO subscriptions (user_id, stream_id, color, active) VALUES ${part.map(() => "(?,?,?,0)").join(",")}`,
      part.flatMap((r) => [r.userId, r.streamId, r.color]),
    );
  }
}

/** An imported message's edit state: its history (newest first, as stored) and last edit and move times. */
export async function setImportedEditHistory(sql: Sql, rows: { id: number; history: string; lastEdit: number | null; lastMoved: number | null }[]) {
  for (const r of rows) {
    await sql.run("UPDATE messages SET edit_history = ?, last_edit_time = ?, last_moved_time = ? WHERE id = ?", [r.history, r.lastEdit, r.lastMoved, r.id]);
  }
}

/** A custom emoji's author and state as the source had them. */
export const updateImportedEmoji = (sql: Sql, id: number, authorId: number, deactivated: boolean) =>
  sql.run("UPDATE realm_emoji SET author_id = ?, deactivated = ? WHERE id = ?", [authorId, deactivated ? 1 : 0, id]);

/** The settings JSON of a realm, replaced whole (the importer merges). */
export const setRealmSettingsJson = (sql: Sql, realmId: number, settings: string, name: string, description: string) =>
  sql.run("UPDATE realm SET settings = ?, name = ?, description = ? WHERE id = ?", [settings, name, description, realmId]);

/** A person's stored personal settings (JSON), replaced whole. */
export const setUserSettingsJson = (sql: Sql, userId: number, settings: string) => sql.run("UPDATE users SET settings = ? WHERE id = ?", [settings, userId]);

/** The stored file name of a custom emoji (the writer names it). */
export const emojiFileName = async (sql: Sql, id: number) => (await sql.get<{ file_name: string }>("SELECT file_name FROM realm_emoji WHERE id = ?", [id]))?.file_name;
