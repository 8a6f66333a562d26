import type { Db } from "./db";

/** A consistent copy of the database while serving (SQLite's VACUUM INTO). */
export const backupDatabase = (db: Db, to: string): Promise<void> => db.backupTo(to);
