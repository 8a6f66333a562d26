import type { Sql } from "./db";

/** A channel row (Zulip calls channels "streams" in its API and schema). */
export interface StreamRow {
  id: number;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: number;
  is_web_public: number;
  history_public_to_subscribers: number;
  date_created: number;
  creator_id: number | null;
  message_retention_days: number | null;
  is_archived: number;
  folder_id: number | null;
  topics_policy: string;
  first_message_id: number | null;
  recipient_id: number | null;
  can_add_subscribers_group: number;
  can_remove_subscribers_group: number;
  can_administer_channel_group: number;
  can_delete_any_message_group: number;
  can_delete_own_message_group: number;
  can_send_message_group: number;
  can_create_topic_group: number;
  can_move_messages_out_of_channel_group: number;
  can_move_messages_within_channel_group: number;
  can_resolve_topics_group: number;
  can_subscribe_group: number;
}

/** The channel's group settings, each stored as a user_groups id. */
export const CHANNEL_GROUP_SETTING_NAMES = [
  "can_add_subscribers_group",
  "can_administer_channel_group",
  "can_create_topic_group",
  "can_delete_any_message_group",
  "can_delete_own_message_group",
  "can_move_messages_out_of_channel_group",
  "can_move_messages_within_channel_group",
  "can_remove_subscribers_group",
  "can_resolve_topics_group",
  "can_send_message_group",
  "can_subscribe_group",
] as const;
export type ChannelGroupSettingName = (typeof CHANNEL_GROUP_SETTING_NAMES)[number];

const list = (n: number) => Array(n).fill("?").join(",");

export const findStreamById = (sql: Sql, id: number) => sql.get<StreamRow>("SELECT * FROM streams WHERE id = ?", [id]);

/** By name, case-insensitively, ignoring surrounding whitespace (Zulip's get_realm_stream); uses streams_by_name. */
export const findStreamByName = (sql: Sql, name: string) =>
  sql.get<StreamRow>("SELECT * FROM streams WHERE realm_id IN (SELECT id FROM realm) AND name = ? COLLATE NOCASE", [name.trim()]);

export const listStreams = (sql: Sql, realmId: number) => sql.all<StreamRow>("SELECT * FROM streams WHERE realm_id = ? ORDER BY id", [realmId]);

export const listStreamsByIds = (sql: Sql, ids: number[]) =>
  ids.length ? sql.all<StreamRow>(`SELECT * FROM streams WHERE id IN (${list(ids.length)}) ORDER BY id`, ids) : Promise.resolve([] as StreamRow[]);

/** Channels by name (case-insensitive), keyed by the lower-cased name. */
export async function mapStreamsByNames(sql: Sql, names: string[]): Promise<Map<string, StreamRow>> {
  const trimmed = [...new Set(names.map((n) => n.trim()))];
  if (!trimmed.length) return new Map();
  const rows = await sql.all<StreamRow>(`SELECT * FROM streams WHERE name COLLATE NOCASE IN (${list(trimmed.length)})`, trimmed);
  return new Map(rows.map((r) => [r.name.toLowerCase(), r]));
}

export type NewStream = Omit<StreamRow, "id" | "first_message_id" | "recipient_id" | "is_archived">;

export async function insertStream(sql: Sql, s: NewStream): Promise<number> {
  const cols = Object.keys(s);
  const { lastId } = await sql.run(`INSERT INTO streams (${cols.join(", ")}) VALUES (${list(cols.length)})`, cols.map((c) => (s as any)[c]));
  return lastId;
}

export async function updateStream(sql: Sql, id: number, fields: Partial<Omit<StreamRow, "id">>) {
  const keys = Object.keys(fields);
  if (!keys.length) return;
  await sql.run(`UPDATE streams SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE id = ?`, [...keys.map((k) => (fields as any)[k]), id]);
}

export const countMessagesOutsideEmptyTopic = async (sql: Sql, streamId: number) =>
  (await sql.get<{ n: number }>("SELECT count(*) AS n FROM (SELECT 1 FROM messages WHERE stream_id = ? AND topic != '' LIMIT 1)", [streamId]))!.n;

// Default channels: new users join them.
export const listDefaultStreamIds = async (sql: Sql, realmId: number) =>
  (await sql.all<{ stream_id: number }>("SELECT stream_id FROM default_streams WHERE realm_id = ? ORDER BY stream_id", [realmId])).map((r) => r.stream_id);
export const addDefaultStream = (sql: Sql, realmId: number, streamId: number) =>
  sql.run("INSERT OR IGNORE INTO default_streams (realm_id, stream_id) VALUES (?, ?)", [realmId, streamId]);
export const removeDefaultStream = (sql: Sql, realmId: number, streamId: number) =>
  sql.run("DELETE FROM default_streams WHERE realm_id = ? AND stream_id = ?", [realmId, streamId]);

/**
 * A channel's topics with their newest message id, newest first; `userId` limits them to
 * messages that user received (protected history).
 *
 * Topics that differ only in ASCII case come as one, spelled as its newest message spells it (callers
 * merge case variants anyway). Without a user, the topics are walked one index seek at a time over
 * messages_by_stream_topic (a skip scan: a few thousand seeks for a channel's topics) instead of
 * grouping every message of the channel, which took a second at a million messages and held the server.
 */
export const listTopics = (sql: Sql, streamId: number, userId: number | null) =>
  userId === null
    ? sql.all<{ topic: string; max_id: number }>(
        `WITH RECURSIVE t(topic) AS (
           SELECT (SELECT topic FROM messages WHERE stream_id = ?1 ORDER BY topic COLLATE NOCASE LIMIT 1)
           UNION ALL
           SELECT (SELECT m.topic FROM messages m WHERE m.stream_id = ?1 AND m.topic COLLATE NOCASE > t.topic ORDER BY m.topic COLLATE NOCASE LIMIT 1)
             FROM t WHERE t.topic IS NOT NULL
         )
         SELECT (SELECT m.topic FROM messages m WHERE m.stream_id = ?1 AND m.topic = t.topic COLLATE NOCASE ORDER BY m.id DESC LIMIT 1) AS topic,
                (SELECT max(m.id) FROM messages m WHERE m.stream_id = ?1 AND m.topic = t.topic COLLATE NOCASE) AS max_id
           FROM t WHERE t.topic IS NOT NULL ORDER BY max_id DESC`,
        [streamId],
      )
    : sql.all<{ topic: string; max_id: number }>(
        `SELECT m.topic, max(m.id) AS max_id FROM messages m JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
          WHERE m.stream_id = ? GROUP BY m.topic ORDER BY max_id DESC`,
        [userId, streamId],
      );
