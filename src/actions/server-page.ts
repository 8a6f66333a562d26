/**
 * The owner's server page (`#organization/server` in the web app): facts about this installation and
 * its backups, a backup on request and the newest archive to download. Owners only, administrators
 * included in the refusal: the page shows where the data lives and hands out a copy of all of it
 * (password hashes and API keys too).
 */
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { realmOf, type App } from "../app";
import { PARLEY_VERSION, ZULIP_FEATURE_LEVEL } from "../domain/version";
import { isOwner } from "../domain/roles";
import { notFound, ownerRequired } from "../errors";
import { localDatabasePath } from "../store/snapshot";
import { databaseBytes, uploadTotals } from "../store/stats";
import type { UserRow } from "../store/users";
import { backUpNow, backupDir, backupStatus, newestArchive, type Archive } from "./backups";

const checkOwner = (actor: UserRow) => {
  if (!isOwner(actor.role)) throw ownerRequired();
};

const secs = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));
const archiveFacts = (a: Archive | null) => (a ? { name: a.name, timestamp: secs(a.timeMs), size: a.bytes } : null);

/** A remote database's address without its credentials (user:password@ or a query string). */
function databaseLocation(url: string): string {
  const local = localDatabasePath(url);
  if (local) return local;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    return "remote libSQL server";
  }
}

/** GET /parley/server: what the owner's page shows. */
export async function serverFacts(app: App, actor: UserRow) {
  checkOwner(actor);
  const { config } = app;
  const dbPath = localDatabasePath(config.storage.database);
  // the write-ahead log is part of what the database takes on disk
  const wal = dbPath ? ((await stat(`${dbPath}-wal`).catch(() => null))?.size ?? 0) : 0;
  const uploads = await uploadTotals(app.db);
  const status = backupStatus(app);
  return {
    version: PARLEY_VERSION,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    data_dir: config.data_dir,
    database: { location: databaseLocation(config.storage.database), embedded: dbPath !== null, size: (await databaseBytes(app.db)) + wal },
    uploads: { dir: config.storage.uploads_dir, files: uploads.files, size: uploads.bytes },
    backups: {
      dir: backupDir(app),
      automatic: config.backup.dir !== "",
      every_hours: config.backup.every_hours,
      keep: config.backup.keep,
      latest: archiveFacts(await newestArchive(app)),
      last_failure_timestamp: secs(status.lastFailureMs),
      running: status.running,
    },
    email: { configured: config.email.smtp_url !== "", from: config.email.from },
    push: { relay_configured: config.push.relay_url !== "" },
    // Web Push needs only the server's own key pair, made on first use in the data dir (no account anywhere)
    web_push: { keys: existsSync(join(config.data_dir, "vapid.json")) },
    // Parley's two switches for reading without an account (PATCH /realm), which /register does not report
    public_access: {
      web_public_streams_enabled: realmOf(app).settings.web_public_streams_enabled !== false,
      allow_public_access: realmOf(app).settings.allow_public_access === true,
    },
  };
}

/** POST /parley/backups: an archive made now; answers with its facts. */
export async function makeBackup(app: App, actor: UserRow) {
  checkOwner(actor);
  return archiveFacts(await backUpNow(app))!;
}

/** GET /parley/backups/latest: the newest archive's file, for the route to stream. */
export async function latestBackupFile(app: App, actor: UserRow): Promise<Archive> {
  checkOwner(actor);
  const newest = await newestArchive(app);
  if (!newest) throw notFound("No backup has been made yet");
  return newest;
}
