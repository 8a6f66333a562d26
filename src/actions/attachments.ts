/**
 * Attachments: uploaded files and the messages that link them. Who may read a file, claiming files
 * when a message links them, forgetting them when their last message goes, GET/DELETE
 * /attachments, and the `attachment` events (to the file's owner).
 */
import { realmOf, type App } from "../app";
import { canReadChannelMessage, readableBySpectators, type ChannelAccess } from "../domain/channel-permissions";
import { badRequest } from "../errors";
import {
  deleteAttachmentsByIds,
  findAttachmentById,
  linkAttachments,
  listAttachmentIdsOfMessage,
  listAttachmentsByIds,
  listAttachmentsByPaths,
  listAttachmentsOfMessages,
  listAttachmentsOfOwner,
  listLinkedMessages,
  listLinkedStreamIds,
  mapAttachmentMessages,
  realmUploadSpace,
  unlinkAttachments,
  unlinkMessagesFromAttachments,
  type AttachmentRow,
} from "../store/attachments";
import type { Sql } from "../store/db";
import { findStreamById } from "../store/streams";
import { findUserById, type UserRow } from "../store/users";
import { uploadsOf } from "../uploads/runtime";
import { loadChannelAccess } from "./channel-access";

/** Zulip's Attachment.to_dict(): times in milliseconds (feature level < 443). */
export function attachmentDict(a: AttachmentRow, messages: { id: number; date_sent: number }[]) {
  return {
    id: a.id,
    name: a.file_name,
    path_id: a.path_id,
    size: a.size,
    create_time: Math.floor(a.create_time) * 1000,
    messages: messages.map((m) => ({ id: m.id, date_sent: Math.floor(m.date_sent) * 1000 })),
  };
}

type AttachmentEvent = { type: "attachment"; op: "add" | "update" | "remove"; attachment: object; upload_space_used: number };

/** What an attachment change inside a transaction leaves to do after commit. */
export interface AttachmentEffects {
  /** events, each to one user (the attachment's owner) */
  events: { userId: number; event: AttachmentEvent }[];
  /** path ids whose files (and thumbnails) are to be removed */
  files: string[];
}

const noEffects = (): AttachmentEffects => ({ events: [], files: [] });

/** Publishes the events and removes the files of committed attachment changes. Call after the transaction. */
export async function applyAttachmentEffects(app: App, effects: AttachmentEffects): Promise<void> {
  for (const { userId, event } of effects.events) app.events.publish(event, [userId]);
  const { storage } = uploadsOf(app);
  for (const pathId of effects.files) {
    await storage.removeUpload(pathId).catch((e) => app.log.error("removing an upload failed", { pathId, error: String(e) }));
  }
}

/** Builds `update` events for these attachments as the transaction now sees them. */
async function updateEvents(sql: Sql, app: App, ids: number[]): Promise<AttachmentEffects["events"]> {
  if (!ids.length) return [];
  const rows = await listAttachmentsByIds(sql, ids);
  const messages = await mapAttachmentMessages(sql, ids);
  const space = await realmUploadSpace(sql, realmOf(app).id);
  return rows.map((a) => ({
    userId: a.owner_id,
    event: { type: "attachment", op: "update", attachment: attachmentDict(a, messages.get(a.id) ?? []), upload_space_used: space },
  }));
}

/**
 * Whether `user` (null: a spectator) may read an attachment now, the one rule behind the file, its
 * thumbnails and its temporary URLs: its owner always; others through a message linking it that
 * they may read today — a direct message they received, or a channel message they could open with
 * GET /messages/{id} (content access to the channel now, and a row or the channel's history; a row
 * kept from before they left is not enough). Spectators through web-public channels when the
 * organization lets them in.
 */
export async function canAccessAttachment(app: App, user: UserRow | null, a: AttachmentRow, sql: Sql = app.db): Promise<boolean> {
  const realm = realmOf(app);
  if (a.realm_id !== realm.id) return false;
  if (user && !user.is_active) return false;
  if (user && user.id === a.owner_id) return true;
  if (!user) {
    if (!realm.settings.enable_spectator_access || !realm.settings.web_public_streams_enabled) return false;
    for (const streamId of await listLinkedStreamIds(sql, a.id)) {
      const stream = await findStreamById(sql, streamId);
      if (stream && readableBySpectators(stream)) return true;
    }
    return false;
  }
  const links = await listLinkedMessages(sql, a.id, user.id);
  if (links.some((l) => l.stream_id === null && l.received)) return true;
  const access = new Map<number, ChannelAccess | null>();
  for (const link of links) {
    if (link.stream_id === null) continue;
    if (!access.has(link.stream_id)) {
      const stream = await findStreamById(sql, link.stream_id);
      access.set(link.stream_id, stream ? await loadChannelAccess(app, user, stream, sql) : null);
    }
    const channel = access.get(link.stream_id);
    if (channel && canReadChannelMessage(channel, Boolean(link.received))) return true;
  }
  return false;
}

