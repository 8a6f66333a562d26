/**
 * Uploading and serving files: POST /user_uploads (streamed to disk), the access rule for
 * /user_uploads/..., temporary URLs, thumbnails in the background, and the clean-up jobs.
 */
import { open, rm } from "node:fs/promises";
import { realmOf, nowSecs, type App } from "../app";
import { accessDenied, badRequest, notFound, ZulipError } from "../errors";
import {
  findAttachmentById,
  findAttachmentByPath,
  insertAttachment,
  listPendingThumbnails,
  listUnreferencedAttachments,
  realmUploadSpace,
  setThumbnailState,
  type AttachmentRow,
} from "../store/attachments";
import type { Sql } from "../store/db";
import { findUserById, type UserRow } from "../store/users";
import { SNIFF_BYTES, sniffContentType, THUMBNAIL_TYPES } from "../uploads/content-type";
import type { StoredFile } from "../uploads/file-response";
import { multipartBoundary, MultipartError, readMultipart, type PartSink } from "../uploads/multipart";
import { newPathId, sanitizeFilename, uploadUrl } from "../uploads/paths";
import { uploadsOf } from "../uploads/runtime";
import { TEMPORARY_URL_TTL_SECS } from "../uploads/signed-url";
import { CappedWriter } from "../uploads/storage";
import { BadImageError, generateThumbnails, pickThumbnail, probeImage, type ImageInfo } from "../uploads/thumbnails";
import { rerenderForAttachment } from "./messages/rerender";
import { applyAttachmentEffects, attachmentDict, canAccessAttachment, removeAttachments } from "./attachments";

const MIB = 1024 * 1024;

/** The largest upload in bytes ([limits] max_file_upload_size_mib). */
export const maxUploadBytes = (app: App) => app.config.limits.max_file_upload_size_mib * MIB;

export const fileTooLarge = (mib: number) => badRequest(`Uploaded file is larger than the allowed limit of ${mib} MiB`);

export const quotaExceeded = () => new ZulipError("REALM_UPLOAD_QUOTA", "Upload would exceed your organization's upload quota.", 400);

/** Refuses an upload of `size` bytes that would take the organization over upload_quota_mib. */
async function checkQuota(app: App, sql: Sql, size: number): Promise<void> {
  const quota = realmOf(app).settings.upload_quota_mib;
  if (quota === null || quota === undefined) return;
  if ((await realmUploadSpace(sql, realmOf(app).id)) + size > quota * MIB) throw quotaExceeded();
}

const rerendering = new WeakSet<App>();

/** Start-up housekeeping: temp files of interrupted writes go, pending thumbnails are resumed. */
export async function startUploads(app: App): Promise<void> {
  if (!rerendering.has(app)) {
    rerendering.add(app);
    // The messages showing a finished (or failed) image are rendered again (rendering-only update_message).
    onThumbnailsReady(app, (id) => rerenderForAttachment(app, id));
  }
  await uploadsOf(app).ready;
  for (const a of await listPendingThumbnails(app.db)) queueThumbnails(app, a.id);
}

/** Resolves when every queued thumbnail job has finished (tests; shutdown waits for it too). */
export const waitForThumbnails = (app: App) => uploadsOf(app).thumbnails.idle();

/**
 * Registers a callback run after an attachment's thumbnails are done or have failed (the
 * messages area re-renders the messages showing it). Returns a function that unregisters it.
 */
