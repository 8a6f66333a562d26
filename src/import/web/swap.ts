// Switching a data dir to an imported organization: the live database (with its -wal and -shm),
// the uploads folder and the zuliprc move aside into a folder of their own, then the imported ones
// move into place. Every step is a rename, listed first in a journal (fsynced), so a crash at any
// point is finished by the next start (finishPendingSwap) before the database is opened: the data
// dir never holds half of one organization and half of the other.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Config } from "../../config/schema";
import { localDatabasePath } from "../../store/snapshot";

/** Where the web import keeps its upload, its build and its journal. */
export const webImportDir = (config: Config) => join(resolve(config.data_dir), "import");

const journalPath = (config: Config) => join(webImportDir(config), "swap.json");

interface Journal {
  /** "out": the live files are moving aside; "in": the imported ones are moving into place */
  phase: "out" | "in";
  /** [live path, imported path, kept-aside path] */
  items: [string, string, string][];
  replacedDir: string;
}

/** Why this configuration cannot switch organizations while serving (null when it can). */
export function swapRefusal(config: Config): string | null {
  const db = localDatabasePath(config.storage.database);
  if (!db) return "An import from the web app needs the embedded database; this server uses a remote libSQL server (import with `parley import` into a new data dir instead).";
  const dataDir = resolve(config.data_dir);
  const device = (p: string) => (existsSync(p) ? statSync(p).dev : statSync(dirname(p)).dev);
  try {
    const dev = statSync(dataDir).dev;
    if (device(resolve(db)) !== dev || device(resolve(config.storage.uploads_dir)) !== dev) {
      return "An import from the web app needs the database and the uploads folder on the data folder's disk.";
    }
  } catch {
    return "The data folder cannot be read.";
  }
  return null;
}

/** The renames that put the organization built in `builtDir` (parley.db, uploads/, zuliprc) in place. */
export function planSwap(config: Config, builtDir: string, stamp: string): Journal {
  const db = resolve(localDatabasePath(config.storage.database)!);
  const replacedDir = join(resolve(config.data_dir), `replaced-by-import-${stamp}`);
  const item = (live: string, built: string, name: string): [string, string, string] => [live, built, join(replacedDir, name)];
  return {
    phase: "out",
    replacedDir,
    items: [
      item(db, join(builtDir, "parley.db"), "parley.db"),
      item(`${db}-wal`, join(builtDir, "parley.db-wal"), "parley.db-wal"),
      item(`${db}-shm`, join(builtDir, "parley.db-shm"), "parley.db-shm"),
      item(resolve(config.storage.uploads_dir), join(builtDir, "uploads"), "uploads"),
      item(join(resolve(config.data_dir), "zuliprc"), join(builtDir, "zuliprc"), "zuliprc"),
    ],
  };
}

/** Runs the renames (the database must be closed). Returns the folder holding the replaced organization. */
export function performSwap(config: Config, journal: Journal): string {
  mkdirSync(journal.replacedDir, { recursive: true });
  writeDurably(journalPath(config), journal);
  runJournal(config, journal);
  return journal.replacedDir;
}

/** At start, before the database opens: finishes a switch a crash cut short. True when there was one. */
export function finishPendingSwap(config: Config): boolean {
  const path = journalPath(config);
  if (!existsSync(path)) return false;
  runJournal(config, JSON.parse(readFileSync(path, "utf8")) as Journal);
  return true;
}

/**
 * Undoes a finished switch whose imported database then failed to open: the imported files go back
 * where they were built, the replaced ones back into place.
 */
export function undoSwap(config: Config, journal: Journal) {
  for (const [live, built, aside] of journal.items) {
    if (existsSync(live)) renameSync(live, built);
    if (existsSync(aside)) renameSync(aside, live);
  }
  syncDir(journal.items.map(([live]) => dirname(live)));
  // a journal left behind would redo the switch at the next start
  rmSync(journalPath(config), { force: true });
}

/** True while a switch is written down but not finished (the next start finishes it). */
export const swapPending = (config: Config) => existsSync(journalPath(config));

function runJournal(config: Config, journal: Journal) {
  const path = journalPath(config);
  if (journal.phase === "out") {
    // each item is in its live place or aside, never both: a repeated run moves what is left
    for (const [live, , aside] of journal.items) if (existsSync(live) && !existsSync(aside)) renameSync(live, aside);
    syncDir([...journal.items.map(([live]) => dirname(live)), journal.replacedDir]);
    journal = { ...journal, phase: "in" };
    writeDurably(path, journal);
  }
  for (const [live, built] of journal.items) {
    if (!existsSync(built)) continue;
    if (existsSync(live)) rmSync(live, { recursive: true, force: true }); // made by nobody but a crash's leftover open
    renameSync(built, live);
  }
  syncDir(journal.items.map(([live]) => dirname(live)));
  rmSync(path, { force: true });
}

function writeDurably(path: string, journal: Journal) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(journal));
  const fd = openSync(tmp, "r");
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, path);
  syncDir([dirname(path)]);
}

/** Makes renames durable (the folder's entries reach the disk). */
function syncDir(dirs: string[]) {
  for (const dir of new Set(dirs)) {
    try {
      const fd = openSync(dir, "r");
      fsyncSync(fd);
      closeSync(fd);
    } catch {
      // a folder that cannot be opened for sync (some filesystems): the rename itself stands
    }
  }
}
