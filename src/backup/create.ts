/**
 * Writes one backup archive while Parley serves: a consistent database snapshot, every file under
 * uploads_dir (uploads, their thumbnails, custom emoji images), the first owner's zuliprc, the Web Push
 * key pair (vapid.json), and the manifest with a checksum per file. The archive is written under a temporary name beside the target
 * and renamed into place when complete, so a backup that fails or is interrupted never looks finished.
 *
 * Order: the database first, then the files. A file uploaded meanwhile is in the archive without a row
 * that names it (harmless: it is never served); a file deleted meanwhile (its attachment deleted after
 * the snapshot) is missing though the snapshot still lists it, and answers 404 after a restore.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { opendir, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Config } from "../config/schema";
import type { Db } from "../store/db";
import { describeSnapshot, localDatabasePath, snapshotDatabase } from "../store/snapshot";
import { TarWriter } from "../lib/tar";
import { PARLEY_VERSION, ZULIP_FEATURE_LEVEL } from "../domain/version";
import { DATABASE_FILE, FORMAT, FORMAT_VERSION, MANIFEST_FILE, ROOT, type FileSum, type Manifest } from "./manifest";

/** Folders under uploads_dir that hold work in progress, not data: files being written, unfinished resumable uploads. */
const TRANSIENT = new Set(["tmp", "tus"]);

/** Whether an archive name asks for gzip: `.tar.gz` or `.tgz` (anything else is a plain tar). */
export const isGzipName = (file: string) => /\.(tar\.gz|tgz)$/i.test(file);

export class BackupSourceError extends Error {}

export interface BackupResult {
  manifest: Manifest;
  /** the archive's size in bytes */
  bytes: number;
}

/**
 * Backs up the data dir described by `config` into the archive `to` (refused if it exists). `db` is
 * the server's open database when a running server backs itself up; the CLI passes none.
 */
export async function writeBackup(config: Config, to: string, opts: { db?: Db; signal?: AbortSignal; now?: Date } = {}): Promise<BackupResult> {
  const { signal } = opts;
  if (existsSync(to)) throw new BackupSourceError(`${to} already exists`);
  const dbPath = localDatabasePath(config.storage.database);
  if (dbPath && !existsSync(dbPath)) throw new BackupSourceError(`there is no database at ${dbPath}: nothing to back up`);
  const tag = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const snapshot = join(dirname(to), `.${basename(to)}.snapshot-${tag}.db`);
  const partial = `${to}.partial-${tag}`;
  let writer: TarWriter | null = null;
  try {
    await snapshotDatabase({ url: config.storage.database, authToken: config.storage.auth_token, db: opts.db }, snapshot, signal);
    const facts = await describeSnapshot(snapshot, signal);
    const files: Record<string, FileSum> = {};
    writer = new TarWriter(partial, { gzip: isGzipName(to) });
    const add = async (name: string, path: string, mode = 0o644) => {
      const sum = await writer!.addFile(`${ROOT}/${name}`, path, { signal, mode });
      if (sum) files[name] = sum;
    };
    await add(DATABASE_FILE, snapshot, 0o600); // it holds password hashes and API keys
    await rm(snapshot, { force: true }); // free its space before the uploads are read
    for await (const rel of walkFiles(config.storage.uploads_dir)) await add(`uploads/${rel}`, join(config.storage.uploads_dir, rel));
    await add("zuliprc", join(config.data_dir, "zuliprc"), 0o600);
    // the Web Push key pair: without it every browser's subscription is dead after a restore
    await add("vapid.json", join(config.data_dir, "vapid.json"), 0o600);
    const manifest: Manifest = {
      format: FORMAT,
      format_version: FORMAT_VERSION,
      created_at: (opts.now ?? new Date()).toISOString(),
      parley_version: PARLEY_VERSION,
      zulip_feature_level: ZULIP_FEATURE_LEVEL,
      schema_version: facts.schemaVersion,
      migrations: facts.migrations,
      database_source: dbPath && (opts.db?.local ?? true) ? "embedded" : "libsql-server",
      counts: { ...facts.counts, files: Object.keys(files).length, bytes: Object.values(files).reduce((n, f) => n + f.size, 0) },
      files,
    };
    await writer.addBuffer(`${ROOT}/${MANIFEST_FILE}`, Buffer.from(JSON.stringify(manifest, null, 1)));
    await writer.finish();
    writer = null;
    if (existsSync(to)) throw new BackupSourceError(`${to} appeared while the backup was written`);
    await rename(partial, to);
    return { manifest, bytes: (await stat(to)).size };
  } finally {
    writer?.abort();
    for (const suffix of ["", "-journal", "-wal", "-shm"]) await rm(snapshot + suffix, { force: true });
    await rm(partial, { force: true });
  }
}

/** Every regular file under `root` (relative paths, `/`-separated), skipping work in progress and symlinks. */
async function* walkFiles(root: string, rel = ""): AsyncGenerator<string> {
  let dir;
  try {
    dir = await opendir(rel ? join(root, rel) : root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return; // no uploads yet, or a folder deleted meanwhile
    throw e;
  }
  for await (const entry of dir) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!rel && TRANSIENT.has(entry.name)) continue;
      yield* walkFiles(root, path);
    } else if (entry.isFile()) {
      yield path;
    }
  }
}
