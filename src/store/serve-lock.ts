// One server per data dir. `parley serve` holds an operating-system lock on DATA_DIR/parley.lock (an
// SQLite file kept in exclusive locking mode, so the lock is SQLite's own fcntl lock): the kernel drops it
// when the process ends, however it ends, so a crash or a SIGKILL never leaves a lock that blocks the
// next start, and a reused process id cannot fool it. Beside it, parley.lock.json says who holds it
// (process id, address), for the message a second start prints.
import { Database } from "bun:sqlite";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unwritable } from "./db";

export interface LockHolder {
  pid: number;
  /** the address it serves, once it listens */
  url?: string;
}

/** Another process serves this data dir. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
  ) {
    const who = holder ? `another Parley (process ${holder.pid}${holder.url ? `, serving ${holder.url}` : ""})` : "another Parley";
    super(`${who} is already using the data dir ${dataDir}; stop it first, or choose another --data-dir`);
  }
}

export interface ServeLock {
  /** Records the address the holder serves (for a second start's message). */
  describe(holder: LockHolder): void;
  release(): void;
}

const infoPath = (dataDir: string) => join(dataDir, "parley.lock.json");

/** Takes the data dir's lock, or throws DataDirBusyError naming the holder. */
export function lockDataDir(dataDir: string): ServeLock {
  let db: Database;
  try {
    mkdirSync(dataDir, { recursive: true });
    db = new Database(join(dataDir, "parley.lock"), { create: true });
  } catch (e) {
    const why = unwritable(dataDir) ?? (e as Error).message;
    throw new Error(`cannot write to the data dir ${dataDir} (${why}). Make it writable, or choose another data dir (--data-dir)`);
  }
  try {
    // EXCLUSIVE locking mode keeps the lock of the first write until the connection closes; no journal file
    db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = OFF; PRAGMA busy_timeout = 0");
    db.exec("BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS lock (pid INTEGER); DELETE FROM lock; INSERT INTO lock VALUES (" + process.pid + "); COMMIT");
  } catch (e) {
    db.close();
    const message = (e as Error).message;
    if (/locked|busy/i.test(message)) throw new DataDirBusyError(dataDir, readHolder(dataDir));
    throw new Error(`cannot lock the data dir ${dataDir}: ${message}`);
  }
  const describe = (holder: LockHolder) => {
    try {
      writeFileSync(infoPath(dataDir), JSON.stringify(holder) + "\n");
    } catch {} // only the message of a second start would miss it
  };
  describe({ pid: process.pid });
  let released = false;
  return {
    describe,
    release() {
      if (released) return;
      released = true;
      rmSync(infoPath(dataDir), { force: true });
      db.close();
    },
  };
}

function readHolder(dataDir: string): LockHolder | null {
  try {
    const h = JSON.parse(readFileSync(infoPath(dataDir), "utf8")) as LockHolder;
    return typeof h.pid === "number" ? h : null;
  } catch {
    return null;
  }
}
