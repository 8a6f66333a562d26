import type { Db, Row, Sql } from "./db";
import { markAllIndexed } from "./search-index";

export interface CopyProgress {
  table: string;
  rows: number;
}

const ROWS_PER_TRANSACTION = 5_000;
/** SQLite allows 32,766 bound values per statement; stay well below with wide tables. */
const VALUES_PER_STATEMENT = 8_000;

type SchemaRow = { type: string; name: string; tbl_name: string; sql: string };

export class CopyTargetNotEmptyError extends Error {}

export interface CopyOptions {
  onProgress?: (p: CopyProgress) => void;
  /** rows read and written per transaction (tests make it small to cross pages) */
  rowsPerTransaction?: number;
  /** stops the copy between two pages */
  signal?: AbortSignal;
}

/**
 * Copies a whole database into an empty one, for moving from the embedded file to a libSQL server.
 * The schema is read from the source itself (so it is exactly the source's migration version):
 * tables first, then the rows in creation order (parents before the tables that reference them,
 * each table in key order, a page per transaction), and only then the indexes and triggers, so the
 * rows are loaded without index upkeep and no trigger runs twice (users_copy_realm_defaults would
 * add rows).
 * Full-text indexes are rebuilt from their content tables instead of copying their shadow tables.
 */
export async function copyDatabase(source: Pick<Sql, "all">, target: Db, opts: CopyOptions = {}): Promise<CopyProgress[]> {
  const existing = await target.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' LIMIT 1");
  if (existing.length) throw new CopyTargetNotEmptyError(`the target database is not empty (it has a table '${existing[0]!.name}')`);

  const schema = await source.all<SchemaRow>("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid");
  const virtual = schema.filter((s) => s.type === "table" && /^CREATE\s+VIRTUAL\s+TABLE/i.test(s.sql));
  // An fts5 table keeps its index in shadow tables named after it; CREATE VIRTUAL TABLE makes them.
  const shadow = (name: string) => virtual.some((v) => ["data", "idx", "content", "docsize", "config"].some((suffix) => name === `${v.name}_${suffix}`));
  const tables = schema.filter((s) => s.type === "table" && !s.name.startsWith("sqlite_") && !shadow(s.name));
  const later = schema.filter((s) => (s.type === "index" || s.type === "trigger" || s.type === "view") && !shadow(s.tbl_name));

  await target.tx(async (sql) => {
    for (const t of tables) await sql.run(t.sql);
  });

  const copied: CopyProgress[] = [];
  for (const t of tables) {
    if (virtual.includes(t)) continue;
    const rows = await copyTable(source, target, t.name, opts.rowsPerTransaction ?? ROWS_PER_TRANSACTION, opts.signal);
    const p = { table: t.name, rows };
    copied.push(p);
    opts.onProgress?.(p);
  }

  await target.tx(async (sql) => {
    for (const s of later) await sql.run(s.sql);
    // AUTOINCREMENT counters: ids of deleted newest rows are never given again.
    for (const seq of await source.all<{ name: string; seq: number }>("SELECT name, seq FROM sqlite_sequence").catch(() => [])) {
      const { changes } = await sql.run("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", [seq.seq, seq.name]);
      if (!changes) await sql.run("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", [seq.name, seq.seq]);
    }
    for (const v of virtual) await sql.run(`INSERT INTO "${v.name}" ("${v.name}") VALUES ('rebuild')`);
    // the rebuilt full-text index holds every message: nothing is pending for the background indexer
    if (virtual.some((v) => v.name === "messages_fts")) await markAllIndexed(sql);
  });
  return copied;
}

async function copyTable(source: Pick<Sql, "all">, target: Db, table: string, pageSize: number, signal?: AbortSignal): Promise<number> {
  const info = await source.all<{ name: string; pk: number }>("SELECT name, pk FROM pragma_table_info(?)", [table]);
  const columns = info.map((c) => c.name);
  const withoutRowid = (await source.all("SELECT 1 FROM pragma_table_list WHERE name = ? AND wr = 1", [table])).length > 0;
  // Pages in key order, each starting after the last key of the one before (no OFFSET scans).
  const key = withoutRowid ? info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => `"${c.name}"`) : ["rowid"];
  const list = columns.map((c) => `"${c}"`).join(", ");
  const keyList = key.join(", ");
  const perStatement = Math.max(1, Math.floor(VALUES_PER_STATEMENT / columns.length));
  const one = `(${columns.map(() => "?").join(", ")})`;
  let copied = 0;
  let last: unknown[] | null = null;
  for (;;) {
    signal?.throwIfAborted();
    const where = last ? `WHERE (${keyList}) > (${key.map(() => "?").join(", ")})` : "";
    const page: Row[] = await source.all<Row>(
      `SELECT ${key.map((k, i) => `${k} AS "__key${i}"`).join(", ")}, ${list} FROM "${table}" ${where} ORDER BY ${keyList} LIMIT ?`,
      [...(last ?? []), pageSize],
    );
    if (!page.length) break;
    const tail = page[page.length - 1]!;
    last = key.map((_, i) => tail[`__key${i}`]);
    await target.tx(async (sql) => {
      for (let i = 0; i < page.length; i += perStatement) {
        const part = page.slice(i, i + perStatement);
        await sql.run(`INSERT INTO "${table}" (${list}) VALUES ${part.map(() => one).join(", ")}`, part.flatMap((r) => columns.map((c) => r[c])));
      }
    });
    copied += page.length;
    if (page.length < pageSize) break;
  }
  return copied;
}
