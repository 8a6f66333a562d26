import type { Db } from "./db";

/** A consistent copy of the database while serving (SQLite's VACUUM INTO). */
export async function backupDatabase(db: Db, to: string): Promise<void> {
  if (!db.local) throw new Error("backup works on the embedded database; back up a libSQL server with its own tools");
  await db.run("VACUUM INTO ?", [to]);
}
