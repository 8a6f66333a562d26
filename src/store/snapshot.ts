/**
 * A consistent copy of the whole database in a new local file, taken while Parley serves, and the
 * facts a backup manifest reports about it. The embedded database is copied by SQLite's VACUUM INTO on
 * a thread of its own (a big database takes seconds, which must not stop the event loop). A remote
 * libSQL server is read through one read transaction (a snapshot as of its start) and its rows written
 * into a new embedded file, as copy-db writes them the other way.
 */
import Database from "libsql";
import type { SnapshotDescription, SnapshotRequest } from "./snapshot-worker";
import { copyDatabase } from "./copy";
import { openDb, type Db } from "./db";

export type { SnapshotDescription } from "./snapshot-worker";

/** From source the worker sits beside this file; in the executable it is an entry point of its own (build/compile.ts). */
const WORKER = import.meta.url.startsWith("file:///$bunfs/") ? "./store/snapshot-worker.ts" : new URL("./snapshot-worker.ts", import.meta.url).href;

/** The file behind a `file:` database URL; null for a remote server. */
export function localDatabasePath(url: string): string | null {
  return url.startsWith("file:") ? url.slice(5).split("?")[0]! : null;
}

/**
 * Runs one request on a fresh snapshot thread. `signal` gives up early, but only once the thread has
 * stopped touching files: SQLite's work is one native call that a terminate cannot cut short, so the
 * answer to an abort comes when that call returns (then the caller may delete what it wrote).
 */
function onThread<T>(req: SnapshotRequest, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const worker = new Worker(WORKER);
    const finish = (fn: () => void) => {
      worker.terminate();
      fn();
    };
    worker.onmessage = (e: MessageEvent<{ ok: boolean; error?: string; description?: SnapshotDescription }>) => {
      if (signal?.aborted) return finish(() => reject(signal.reason));
      if (e.data.ok) finish(() => resolve(e.data.description as T));
      else finish(() => reject(new Error(e.data.error ?? "snapshot failed")));
    };
    worker.onerror = (e) => finish(() => reject(signal?.aborted ? signal.reason : new Error(e.message)));
    worker.postMessage(req);
  });
}

/**
 * Writes a consistent copy of the database to `to` (which must not exist). `db` is the open database
 * when there is one (the server's own); otherwise a remote server is opened from `url` for the copy.
 */
export async function snapshotDatabase(source: { url: string; authToken?: string; db?: Db }, to: string, signal?: AbortSignal): Promise<void> {
  const path = localDatabasePath(source.url);
  // a file database opened through @libsql/client (viaClient, tests) takes the remote path below
  if (path && (source.db === undefined || source.db.local)) return onThread<void>({ op: "copy", path, to }, signal);
  const remote = source.db ?? (await openDb(source.url, source.authToken));
  try {
    const target = await openDb(`file:${to}`);
    try {
      await remote.readTransaction((sql) => copyDatabase(sql, target, { signal }));
    } finally {
      target.close();
    }
  } finally {
    if (!source.db) remote.close();
  }
}

/** Schema version, migrations and headline counts of a snapshot file (read on the snapshot thread). */
export const describeSnapshot = (path: string, signal?: AbortSignal) => onThread<SnapshotDescription>({ op: "describe", path }, signal);

/**
 * Checks a restored database file before it is put in place: SQLite's quick check (every page and
 * index entry well-formed) and the schema version its manifest promised. Throws what is wrong.
 */
export async function checkDatabaseFile(path: string, schemaVersion: number): Promise<void> {
  const db = new Database(path);
  try {
    const problems = (db.prepare("PRAGMA quick_check").all() as { quick_check: string }[]).map((r) => r.quick_check);
    if (problems.join() !== "ok") throw new Error(problems.slice(0, 3).join("; "));
    const row = db.prepare("SELECT max(version) AS v FROM schema_migrations").get() as { v: number | null };
    if ((row.v ?? 0) !== schemaVersion) throw new Error(`its schema version is ${row.v}, the manifest says ${schemaVersion}`);
  } finally {
    db.close();
  }
}
