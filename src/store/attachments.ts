import type { Sql } from "./db";

export interface AttachmentRow {
  id: number;
  realm_id: number;
  owner_id: number;
  path_id: string;
  file_name: string;
  size: number;
  content_type: string | null;
  create_time: number;
  is_realm_public: number;
  is_web_public: number;
  thumbnail_state: "pending" | "done" | "failed" | null;
  original_width: number | null;
  original_height: number | null;
  frames: number | null;
  /** JSON list of generated thumbnail names */
  thumbnails: string | null;
}

export type NewAttachment = Pick<AttachmentRow, "realm_id" | "owner_id" | "path_id" | "file_name" | "size" | "content_type" | "create_time" | "thumbnail_state" | "original_width" | "original_height" | "frames">;

const list = (n: number) => Array(n).fill("?").join(",");

export async function insertAttachment(sql: Sql, a: NewAttachment): Promise<number> {
  const r = await sql.run(
    `INSERT INTO attachments (realm_id, owner_id, path_id, file_name, size, content_type, create_time, thumbnail_state, original_width, original_height, frames)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [a.realm_id, a.owner_id, a.path_id, a.file_name, a.size, a.content_type, a.create_time, a.thumbnail_state, a.original_width, a.original_height, a.frames],
  );
  return r.lastId;
}

export const findAttachmentById = (sql: Sql, id: number) => sql.get<AttachmentRow>("SELECT * FROM attachments WHERE id = ?", [id]);
export const findAttachmentByPath = (sql: Sql, pathId: string) => sql.get<AttachmentRow>("SELECT * FROM attachments WHERE path_id = ?", [pathId]);

export const listAttachmentsByPaths = (sql: Sql, realmId: number, pathIds: string[]) =>
  pathIds.length ? sql.all<AttachmentRow>(`SELECT * FROM attachments WHERE realm_id = ? AND path_id IN (${list(pathIds.length)})`, [realmId, ...pathIds]) : Promise.resolve([]);

export const listAttachmentsByIds = (sql: Sql, ids: number[]) =>
  ids.length ? sql.all<AttachmentRow>(`SELECT * FROM attachments WHERE id IN (${list(ids.length)}) ORDER BY id`, ids) : Promise.resolve([]);

export const listAttachmentsOfOwner = (sql: Sql, ownerId: number) => sql.all<AttachmentRow>("SELECT * FROM attachments WHERE owner_id = ? ORDER BY id", [ownerId]);

/** Total bytes of every upload in the organization (upload_space_used). */
export const realmUploadSpace = async (sql: Sql, realmId: number) =>
  (await sql.get<{ n: number }>("SELECT coalesce(sum(size), 0) AS n FROM attachments WHERE realm_id = ?", [realmId]))!.n;

/** The messages that link each attachment: attachment id → [{id, date_sent}], oldest first. */
export async function mapAttachmentMessages(sql: Sql, attachmentIds: number[]): Promise<Map<number, { id: number; date_sent: number }[]>> {
  const out = new Map<number, { id: number; date_sent: number }[]>(attachmentIds.map((id) => [id, []]));
  if (!attachmentIds.length) return out;
  const rows = await sql.all<{ attachment_id: number; id: number; date_sent: number }>(
    `SELECT am.attachment_id, m.id, m.date_sent FROM attachment_messages am JOIN messages m ON m.id = am.message_id
     WHERE am.attachment_id IN (${list(attachmentIds.length)}) ORDER BY m.id`,
    attachmentIds,
  );
  for (const r of rows) out.get(r.attachment_id)!.push({ id: r.id, date_sent: r.date_sent });
  return out;
}

/** Links attachments to a message (idempotent) and widens their public flags. */
export async function linkAttachments(sql: Sql, messageId: number, attachmentIds: number[], isRealmPublic: boolean, isWebPublic: boolean): Promise<void> {
  if (!attachmentIds.length) return;
  await sql.batch([
    ...attachmentIds.map((id) => ({ sql: "INSERT OR IGNORE INTO attachment_messages (attachment_id, message_id) VALUES (?, ?)", args: [id, messageId] })),
    {
      sql: `UPDATE attachments SET is_realm_public = is_realm_public OR ?, is_web_public = is_web_public OR ? WHERE id IN (${list(attachmentIds.length)})`,
      args: [isRealmPublic ? 1 : 0, isWebPublic ? 1 : 0, ...attachmentIds],
    },
  ]);
}

/** Removes the links of one message to the given attachments. */
export const unlinkAttachments = (sql: Sql, messageId: number, attachmentIds: number[]) =>
  attachmentIds.length
    ? sql.run(`DELETE FROM attachment_messages WHERE message_id = ? AND attachment_id IN (${list(attachmentIds.length)})`, [messageId, ...attachmentIds])
    : Promise.resolve({ changes: 0, lastId: 0 });

/** Removes the links of several messages to the given attachments. */
export const unlinkMessagesFromAttachments = (sql: Sql, messageIds: number[], attachmentIds: number[]) =>
  messageIds.length && attachmentIds.length
    ? sql.run(`DELETE FROM attachment_messages WHERE message_id IN (${list(messageIds.length)}) AND attachment_id IN (${list(attachmentIds.length)})`, [...messageIds, ...attachmentIds])
    : Promise.resolve({ changes: 0, lastId: 0 });

/** The attachment ids a message links to. */
export const listAttachmentIdsOfMessage = async (sql: Sql, messageId: number) =>
  (await sql.all<{ attachment_id: number }>("SELECT attachment_id FROM attachment_messages WHERE message_id = ?", [messageId])).map((r) => r.attachment_id);

/** Attachments linked from any of these messages, with how many of their links lie outside the set. */
export async function listAttachmentsOfMessages(sql: Sql, messageIds: number[]): Promise<(AttachmentRow & { other_links: number })[]> {
  if (!messageIds.length) return [];
  const marks = list(messageIds.length);
  return sql.all(
    `SELECT a.*, (SELECT count(*) FROM attachment_messages o WHERE o.attachment_id = a.id AND o.message_id NOT IN (${marks})) AS other_links
     FROM attachments a WHERE a.id IN (SELECT attachment_id FROM attachment_messages WHERE message_id IN (${marks}))`,
    [...messageIds, ...messageIds],
  );
}

export const deleteAttachmentsByIds = (sql: Sql, ids: number[]) =>
  ids.length ? sql.run(`DELETE FROM attachments WHERE id IN (${list(ids.length)})`, ids) : Promise.resolve({ changes: 0, lastId: 0 });

/**
 * Attachments never linked from a message and older than `before` (seconds), that no pending
 * scheduled message mentions either.
 */
export const listUnreferencedAttachments = (sql: Sql, before: number, limit = 1000) =>
  sql.all<AttachmentRow>(
    `SELECT a.* FROM attachments a
     WHERE a.create_time < ? AND NOT EXISTS (SELECT 1 FROM attachment_messages am WHERE am.attachment_id = a.id)
       AND NOT EXISTS (SELECT 1 FROM scheduled_messages s WHERE s.delivered = 0 AND s.failed = 0 AND s.sender_id = a.owner_id AND instr(s.content, a.path_id) > 0)
     ORDER BY a.create_time LIMIT ?`,
    [before, limit],
  );

/** Attachments whose thumbnails are still to be made (after a restart). */
export const listPendingThumbnails = (sql: Sql) => sql.all<AttachmentRow>("SELECT * FROM attachments WHERE thumbnail_state = 'pending' ORDER BY id");

export const setThumbnailState = (sql: Sql, id: number, state: "done" | "failed", names: string[]) =>
  sql.run("UPDATE attachments SET thumbnail_state = ?, thumbnails = ? WHERE id = ?", [state, JSON.stringify(names), id]);

/** What a user can reach an attachment through: each linking message, its channel, and whether they received it. */
export interface LinkedMessage {
  message_id: number;
  stream_id: number | null;
  received: number;
}

export const listLinkedMessages = (sql: Sql, attachmentId: number, userId: number) =>
  sql.all<LinkedMessage>(
    `SELECT m.id AS message_id, m.stream_id, EXISTS (SELECT 1 FROM user_messages um WHERE um.user_id = ? AND um.message_id = m.id) AS received
     FROM attachment_messages am JOIN messages m ON m.id = am.message_id WHERE am.attachment_id = ?`,
    [userId, attachmentId],
  );

/** Channels (ids) of the messages linking an attachment. */
export const listLinkedStreamIds = async (sql: Sql, attachmentId: number) =>
  (
    await sql.all<{ stream_id: number }>(
      "SELECT DISTINCT m.stream_id FROM attachment_messages am JOIN messages m ON m.id = am.message_id WHERE am.attachment_id = ? AND m.stream_id IS NOT NULL",
      [attachmentId],
    )
  ).map((r) => r.stream_id);
