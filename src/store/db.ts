import { createClient, type Client, type InArgs, type ResultSet, type Transaction } from "@libsql/client";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Mutex } from "../lib/mutex";

/** What store functions run SQL on: the read connection, or a transaction. */
export interface Sql {
  all<T = Row>(sql: string, args?: InArgs): Promise<T[]>;
  get<T = Row>(sql: string, args?: InArgs): Promise<T | undefined>;
  run(sql: string, args?: InArgs): Promise<{ changes: number; lastId: number }>;
  /** Several statements in one round trip (same transaction semantics as the executor). */
  batch(stmts: { sql: string; args?: InArgs }[]): Promise<ResultSet[]>;
  exec(sql: string): Promise<void>;
}

export type Row = Record<string, any>;

export interface Db extends Sql {
  /** Runs fn in one write transaction. Writes are serialized in-process, so SQLite never waits on a lock. */
  tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  close(): void;
  readonly local: boolean;
}

const PRAGMAS = ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON", "PRAGMA busy_timeout = 5000"];

type Exec = Pick<Client, "execute" | "batch" | "executeMultiple"> | Transaction;

function toObjects<T>(rs: ResultSet): T[] {
  const cols = rs.columns;
  const n = cols.length;
  const out = new Array(rs.rows.length);
  for (let r = 0; r < rs.rows.length; r++) {
    const row = rs.rows[r]!;
    const o: Row = {};
    for (let i = 0; i < n; i++) o[cols[i]!] = row[i];
    out[r] = o;
  }
  return out as T[];
}

function wrap(ex: Exec, batchMode: "write" | "read" | null): Sql {
  return {
    async all<T>(sql: string, args: InArgs = []) {
      return toObjects<T>(await ex.execute({ sql, args }));
    },
    async get<T>(sql: string, args: InArgs = []) {
      return toObjects<T>(await ex.execute({ sql, args }))[0];
    },
    async run(sql: string, args: InArgs = []) {
      const rs = await ex.execute({ sql, args });
      return { changes: rs.rowsAffected, lastId: Number(rs.lastInsertRowid ?? 0) };
    },
    async batch(stmts) {
      return batchMode ? (ex as Client).batch(stmts.map((s) => ({ sql: s.sql, args: s.args ?? [] })), batchMode) : (ex as Transaction).batch(stmts.map((s) => ({ sql: s.sql, args: s.args ?? [] })));
    },
    async exec(sql: string) {
      await ex.executeMultiple(sql);
    },
  };
}

/**
 * Opens the database. A local file gets two single-connection clients: one for reads (sees only
 * committed data) and one for writes. Write transactions are serialized by an in-process mutex, so
 * SQLite never waits on its own lock (a local libSQL call blocks the event loop while it waits).
 * A remote libSQL server uses the same client for both; its transactions run on the server.
 */
export async function openDb(url: string, authToken?: string): Promise<Db> {
  const local = url.startsWith("file:");
  if (local) mkdirSync(dirname(url.slice(5).split("?")[0]!), { recursive: true });
  const options = { url, authToken: authToken || undefined, ...(local ? { concurrency: 1 } : {}) };
  const reader = createClient(options);
  const writer = local ? createClient(options) : reader;
  if (local) for (const c of [writer, reader]) for (const p of PRAGMAS) await c.execute(p);
  const mutex = new Mutex();
  let closed = false;

  function tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    return mutex.run(async () => {
      const t = await writer.transaction("write");
      try {
        const out = await fn(wrap(t, null));
        await t.commit();
        return out;
      } catch (e) {
        await t.rollback().catch(() => {});
        throw e;
      } finally {
        t.close();
      }
    });
  }

  return {
    ...wrap(reader, "write"),
    tx,
    local,
    close() {
      if (closed) return;
      closed = true;
      reader.close();
      if (writer !== reader) writer.close();
    },
  };
}
