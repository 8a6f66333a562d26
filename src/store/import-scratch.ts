// A string map on disk for an import's lookups that grow with the export (a Slack thread's topic,
// kept until the last reply, which may come years later): a scratch SQLite file in the build folder,
// no journal and no fsync (it is thrown away with the build), a small page cache, so memory stays
// the same however many threads the export holds.
import Database from "libsql";
import { rmSync } from "node:fs";

export interface StringMap {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

export class ScratchStore {
  private readonly db: any;
  private readonly getStmt: any;
  private readonly setStmt: any;

  constructor(readonly path: string) {
    rmSync(path, { force: true });
    this.db = new Database(path);
    this.db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -2048");
    this.db.exec("CREATE TABLE scratch (map TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (map, key)) WITHOUT ROWID");
    // one transaction for the whole import: pages spill to the file when the cache is full
    this.db.exec("BEGIN");
    this.getStmt = this.db.prepare("SELECT value FROM scratch WHERE map = ? AND key = ?");
    this.setStmt = this.db.prepare("INSERT OR REPLACE INTO scratch (map, key, value) VALUES (?, ?, ?)");
  }

  /** A named map inside the store. */
  map(name: string): StringMap {
    return {
      get: (key) => (this.getStmt.get(name, key) as { value: string } | undefined)?.value,
      set: (key, value) => void this.setStmt.run(name, key, value),
    };
  }

  /** Closes and removes the file. */
  dispose() {
    try {
      this.db.close();
    } finally {
      rmSync(this.path, { force: true });
    }
  }
}
