// Where an import builds: a fresh folder beside the data dir, holding the database, the uploads and
// the zuliprc, renamed into place only when everything is written. A failed or interrupted import
// leaves the data dir as it was (absent or empty); its half-built folder is removed on failure and
// named so that the next run can recognise and clear a crash's leftover.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, rmdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Config } from "../../config/schema";
import { ImportError } from "./problems";

export interface ImportTarget {
  /** the data dir the organization moves into */
  dataDir: string;
  /** the folder being built */
  buildDir: string;
  /** the configuration of the folder being built (database and uploads inside it) */
  config: Config;
  /** Moves the finished build into the data dir. */
  commit(): void;
  /** Removes the build (on failure). */
  abort(): void;
}

/** The build folder of a data dir: a sibling, so the final rename stays on one filesystem. */
export const buildDirOf = (dataDir: string) => join(dirname(resolve(dataDir)), `.${basename(resolve(dataDir))}.import-in-progress`);

/**
 * Refuses (touching nothing) a data dir that is not empty, or a configuration that keeps the
 * database or uploads outside the data dir; otherwise clears a crashed build's leftover and
 * makes a new build folder.
 */
export function prepareTarget(config: Config): ImportTarget {
  const dataDir = resolve(config.data_dir);
  if (existsSync(dataDir)) {
    if (!statSync(dataDir).isDirectory()) throw new ImportError(`${dataDir} is not a folder; nothing was changed`);
    const inside = readdirSync(dataDir);
    if (inside.length) throw new ImportError(`${dataDir} is not empty (it holds ${inside.slice(0, 3).join(", ")}${inside.length > 3 ? ", ..." : ""}); an import needs an empty or new data dir; nothing was changed`);
  }
  if (config.storage.database !== `file:${join(dataDir, "parley.db")}` && config.storage.database !== `file:${join(config.data_dir, "parley.db")}`) {
    throw new ImportError("an import builds the embedded database in the data dir; this configuration sets [storage] database elsewhere");
  }
  if (resolve(config.storage.uploads_dir) !== join(dataDir, "uploads")) {
    throw new ImportError("an import keeps uploads in the data dir's uploads folder; this configuration sets [storage] uploads_dir elsewhere");
  }
  const buildDir = buildDirOf(dataDir);
  // a leftover of an import that crashed: only ever written by an import, never served
  rmSync(buildDir, { recursive: true, force: true });
  mkdirSync(buildDir, { recursive: true });
  const built: Config = {
    ...config,
    data_dir: buildDir,
    storage: { ...config.storage, database: `file:${join(buildDir, "parley.db")}`, uploads_dir: join(buildDir, "uploads") },
  };
  return {
    dataDir,
    buildDir,
    config: built,
    commit() {
      if (existsSync(dataDir)) {
        if (readdirSync(dataDir).length) throw new ImportError(`${dataDir} was written to during the import; the imported organization is left in ${buildDir}`);
        rmdirSync(dataDir);
      }
      renameSync(buildDir, dataDir);
    },
    abort() {
      rmSync(buildDir, { recursive: true, force: true });
    },
  };
}
