/**
 * Files on disk under uploads_dir. Everything is written to a temp file in uploads_dir/tmp (same
 * filesystem), flushed, then renamed into place: a crash never leaves a half-written file where it
 * could be served. Every path handed out is checked to resolve inside uploads_dir.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, realpath, rename, rm, rmdir, stat, type FileHandle } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";

export class UploadStorage {
  readonly root: string;
  constructor(uploadsDir: string) {
    this.root = resolve(uploadsDir);
  }

  get tmpDir() {
    return join(this.root, "tmp");
  }
  get tusDir() {
    return join(this.root, "tus");
  }

  /** The absolute path of a relative storage path, or null if it would leave uploads_dir. */
  path(relative: string): string | null {
    if (!relative || relative.includes("\0")) return null;
    const full = resolve(this.root, relative);
    return full.startsWith(this.root + sep) ? full : null;
  }

  filePath = (pathId: string) => this.path(pathId);
  thumbnailDir = (pathId: string) => this.path(join("thumbnail", pathId));
  emojiPath = (realmId: number, fileName: string) => this.path(join("avatars", String(realmId), "emoji", "images", fileName));

  /**
   * The real path of an existing file, when it is a regular file inside uploads_dir (symlinks
   * pointing elsewhere are refused); null otherwise.
   */
  async existing(relative: string): Promise<{ path: string; size: number; mtimeMs: number } | null> {
    const full = this.path(relative);
    if (!full) return null;
    try {
      const [real, rootReal] = await Promise.all([realpath(full), realpath(this.root)]);
      if (!real.startsWith(rootReal + sep)) return null;
      const st = await stat(real);
      return st.isFile() ? { path: real, size: st.size, mtimeMs: st.mtimeMs } : null;
    } catch {
      return null;
    }
  }

  /** A fresh temp file path in uploads_dir/tmp. */
  async tempPath(suffix = ""): Promise<string> {
    await mkdir(this.tmpDir, { recursive: true });
    return join(this.tmpDir, randomBytes(12).toString("hex") + suffix);
  }

  /** Moves a complete file (temp or tus) to its final relative path (atomic rename). */
  async commit(from: string, relative: string): Promise<string> {
    const to = this.path(relative);
    if (!to) throw new Error(`refusing to store outside uploads_dir: ${relative}`);
    await mkdir(dirname(to), { recursive: true });
    await rename(from, to);
    return to;
  }

  /** Writes a buffer atomically to a relative path. */
  async writeAtomic(relative: string, data: Uint8Array): Promise<string> {
    const tmp = await this.tempPath();
    const fh = await open(tmp, "wx");
    try {
      await fh.write(data);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    return this.commit(tmp, relative);
  }

  /** Removes an uploaded file, its thumbnails, and the now-empty directories above it. */
  async removeUpload(pathId: string): Promise<void> {
    const file = this.path(pathId);
    const thumbs = this.thumbnailDir(pathId);
    if (thumbs) await rm(thumbs, { recursive: true, force: true });
    if (!file) return;
    await rm(file, { force: true });
    await this.pruneEmptyDirs(dirname(file));
    if (thumbs) await this.pruneEmptyDirs(dirname(thumbs));
  }

  private async pruneEmptyDirs(dir: string): Promise<void> {
    while (dir.startsWith(this.root + sep)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (or gone)
      }
      dir = dirname(dir);
    }
  }

  /** Empties uploads_dir/tmp (files of writes a crash or restart interrupted). */
  async cleanTemp(): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.tmpDir);
    } catch {
      return 0;
    }
    await Promise.all(names.map((n) => rm(join(this.tmpDir, n), { recursive: true, force: true })));
    return names.length;
  }
}

/** Appends chunks to an open file, counting bytes; refuses to grow past `limit`. */
export class CappedWriter {
  written = 0;
  constructor(
    private readonly fh: FileHandle,
    private readonly limit: number,
    private readonly onOverflow: () => Error,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    if (this.written + chunk.length > this.limit) throw this.onOverflow();
    let off = 0;
    while (off < chunk.length) {
      const { bytesWritten } = await this.fh.write(chunk, off, chunk.length - off);
      off += bytesWritten;
    }
    this.written += chunk.length;
  }
}