export interface ClaimInput {
  messageId: number;
  senderId: number;
  /** path ids found in the content (src/uploads/paths.ts uploadPathsIn) */
  uploadPaths: string[];
  /** the message went to a public channel / a web-public channel */
  isRealmPublic: boolean;
  isWebPublic: boolean;
}

/**
 * Zulip's do_claim_attachments, inside the caller's transaction (after the message row is
 * inserted): links every uploaded file in the content that the sender may read (their own
 * uploads, or files shared with them) to the message. Unknown paths and files the sender cannot
 * read are ignored. `claimed` lists the attachment ids linked; apply the effects after commit.
 */
export async function claimAttachments(sql: Sql, app: App, input: ClaimInput): Promise<{ claimed: number[]; effects: AttachmentEffects }> {
  if (!input.uploadPaths.length) return { claimed: [], effects: noEffects() };
  const realm = realmOf(app);
  const rows = await listAttachmentsByPaths(sql, realm.id, input.uploadPaths);
  const sender = rows.some((a) => a.owner_id !== input.senderId) ? await findUserById(sql, input.senderId) : undefined;
  const claimed: number[] = [];
  for (const a of rows) {
    if (a.owner_id === input.senderId || (sender && (await canAccessAttachment(app, sender, a, sql)))) claimed.push(a.id);
  }
  await linkAttachments(sql, input.messageId, claimed, input.isRealmPublic, input.isWebPublic);
  return { claimed, effects: { events: await updateEvents(sql, app, claimed), files: [] } };
}

/**
 * After a message edit, inside the caller's transaction: links newly referenced files (as
 * claimAttachments) and unlinks files the content no longer mentions (they are not deleted).
 */
export async function syncMessageAttachments(sql: Sql, app: App, input: ClaimInput): Promise<{ claimed: number[]; effects: AttachmentEffects }> {
  const before = await listAttachmentIdsOfMessage(sql, input.messageId);
  const { claimed } = await claimAttachments(sql, app, input);
  const keep = new Set(claimed);
  const dropped = before.filter((id) => !keep.has(id));
  await unlinkAttachments(sql, input.messageId, dropped);
  const changed = [...new Set([...claimed.filter((id) => !before.includes(id)), ...dropped])];
  return { claimed, effects: { events: await updateEvents(sql, app, changed), files: [] } };
}

/**
 * Inside the caller's transaction, BEFORE the message rows are deleted: deletes the attachments
 * whose every linking message is among `messageIds` (the spec: deleting the last message that
 * references an attachment deletes it). Attachments still linked elsewhere get `update` events.
 * Apply the effects after commit: that removes the files.
 */
export async function deleteAttachmentsOfDeletedMessages(sql: Sql, app: App, messageIds: number[]): Promise<AttachmentEffects> {
  const rows = await listAttachmentsOfMessages(sql, messageIds);
  if (!rows.length) return noEffects();
  const doomed = rows.filter((a) => a.other_links === 0);
  const kept = rows.filter((a) => a.other_links > 0).map((a) => a.id);
  await deleteAttachmentsByIds(sql, doomed.map((a) => a.id));
  // The kept ones lose these links now, so their events show the messages that remain.
  await unlinkMessagesFromAttachments(sql, messageIds, kept);
  const space = await realmUploadSpace(sql, realmOf(app).id);
  const events: AttachmentEffects["events"] = doomed.map((a) => ({
    userId: a.owner_id,
    event: { type: "attachment", op: "remove", attachment: { id: a.id }, upload_space_used: space },
  }));
  events.push(...(await updateEvents(sql, app, kept)));
  return { events, files: doomed.map((a) => a.path_id) };
}

/** GET /attachments: the caller's uploads with the messages linking them, and the organization's usage. */
export async function listAttachments(app: App, me: UserRow) {
  const rows = await listAttachmentsOfOwner(app.db, me.id);
  const messages = await mapAttachmentMessages(
    app.db,
    rows.map((a) => a.id),
  );
  return {
    attachments: rows.map((a) => attachmentDict(a, messages.get(a.id) ?? [])),
    upload_space_used: await realmUploadSpace(app.db, realmOf(app).id),
  };
}

/** DELETE /attachments/{id}: only the owner; the file goes with the row. */
export async function deleteAttachment(app: App, me: UserRow, attachmentId: number): Promise<void> {
  const effects = await app.db.tx(async (sql) => {
    const a = await findAttachmentById(sql, attachmentId);
    if (!a || a.owner_id !== me.id) throw badRequest("Invalid attachment");
    return removeAttachments(sql, app, [a]);
  });
  await applyAttachmentEffects(app, effects);
}

/** Deletes attachment rows (links cascade) and describes the events and files to remove. */
export async function removeAttachments(sql: Sql, app: App, rows: AttachmentRow[]): Promise<AttachmentEffects> {
  await deleteAttachmentsByIds(
    sql,
    rows.map((a) => a.id),
  );
  const space = await realmUploadSpace(sql, realmOf(app).id);
  return {
    events: rows.map((a) => ({ userId: a.owner_id, event: { type: "attachment", op: "remove", attachment: { id: a.id }, upload_space_used: space } })),
    files: rows.map((a) => a.path_id),
  };
}
