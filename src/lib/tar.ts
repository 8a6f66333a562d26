/**
 * Tar archives (optionally gzipped), streamed both ways so a large folder never has to fit in memory,
 * with a SHA-256 of every file computed as it passes. tar-stream does the format; node:zlib the gzip
 * (its work runs off the event loop). Ordinary tools open the result: `tar tzf backup.tar.gz`.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import * as tar from "tar-stream";

export interface Written {
  size: number;
  sha256: string;
}

/** Bytes read at a time from a file being archived: large enough to be cheap, small enough not to stall. */
const CHUNK = 256 * 1024;

/** Hashes the chunks that pass through it. */
export function hashing(hash: ReturnType<typeof createHash>) {
  return async function* (source: AsyncIterable<Uint8Array>) {
    for await (const chunk of source) {
      hash.update(chunk);
      yield chunk;
    }
  };
}

/** Writes a tar archive entry by entry; `finish()` completes it, `abort()` gives up (the caller removes the file). */
export class TarWriter {
  private readonly pack = tar.pack();
  private readonly done: Promise<void>;
  private failure: Error | null = null;

  constructor(path: string, opts: { gzip: boolean; mode?: number }) {
    const file = createWriteStream(path, { flags: "wx", mode: opts.mode ?? 0o600 });
    const stages: any[] = [this.pack, ...(opts.gzip ? [createGzip({ level: 6 })] : []), file];
    this.done = (pipeline as (...s: any[]) => Promise<void>)(...stages).catch((e: Error) => {
      this.failure ??= e;
      throw e;
    });
    this.done.catch(() => {}); // reported by the next add or finish
  }

  /**
   * Adds a file from disk under `name`. The size is taken from the open file, so a file renamed or
   * deleted after it was opened is still archived whole; null when it is gone before it could be opened.
   */
  async addFile(name: string, path: string, opts: { signal?: AbortSignal; mode?: number } = {}): Promise<Written | null> {
    const { signal } = opts;
    this.check(signal);
    let fh;
    try {
      fh = await open(path, "r");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw e;
    }
    try {
      const st = await fh.stat();
      if (!st.isFile()) return null;
      const hash = createHash("sha256");
      const header = { name, size: st.size, mode: opts.mode ?? 0o644, mtime: st.mtime };
      if (st.size === 0) {
        await new Promise<void>((resolve, reject) => this.pack.entry(header, Buffer.alloc(0), (e) => (e ? reject(e) : resolve())));
      } else {
        const source = fh.createReadStream({ start: 0, end: st.size - 1, highWaterMark: CHUNK, autoClose: false });
        await pipeline(source, hashing(hash), this.pack.entry(header) as any, { signal });
      }
      this.check(signal);
      return { size: st.size, sha256: hash.digest("hex") };
    } finally {
      await fh.close();
    }
  }

  /** Adds a small in-memory file. */
  async addBuffer(name: string, data: Uint8Array, mtime = new Date()): Promise<Written> {
    this.check();
    await new Promise<void>((resolve, reject) => this.pack.entry({ name, size: data.length, mode: 0o644, mtime }, data, (e) => (e ? reject(e) : resolve())));
    return { size: data.length, sha256: createHash("sha256").update(data).digest("hex") };
  }

  /** Ends the archive and waits until every byte is on disk (flushed by the file stream's close). */
  async finish(): Promise<void> {
    this.check();
    this.pack.finalize();
    await this.done;
  }

  abort(): void {
    this.failure ??= new Error("archive aborted");
    this.pack.destroy(this.failure);
  }

  private check(signal?: AbortSignal) {
    if (signal?.aborted) {
      this.abort();
      throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
    }
    if (this.failure) throw this.failure;
  }
}

export interface TarEntry {
  name: string;
  type: tar.Header["type"];
  size: number;
  mtime: Date;
  /** the entry's bytes, to be read once (or left unread: they are skipped) */
  stream: AsyncIterable<Uint8Array>;
}

/** Thrown when the file is not a (complete, readable) tar archive. */
export class NotAnArchiveError extends Error {}

/**
 * Reads a tar archive (gzipped or not, told by its first bytes) entry by entry. Entries are handed to
 * `onEntry` one at a time, in order; an entry left unread is skipped.
 */
export async function readTar(path: string, onEntry: (e: TarEntry) => Promise<void>): Promise<void> {
  const head = Buffer.alloc(512);
  const fh = await open(path, "r");
  let headLength: number;
  try {
    headLength = (await fh.read(head, 0, 512, 0)).bytesRead;
  } finally {
    await fh.close();
  }
  const gzipped = headLength >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  if (!gzipped && !looksLikeTar(head.subarray(0, headLength))) throw new NotAnArchiveError("not a tar archive");
  const extract = tar.extract();
  const feeding = (pipeline as (...s: any[]) => Promise<void>)(createReadStream(path, { highWaterMark: CHUNK }), ...(gzipped ? [createGunzip()] : []), extract);
  // a broken input fails the pipeline; the loop below then ends with the same error
  feeding.catch(() => {});
  try {
    for await (const entry of extract) {
      const h = entry.header;
      await onEntry({ name: h.name, type: h.type, size: h.size, mtime: h.mtime, stream: entry as AsyncIterable<Uint8Array> });
      entry.resume(); // skip what onEntry left unread
    }
    await feeding;
  } catch (e) {
    extract.destroy();
    if (e instanceof NotAnArchiveError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "Z_DATA_ERROR" || code === "Z_BUF_ERROR" || /tar|header|unexpected end|end of data|truncated/i.test(String((e as Error).message))) {
      throw new NotAnArchiveError((e as Error).message);
    }
    throw e;
  }
}

/** A ustar/GNU tar header: "ustar" at offset 257 (the formats tar-stream writes and reads). */
function looksLikeTar(head: Uint8Array): boolean {
  return head.length >= 512 && Buffer.from(head.subarray(257, 262)).toString("latin1") === "ustar";
}
