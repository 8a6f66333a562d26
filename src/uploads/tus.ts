/**
 * Resumable uploads, tus 1.0 (core, creation, creation-with-upload, termination, expiration).
 * @tus/server is built on Node's http server, not fetch handlers, so this is a small conforming
 * implementation: each upload is `tus/{id}.bin` (the bytes received so far: the offset is its
 * size, so a crash mid-PATCH loses nothing the client was told about) and `tus/{id}.json` (owner,
 * length, metadata, expiry), both under uploads_dir.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";

export const TUS_VERSION = "1.0.0";
export const TUS_EXTENSIONS = "creation,creation-with-upload,termination,expiration";
/** An upload not touched for this long expires (Upload-Expires). */
export const TUS_EXPIRY_SECS = 24 * 3600;

export interface TusUpload {
  id: string;
  userId: number;
  realmId: number;
  length: number;
  /** the Upload-Metadata header as sent, and decoded */
  rawMetadata: string | null;
  metadata: Record<string, string>;
  created: number;
  expires: number;
  /** set once the last byte arrived and the file became an attachment */
  completed?: { pathId: string; url: string; filename: string };
}

export class TusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** `key base64,key2 base64,flag` → {key: value}; null when malformed. */
export function parseMetadata(header: string | null): Record<string, string> | null {
  // no prototype: `constructor` or `__proto__` is a key like any other
  const out: Record<string, string> = Object.create(null);
  if (!header || !header.trim()) return out;
  for (const pair of header.split(",")) {
    const [key, value, extra] = pair.trim().split(" ");
    if (!key || extra !== undefined || !/^[\x21-\x7e]+$/.test(key) || Object.hasOwn(out, key)) return null;
    if (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return null;
    out[key] = value ? Buffer.from(value, "base64").toString("utf8") : "";
  }
  return out;
}

const ID = /^[0-9a-f]{32}$/;

export class TusStore {
  private readonly locks = new Set<string>();
  constructor(readonly dir: string) {}

  binPath = (id: string) => join(this.dir, `${id}.bin`);
  private jsonPath = (id: string) => join(this.dir, `${id}.json`);

  async create(u: Omit<TusUpload, "id">): Promise<TusUpload> {
    await mkdir(this.dir, { recursive: true });
    const upload = { ...u, id: randomBytes(16).toString("hex") };
    await (await open(this.binPath(upload.id), "wx")).close();
    await this.save(upload);
    return upload;
  }

  /** Writes the sidecar atomically (temp + rename). */
  async save(u: TusUpload): Promise<void> {
    const tmp = join(this.dir, `${u.id}.json.${randomBytes(4).toString("hex")}.tmp`);
    await Bun.write(tmp, JSON.stringify(u));
    await rename(tmp, this.jsonPath(u.id));
  }

  /** The upload and its offset (bytes on disk), or null for an unknown or malformed id. */
  async get(id: string): Promise<(TusUpload & { offset: number }) | null> {
    if (!ID.test(id)) return null;
    let u: TusUpload;
    try {
      u = JSON.parse(await readFile(this.jsonPath(id), "utf8"));
    } catch {
      return null;
    }
    if (u.completed) return { ...u, offset: u.length };
    try {
      return { ...u, offset: (await stat(this.binPath(id))).size };
    } catch {
      return null;
    }
  }

  /** Runs fn while holding the upload's lock; a second concurrent request is refused (423). */
  async locked<T>(id: string, fn: () => Promise<T>): Promise<T> {
    if (this.locks.has(id)) throw new TusError(423, "Upload is locked by another request");
    this.locks.add(id);
    try {
      return await fn();
    } finally {
      this.locks.delete(id);
    }
  }

  /**
   * Appends the body at `offset` (which must be the current size), never growing past `length`.
   * Bytes received before an interruption stay: the client resumes from the offset HEAD reports.
   * Returns the new offset.
   */
  async append(id: string, offset: number, length: number, body: ReadableStream<Uint8Array> | null): Promise<{ offset: number; error?: unknown }> {
    const fh = await open(this.binPath(id), "r+");
    let position = offset;
    let error: unknown;
    try {
      if (body) {
        const reader = body.getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const room = length - position;
            const chunk = value.length > room ? value.subarray(0, room) : value;
            let off = 0;
            while (off < chunk.length) {
              const { bytesWritten } = await fh.write(chunk, off, chunk.length - off, position);
              off += bytesWritten;
              position += bytesWritten;
            }
            if (value.length > chunk.length) {
              // A chunk that overruns Upload-Length is refused whole.
              error = new TusError(413, "Chunk would exceed Upload-Length");
              position = offset;
              break;
            }
          }
        } catch (e) {
          error = e;
        } finally {
          reader.releaseLock(); // the server reads the rest, if any, before it answers (http/request-body.ts)
        }
      }
      await fh.truncate(position);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    return { offset: position, error };
  }

  async remove(id: string): Promise<void> {
    if (!ID.test(id)) return;
    await rm(this.binPath(id), { force: true });
    await rm(this.jsonPath(id), { force: true });
  }

  /** Every upload's sidecar (for expiry). */
  async list(): Promise<TusUpload[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: TusUpload[] = [];
    for (const n of names) {
      if (!n.endsWith(".json")) continue;
      try {
        out.push(JSON.parse(await readFile(join(this.dir, n), "utf8")));
      } catch {
        // a sidecar being replaced; the next run sees it
      }
    }
    return out;
  }

  /** Leftover sidecar temp files and .bin files without a sidecar (a crash during create). */
  async orphans(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const ids = new Set(names.filter((n) => n.endsWith(".json")).map((n) => n.slice(0, -5)));
    return names.filter((n) => n.endsWith(".tmp") || (n.endsWith(".bin") && !ids.has(n.slice(0, -4)))).map((n) => join(this.dir, n));
  }
}
