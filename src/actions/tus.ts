/**
 * Resumable uploads (tus 1.0) at /api/v1/tus: create, append, inspect, terminate, expire. A
 * finished upload becomes an attachment exactly like POST /user_uploads; the final PATCH answers
 * with its `url` and `filename` (as Zulip's tusd hook does), and HEAD on a finished upload carries
 * them in `Upload-Url` / `Upload-Filename` headers too.
 */
import { open, rm, stat } from "node:fs/promises";
import { realmOf, nowSecs, type App } from "../app";
import type { UserRow } from "../store/users";
import { realmUploadSpace } from "../store/attachments";
import { SNIFF_BYTES } from "../uploads/content-type";
import { uploadsOf } from "../uploads/runtime";
import { parseMetadata, TUS_EXPIRY_SECS, TusError, type TusUpload } from "../uploads/tus";
import { maxUploadBytes, storeUploadedFile } from "./uploads";

export { TusError };

export interface TusState {
  upload: TusUpload;
  offset: number;
}

const mib = (app: App) => app.config.limits.max_file_upload_size_mib;

/** POST /api/v1/tus: creates an upload of Upload-Length bytes (creation-with-upload: the body is the first chunk). */
export async function createTusUpload(app: App, me: UserRow, headers: Headers, body: ReadableStream<Uint8Array> | null): Promise<TusState & { finished?: Finished }> {
  if (headers.get("upload-defer-length") !== null) throw new TusError(400, "Upload-Defer-Length is not supported");
  const lengthHeader = headers.get("upload-length");
  if (lengthHeader === null) throw new TusError(400, "Missing Upload-Length header");
  if (!/^\d{1,15}$/.test(lengthHeader.trim())) throw new TusError(400, "Invalid Upload-Length header");
  const length = Number(lengthHeader);
  if (length > maxUploadBytes(app)) throw new TusError(413, `Uploaded file is larger than the allowed limit of ${mib(app)} MiB`);
  if (length === 0) throw new TusError(400, "Uploaded file is empty");
  const rawMetadata = headers.get("upload-metadata");
  const metadata = parseMetadata(rawMetadata);
  if (!metadata) throw new TusError(400, "Invalid Upload-Metadata header");
  const quota = realmOf(app).settings.upload_quota_mib;
  if (quota !== null && quota !== undefined && (await realmUploadSpace(app.db, realmOf(app).id)) + length > quota * 1024 * 1024) {
    throw new TusError(400, "Upload would exceed your organization's upload quota.");
  }
  const now = nowSecs(app);
  const { tus } = uploadsOf(app);
  const upload = await tus.create({ userId: me.id, realmId: realmOf(app).id, length, rawMetadata, metadata, created: now, expires: now + TUS_EXPIRY_SECS });
  // creation-with-upload: a body typed as a chunk is the first PATCH.
  if (body && isChunk(headers)) {
    const r = await appendTusChunk(app, me, upload.id, headers, body, 0);
    return r;
  }
  return { upload, offset: 0 };
}

const isChunk = (headers: Headers) => (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase() === "application/offset+octet-stream";

function checkChunkType(headers: Headers) {
  if (!isChunk(headers)) {
    throw new TusError(415, "Content-Type must be application/offset+octet-stream");
  }
}

/** The caller's upload, or 404 (unknown, someone else's) / 410 (expired). */
export async function getTusUpload(app: App, me: UserRow, id: string): Promise<TusState> {
  const u = await uploadsOf(app).tus.get(id);
  if (!u || u.userId !== me.id) throw new TusError(404, "Upload not found");
  if (u.expires < nowSecs(app)) throw new TusError(410, "Upload expired");
  return { upload: u, offset: u.offset };
}

export interface Finished {
  url: string;
  filename: string;
}

/** PATCH /api/v1/tus/{id}: appends a chunk at Upload-Offset; the last byte turns it into an attachment. */
export async function patchTusUpload(app: App, me: UserRow, id: string, headers: Headers, body: ReadableStream<Uint8Array> | null): Promise<TusState & { finished?: Finished }> {
  checkChunkType(headers);
  const offsetHeader = headers.get("upload-offset");
  if (offsetHeader === null || !/^\d{1,15}$/.test(offsetHeader.trim())) throw new TusError(400, "Missing or invalid Upload-Offset header");
  return appendTusChunk(app, me, id, headers, body, Number(offsetHeader));
}

async function appendTusChunk(app: App, me: UserRow, id: string, headers: Headers, body: ReadableStream<Uint8Array> | null, offset: number): Promise<TusState & { finished?: Finished }> {
  const { tus } = uploadsOf(app);
  return tus.locked(id, async () => {
    const { upload, offset: current } = await getTusUpload(app, me, id);
    if (upload.completed) throw new TusError(409, "Upload already finished");
    if (offset !== current) throw new TusError(409, `Upload-Offset mismatch: the upload is at ${current}`);
    const declared = Number(headers.get("content-length") ?? NaN);
    if (Number.isFinite(declared) && current + declared > upload.length) throw new TusError(413, "Chunk would exceed Upload-Length");
    const result = await tus.append(id, current, upload.length, body);
    upload.expires = nowSecs(app) + TUS_EXPIRY_SECS;
    await tus.save(upload);
    if (result.error) {
      if (result.error instanceof TusError) throw result.error;
      // The client went away mid-chunk: what arrived is kept for the resume.
      throw new TusError(400, "Upload interrupted");
    }
    if (result.offset < upload.length) return { upload, offset: result.offset };
    const finished = await finish(app, me, upload);
    return { upload, offset: result.offset, finished };
  });
}

/** The last byte arrived: the file becomes an attachment; the sidecar remembers the URL until it expires. */
async function finish(app: App, me: UserRow, upload: TusUpload): Promise<Finished> {
  const { tus } = uploadsOf(app);
  const binPath = tus.binPath(upload.id);
  const head = new Uint8Array(Math.min(SNIFF_BYTES, upload.length));
  const fh = await open(binPath, "r");
  try {
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  const fileName = upload.metadata.filename || upload.metadata.name || "uploaded-file";
  try {
    const stored = await storeUploadedFile(app, me, { tempPath: binPath, fileName, size: upload.length, head });
    upload.completed = { pathId: stored.attachment.path_id, url: stored.url, filename: stored.filename };
    await tus.save(upload);
    return { url: stored.url, filename: stored.filename };
  } catch (e) {
    // storeUploadedFile removed the bytes (quota, ...): the upload cannot be resumed.
    await tus.remove(upload.id);
    throw e;
  }
}

/** DELETE /api/v1/tus/{id} (termination). */
export async function terminateTusUpload(app: App, me: UserRow, id: string): Promise<void> {
  const { tus } = uploadsOf(app);
  await tus.locked(id, async () => {
    await getTusUpload(app, me, id);
    await tus.remove(id);
  });
}

/** The timer loop's job: removes expired uploads (finished or not) and orphaned partial files. */
export async function expireTusUploads(app: App): Promise<number> {
  const { tus } = uploadsOf(app);
  const now = nowSecs(app);
  let removed = 0;
  for (const u of await tus.list()) {
    if (u.expires >= now) continue;
    try {
      await tus.locked(u.id, () => tus.remove(u.id));
      removed++;
    } catch {
      // in use right now: next run
    }
  }
  // Orphans are judged by file mtime, which is wall-clock time (not app.clock); an hour's grace
  // keeps an upload being created right now safe.
  for (const path of await tus.orphans()) {
    const st = await stat(path).catch(() => null);
    if (st && st.mtimeMs < Date.now() - 3600_000) await rm(path, { force: true });
  }
  return removed;
}
