import type { Db } from "./db";
import { MIGRATIONS, type Migration } from "./migrations";

export class SchemaTooNewError extends Error {}

/**
 * Applies pending migrations (those not recorded yet), in version order, each in its own transaction;
 * refuses a database newer than this code.
 */
export async function migrate(db: Db, migrations: Migration[] = MIGRATIONS): Promise<number[]> {
  await db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)",
  );
  const recorded = new Set((await db.all<{ version: number }>("SELECT version FROM schema_migrations")).map((r) => r.version));
  const current = Math.max(0, ...recorded);
  const newest = Math.max(0, ...migrations.map((m) => m.version));
  if (current > newest) {
    throw new SchemaTooNewError(
      `the database is at schema version ${current}, newer than this Parley (${newest}); upgrade Parley`,
    );
  }
  const applied: number[] = [];
  for (const m of migrations.filter((m) => !recorded.has(m.version)).sort((a, b) => a.version - b.version)) {
    await db.tx(async (sql) => {
      if (m.sql) await sql.exec(m.sql);
      if (m.run) await m.run(sql);
      await sql.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [m.version, m.name, Date.now() / 1000]);
    });
    applied.push(m.version);
  }
  return applied;
}