export function onThumbnailsReady(app: App, listener: (attachmentId: number) => void | Promise<void>): () => void {
  const set = uploadsOf(app).thumbnailListeners;
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * POST /user_uploads: reads the multipart body as it arrives, writing the one file part to a temp
 * file (never more than the size limit), then stores it as an attachment.
 */
export async function uploadFile(app: App, me: UserRow, request: Request) {
  const limit = maxUploadBytes(app);
  const mib = app.config.limits.max_file_upload_size_mib;
  const declared = Number(request.headers.get("content-length") ?? NaN);
  // The multipart envelope adds a little; a body much larger than the limit is refused unread.
  if (Number.isFinite(declared) && declared > limit + 64 * 1024) throw fileTooLarge(mib);
  const boundary = multipartBoundary(request.headers.get("content-type"));
  if (!boundary || !request.body) throw badRequest("You must specify a file to upload");
  const file = await receiveOneFile(app, request.body, boundary, {
    limit,
    tooLarge: () => fileTooLarge(mib),
    tooMany: () => badRequest("You may only upload one file at a time"),
  });
  if (!file) throw badRequest("You must specify a file to upload");
  if (file.size === 0) {
    await rm(file.tempPath, { force: true });
    throw badRequest("Uploaded file is empty");
  }
  const stored = await storeUploadedFile(app, me, file);
  return { uri: stored.url, url: stored.url, filename: stored.filename };
}

export interface ReceivedFile {
  tempPath: string;
  fileName: string;
  size: number;
  head: Uint8Array;
}

export interface ReceiveLimits {
  /** largest file in bytes */
  limit: number;
  tooLarge: () => Error;
  /** a second file part */
  tooMany: () => Error;
  /** when given, receives the plain form fields' text (e.g. POST /realm/logo's `night`) */
  fields?: Map<string, string>;
}

/** Streams the single file part of a multipart body into a temp file (null: no file part). */
export async function receiveOneFile(app: App, body: ReadableStream<Uint8Array>, boundary: string, { limit, tooLarge, tooMany, fields: values }: ReceiveLimits): Promise<ReceivedFile | null> {
  const { storage, ready } = uploadsOf(app);
  await ready;
  let file: ReceivedFile | null = null;
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  let fields = 0;
  try {
    await readMultipart(body, boundary, async (info): Promise<PartSink | null> => {
      if (info.filename === null || (info.filename === "" && !info.contentType)) {
        // A plain form field: kept only when asked for, and it may not smuggle a large body past the limit.
        const parts: Uint8Array[] = [];
        return {
          write: (c) => {
            if ((fields += c.length) > 64 * 1024) throwIt(badRequest("Form field too large"));
            if (values) parts.push(c.slice());
          },
          end: () => void values?.set(info.name, Buffer.concat(parts).toString("utf8")),
        };
      }
      if (file) throw tooMany();
      const tempPath = await storage.tempPath();
      handle = await open(tempPath, "wx");
      const current: ReceivedFile = { tempPath, fileName: info.filename, size: 0, head: new Uint8Array(0) };
      file = current;
      const writer = new CappedWriter(handle, limit, tooLarge);
      const head: Uint8Array[] = [];
      let headBytes = 0;
      return {
        async write(chunk) {
          await writer.write(chunk);
          if (headBytes < SNIFF_BYTES) {
            head.push(chunk.slice(0, SNIFF_BYTES - headBytes));
            headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
          }
          current.size = writer.written;
        },
        async end() {
          current.head = Buffer.concat(head);
          await handle!.datasync();
          await handle!.close();
          handle = null;
        },
      };
    });
  } catch (e) {
    if (handle) await (handle as Awaited<ReturnType<typeof open>>).close().catch(() => {});
    if (file) await rm((file as ReceivedFile).tempPath, { force: true });
    if (e instanceof MultipartError) throw badRequest("You must specify a file to upload");
    throw e;
  }
  return file;
}

function throwIt(e: Error): never {
  throw e;
}

/**
 * Turns a complete file (a temp or finished tus file) into an attachment: sniffs its type, reads
 * image dimensions, renames it into place, then records it (the quota re-checked in the same
 * transaction). The row is only written once the file is in place; on any failure the file goes.
 */
export async function storeUploadedFile(app: App, me: UserRow, file: ReceivedFile): Promise<{ attachment: AttachmentRow; url: string; filename: string }> {
  const realm = realmOf(app);
  const { storage } = uploadsOf(app);
  let finalPath: string | null = null;
  try {
    await checkQuota(app, app.db, file.size);
    const filename = sanitizeFilename(file.fileName);
    const contentType = await sniffContentType(file.head, filename);
    let image: ImageInfo | null = null;
    let thumbnailState: AttachmentRow["thumbnail_state"] = null;
    if (THUMBNAIL_TYPES.has(contentType)) {
      try {
        image = await probeImage(file.tempPath);
        thumbnailState = "pending";
      } catch (e) {
        if (!(e instanceof BadImageError)) throw e;
        thumbnailState = "failed";
      }
    }
    const pathId = newPathId(realm.id, filename);
    finalPath = await storage.commit(file.tempPath, pathId);
    const row = {
      realm_id: realm.id,
      owner_id: me.id,
      path_id: pathId,
      file_name: filename,
      size: file.size,
      content_type: contentType,
      create_time: nowSecs(app),
      thumbnail_state: thumbnailState,
      original_width: image?.width ?? null,
      original_height: image?.height ?? null,
      frames: image?.frames ?? null,
    };
    const { id, space } = await app.db.tx(async (sql) => {
      await checkQuota(app, sql, file.size);
      const id = await insertAttachment(sql, row);
      return { id, space: await realmUploadSpace(sql, realm.id) };
    });
    const attachment = (await findAttachmentById(app.db, id))!;
    app.events.publish({ type: "attachment", op: "add", attachment: attachmentDict(attachment, []), upload_space_used: space }, [me.id]);
    if (thumbnailState === "pending") queueThumbnails(app, id);
    return { attachment, url: uploadUrl(pathId), filename };
  } catch (e) {
    await rm(finalPath ?? file.tempPath, { force: true });
    throw e;
  }
}

/** Queues thumbnail generation for an attachment. */
function queueThumbnails(app: App, attachmentId: number): void {
  const rt = uploadsOf(app);
  rt.thumbnails.push(async () => {
    const a = await findAttachmentById(app.db, attachmentId);
    if (!a || a.thumbnail_state !== "pending") return;
    const source = rt.storage.filePath(a.path_id);
    const dir = rt.storage.thumbnailDir(a.path_id);
    let names: string[] = [];
    let state: "done" | "failed" = "done";
    try {
      if (!source || !dir) throw new BadImageError("bad path");
      names = await generateThumbnails(source, dir, rt.storage.tmpDir, { width: a.original_width ?? 0, height: a.original_height ?? 0, frames: a.frames ?? 1 });
    } catch (e) {
      if (!(e instanceof BadImageError)) app.log.error("thumbnailing failed", { pathId: a.path_id, error: String(e) });
      state = "failed";
    }
    const { changes } = await app.db.tx((sql) => setThumbnailState(sql, a.id, state, names));
    // Deleted meanwhile: its thumbnails go too.
    if (!changes) return void (await rt.storage.removeUpload(a.path_id));
    for (const listener of rt.thumbnailListeners) await listener(a.id);
  });
}

/** Looks up an attachment by path id and checks the caller may read it (404 unknown, 403 refused). */
async function accessibleAttachment(app: App, user: UserRow | null, pathId: string): Promise<AttachmentRow> {
  const a = await findAttachmentByPath(app.db, pathId);
  if (!a || a.realm_id !== realmOf(app).id) throw notFound("File not found");
  if (!(await canAccessAttachment(app, user, a))) {
    if (!user) throw new ZulipError("UNAUTHORIZED", "Not logged in: API authentication or user session required", 401);
    throw accessDenied();
  }
  return a;
}

/** The file behind /user_uploads/{path_id}, once access is checked. */
export async function fileForUser(app: App, user: UserRow | null, pathId: string): Promise<StoredFile> {
  return storedFile(app, await accessibleAttachment(app, user, pathId));
}

async function storedFile(app: App, a: AttachmentRow): Promise<StoredFile> {
  const found = await uploadsOf(app).storage.existing(a.path_id);
  if (!found) throw notFound("File not found");
  return { path: found.path, size: found.size, identity: a.path_id, fileName: a.file_name, contentType: a.content_type };
}

/** A thumbnail of an accessible image (/user_uploads/thumbnail/{path_id}/{format}). */
export async function thumbnailForUser(app: App, user: UserRow | null, pathId: string, format: string): Promise<StoredFile> {
  const a = await accessibleAttachment(app, user, pathId);
  const names: string[] = a.thumbnail_state === "done" && a.thumbnails ? JSON.parse(a.thumbnails) : [];
  const name = pickThumbnail(format, names);
  if (!name) throw notFound("Thumbnail not found");
  const found = await uploadsOf(app).storage.existing(`thumbnail/${a.path_id}/${name}`);
  if (!found) throw notFound("Thumbnail not found");
  return { path: found.path, size: found.size, identity: `${a.path_id}/${name}`, fileName: name, contentType: "image/webp" };
}

/** GET /api/v1/user_uploads/{realm_id}/{...}: a credential-free URL valid for a minute. */
export async function temporaryFileUrl(app: App, me: UserRow, pathId: string): Promise<string> {
  const a = await accessibleAttachment(app, me, pathId);
  const token = uploadsOf(app).signer.sign(a.path_id, me.id, nowSecs(app) + TEMPORARY_URL_TTL_SECS);
  return `/user_uploads/temporary/${token}/${encodeURIComponent(a.file_name)}`;
}

const invalidToken = () => badRequest("Invalid token");

/**
 * The file a temporary URL names (Zulip's serve_file_unauthed_from_token), while the token is
 * valid and the user it was made for may still read the file: losing access (leaving the
 * channel, deactivation) ends the URL at once, not when it expires.
 */
export async function fileForToken(app: App, token: string, fileName: string): Promise<StoredFile> {
  const signed = uploadsOf(app).signer.verify(token, nowSecs(app));
  if (!signed) throw invalidToken();
  if (signed.pathId.slice(signed.pathId.lastIndexOf("/") + 1) !== fileName) throw badRequest("Invalid filename");
  const a = await findAttachmentByPath(app.db, signed.pathId);
  if (!a) throw invalidToken();
  const user = await findUserById(app.db, signed.userId);
  if (!user || !(await canAccessAttachment(app, user, a))) throw accessDenied();
  return storedFile(app, a);
}

/**
 * The timer loop's clean-up: uploads never linked from a message and older than
 * [retention] unreferenced_upload_days are deleted (with their files and thumbnails).
 */
export async function deleteUnreferencedUploads(app: App): Promise<number> {
  if (!app.realm) return 0;
  const before = nowSecs(app) - app.config.retention.unreferenced_upload_days * 86400;
  let total = 0;
  for (;;) {
    const effects = await app.db.tx(async (sql) => removeAttachments(sql, app, await listUnreferencedAttachments(sql, before, 500)));
    await applyAttachmentEffects(app, effects);
    total += effects.files.length;
    if (effects.files.length < 500) return total;
  }
}

/** Re-reads an attachment by path id. */
export const findAttachment = (app: App, pathId: string) => findAttachmentByPath(app.db, pathId);

