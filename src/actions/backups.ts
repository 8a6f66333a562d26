/**
 * Automatic backups ([backup] dir, every_hours, keep, gzip): the timer loop calls backUpWhenDue every
 * minute. A backup is due when the newest archive in the folder is every_hours old (or there is none),
 * judged by the time in the archives' names, so a restart neither repeats nor skips one and a restart
 * loop cannot push good archives out of the `keep` window. A failure is logged and tried again after
 * RETRY_MS; serving goes on meanwhile (the archive is streamed, the database copied on a thread).
 */
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { App } from "../app";
import { writeBackup } from "../backup/create";
import { ZulipError } from "../errors";

const MINUTE = 60_000;
/** After a failure, the next try: soon enough that a fixed problem is noticed, rare enough not to flood the log. */
export const RETRY_MS = 15 * MINUTE;
/** A leftover of a backup interrupted by a crash: its file stopped growing this long ago. */
const STALE_PARTIAL_MS = 60 * MINUTE;

const ARCHIVE = /^parley-backup-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.(?:tar|tar\.gz)$/;
const PARTIAL = /^(?:\.)?parley-backup-\d{8}T\d{6}Z\.(?:tar|tar\.gz)(?:\.partial-|\.snapshot-)/;

/** What the loop knows of automatic backups (also read by /metrics). */
export interface BackupStatus {
  lastSuccessMs: number | null;
  lastFailureMs: number | null;
  /** consecutive failures */
  failures: number;
  retryAtMs: number;
  running: boolean;
}

const statuses = new WeakMap<App, BackupStatus>();
export function backupStatus(app: App): BackupStatus {
  let s = statuses.get(app);
  if (!s) statuses.set(app, (s = { lastSuccessMs: null, lastFailureMs: null, failures: 0, retryAtMs: 0, running: false }));
  return s;
}

/** The archive name for a moment: `parley-backup-20260101T030000Z.tar.gz` (UTC, sorts by time). */
export function archiveName(ms: number, gzip: boolean): string {
  const stamp = new Date(ms).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
  return `parley-backup-${stamp}.tar${gzip ? ".gz" : ""}`;
}

/** The time in an archive's name (ms), or null for any other file. */
export function archiveTime(name: string): number | null {
  const m = ARCHIVE.exec(name);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

/** Makes an archive if one is due, then prunes. Never throws: failures are logged and retried. */
export async function backUpWhenDue(app: App, signal?: AbortSignal): Promise<void> {
  const cfg = app.config.backup;
  if (!cfg.dir) return;
  const status = backupStatus(app);
  const now = app.clock.now();
  if (now < status.retryAtMs || status.running) return;
  status.running = true;
  const file = join(cfg.dir, archiveName(now, cfg.gzip));
  try {
    await mkdir(cfg.dir, { recursive: true });
    const names = await readdir(cfg.dir);
    const newest = Math.max(-Infinity, ...names.map(archiveTime).filter((t): t is number => t !== null && t <= now));
    if (now - newest < cfg.every_hours * 3_600_000) return;
    const started = performance.now();
    const { manifest, bytes } = await writeBackup(app.config, file, { db: app.db, signal, now: new Date(now) });
    status.lastSuccessMs = now;
    status.failures = 0;
    app.log.info("backup written", { file, bytes, files: manifest.counts.files, messages: manifest.counts.messages, ms: Math.round(performance.now() - started) });
    await prune(app, cfg.dir, cfg.keep);
  } catch (e) {
    if (signal?.aborted) return void app.log.warn("backup interrupted by shutdown", { file });
    status.failures++;
    status.lastFailureMs = now;
    const retry = Math.min(RETRY_MS, cfg.every_hours * 3_600_000);
    status.retryAtMs = now + retry;
    app.log.error(`backup failed; trying again in ${Math.round(retry / MINUTE)} min`, { file, error: (e as Error)?.message ?? String(e), failures: status.failures });
  } finally {
    status.running = false;
  }
}

/** Where archives go: `[backup] dir`, or DATA_DIR/backups for one made on request while automatic backups are off. */
export const backupDir = (app: App) => app.config.backup.dir || join(app.config.data_dir, "backups");

export interface Archive {
  name: string;
  path: string;
  /** the time in its name (ms) */
  timeMs: number;
  bytes: number;
}

/** The newest finished archive in the backup folder, or null (no folder, or nothing in it yet). */
export async function newestArchive(app: App): Promise<Archive | null> {
  const dir = backupDir(app);
  const names = await readdir(dir).catch(() => [] as string[]);
  const newest = names.filter((n) => archiveTime(n) !== null).sort((a, b) => archiveTime(b)! - archiveTime(a)!)[0];
  if (!newest) return null;
  const st = await stat(join(dir, newest)).catch(() => null);
  return st ? { name: newest, path: join(dir, newest), timeMs: archiveTime(newest)!, bytes: st.size } : null;
}

/**
 * Makes an archive now (the owner's "Back up now"), in the same folder and with the same names and
 * pruning as the automatic ones, so the next automatic backup counts from it. One at a time: a second
 * request while one runs is refused rather than queued.
 */
export async function backUpNow(app: App): Promise<Archive> {
  const status = backupStatus(app);
  if (status.running) throw new ZulipError("BAD_REQUEST", "A backup is being made already; try again when it is done.", 409);
  const dir = backupDir(app);
  const now = app.clock.now();
  const name = archiveName(now, app.config.backup.gzip);
  status.running = true;
  try {
    await mkdir(dir, { recursive: true });
    if (await stat(join(dir, name)).catch(() => null)) throw new ZulipError("BAD_REQUEST", "A backup was made this very second; try again in a moment.", 409);
    const { bytes, manifest } = await writeBackup(app.config, join(dir, name), { db: app.db, now: new Date(now) });
    status.lastSuccessMs = now;
    status.failures = 0;
    app.log.info("backup written on request", { file: join(dir, name), bytes, files: manifest.counts.files });
    await prune(app, dir, app.config.backup.keep);
    return { name, path: join(dir, name), timeMs: now, bytes };
  } catch (e) {
    if (e instanceof ZulipError) throw e;
    status.lastFailureMs = now;
    app.log.error("backup on request failed", { file: join(dir, name), error: (e as Error)?.message ?? String(e) });
    throw new ZulipError("BAD_REQUEST", `The backup failed: ${(e as Error)?.message ?? String(e)}`, 500);
  } finally {
    status.running = false;
  }
}

/** Deletes the oldest archives beyond `keep`, and leftovers of interrupted backups. Only Parley's own file names. */
async function prune(app: App, dir: string, keep: number): Promise<void> {
  const names = await readdir(dir);
  const archives = names.filter((n) => archiveTime(n) !== null).sort((a, b) => archiveTime(a)! - archiveTime(b)!);
  for (const name of archives.slice(0, Math.max(0, archives.length - keep))) {
    await rm(join(dir, name), { force: true });
    app.log.info("old backup deleted", { file: join(dir, name) });
  }
  for (const name of names.filter((n) => PARTIAL.test(n))) {
    const st = await stat(join(dir, name)).catch(() => null);
    if (st && Date.now() - st.mtimeMs > STALE_PARTIAL_MS) await rm(join(dir, name), { force: true });
  }
}
