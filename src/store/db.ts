import type { Client, InArgs, Transaction } from "@libsql/client";
import Database from "libsql";
import { accessSync, constants, existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Mutex } from "../lib/mutex";
import { startCheckpointer, type CheckpointerOptions } from "./checkpointer";

type Args = InArgs | unknown[];
type RunResult = { changes: number; lastId: number };

/** What store functions run SQL on: the read connection, or a transaction. */
export interface Sql {
  all<T = Row>(sql: string, args?: Args): Promise<T[]>;
  get<T = Row>(sql: string, args?: Args): Promise<T | undefined>;
  run(sql: string, args?: Args): Promise<RunResult>;
  /** Several statements, in order (inside the transaction, or in one of their own). */
  batch(stmts: { sql: string; args?: Args }[]): Promise<RunResult[]>;
  exec(sql: string): Promise<void>;
  /**
   * A read remembered until a transaction that wrote one of `tables` commits (`changedRows(table)` names
   * only the writes that update or delete its rows). Inside a transaction it always reads (a transaction
   * must see its own writes). `keep` decides which answers are remembered.
   */
  memo<T>(tables: readonly string[], key: string, load: () => Promise<T>, keep?: (value: T) => boolean): Promise<T>;
}

export type Row = Record<string, any>;

export interface Db extends Sql {
  /** Runs fn in one write transaction. Writes are serialized in-process, so SQLite never waits on a lock. */
  tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /** A consistent copy of the embedded database (SQLite's VACUUM INTO), taken while serving. */
  backupTo(path: string): Promise<void>;
  /**
   * Runs fn on one read transaction: every read sees the database as it was when the transaction
   * began (a long copy stays consistent while writes go on). Reads only.
   */
  readTransaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  close(): void;
  readonly local: boolean;
  /**
   * A number that changes whenever another connection (another process, a worker's own connection)
   * commits to the database; this process's writes do not move it (SQLite's data_version, seen from
   * the write connection). Null when the engine cannot tell (a remote server): read what you need.
   */
  dataVersion(): number | null;
}

const BUSY_TIMEOUT_MS = 5000;
const PRAGMAS = ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON", `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`];

/** Tables whose rows go too when a row of the key table is deleted (ON DELETE CASCADE). */
const CASCADES: Record<string, string[]> = {
  streams: ["subscriptions", "default_streams", "user_topics", "default_stream_group_streams"],
  messages: ["user_messages", "reactions", "attachment_messages", "submessages"],
  user_groups: ["user_group_members", "user_group_subgroups"],
  users: ["sessions"],
};
const WRITE = /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+["`]?(\w+)/i;
/** A write that can only add rows: a plain INSERT (OR IGNORE/ABORT/...), no REPLACE, no upsert. */
const ADD_ONLY = /^\s*INSERT(?:\s+OR\s+(?:IGNORE|ABORT|FAIL|ROLLBACK))?\s+INTO\b(?![\s\S]*\bDO\s+UPDATE\b)/i;

/**
 * The pseudo-table a memo lists to be dropped only when rows of `table` are updated or deleted, not
 * when rows are added: "this topic has messages" stays true however many messages are sent.
 */
export const changedRows = (table: string) => `${table} (rows changed)`;

/** The tables (and changedRows pseudo-tables) a statement makes stale; "*" when the pattern cannot name them. */
function writtenTables(sql: string): string[] {
  const m = WRITE.exec(sql);
  if (!m) return ["*"];
  const table = m[1]!.toLowerCase();
  const addOnly = ADD_ONLY.test(sql);
  const out: string[] = [];
  for (const t of [table, ...(CASCADES[table] ?? [])]) {
    out.push(t);
    if (!addOnly) out.push(changedRows(t));
  }
  return out;
}

/**
 * Table versions for the read cache: a committed write to a table makes every remembered read of it
 * stale. A statement the pattern cannot name (multi-statement exec) makes everything stale.
 */
class Versions {
  private readonly byTable = new Map<string, number>();
  private all = 0;
  private readonly memos = new Map<string, { value: unknown; stamp: number }>();

  /**
   * What each statement text writes: the same texts come back, and a send's multi-row INSERTs are KBs
   * long (the patterns scan all of it). Bounded by its texts' length, as the statement cache.
   */
  private readonly writes = new Map<string, string[]>();
  private writesChars = 0;

  written(sql: string, into: Set<string>): void {
    let tables = this.writes.get(sql);
    if (!tables) {
      tables = writtenTables(sql);
      if (this.writesChars + sql.length > STATEMENT_CACHE_CHARS) {
        this.writes.clear();
        this.writesChars = 0;
      }
      this.writes.set(sql, tables);
      this.writesChars += sql.length;
    }
    for (const t of tables) into.add(t);
  }

  bump(tables: Set<string>): void {
    if (tables.has("*")) {
      this.all++;
      this.memos.clear();
      return;
    }
    for (const t of tables) this.byTable.set(t, (this.byTable.get(t) ?? 0) + 1);
  }

  /**
   * One number for the state of `tables`: versions only grow, so their sum (with the global version)
   * changes exactly when one of them does. A number, not a list: memo runs several times per send.
   */
  private stamp(tables: readonly string[]): number {
    let sum = this.all;
    for (const t of tables) sum += this.byTable.get(t) ?? 0;
    return sum;
  }

  async memo<T>(tables: readonly string[], key: string, load: () => Promise<T>, keep?: (value: T) => boolean): Promise<T> {
    const hit = this.memos.get(key);
    const now = this.stamp(tables);
    if (hit && hit.stamp === now) return hit.value as T;
    const value = await load();
    // a write committed while loading: don't remember what may already be old
    if (this.stamp(tables) === now && (!keep || keep(value))) {
      if (this.memos.size > 50_000) this.memos.clear();
      this.memos.set(key, { value, stamp: now });
    }
    return value;
  }
}

/** libSQL's bindings take numbers, strings, bigints, buffers and null: booleans become 0/1. */
function bind(args: Args | undefined): unknown[] {
  if (!args) return [];
  if (!Array.isArray(args)) throw new Error("named SQL arguments are not used in Parley");
  let out: unknown[] | null = null;
  for (let i = 0; i < args.length; i++) {
    const v = args[i];
    if (typeof v === "boolean" || v === undefined) {
      out ??= args.slice();
      out[i] = v === undefined ? null : v ? 1 : 0;
    }
  }
  return out ?? args;
}

/**
 * How much SQL text the statement cache of a connection holds. A prepared statement's native memory
 * grows with its text (~50 KB for an IN list of 250 values), and lists of every length make as many
 * statements: a cache bounded by count alone (it was 2,000) grew by ~50 MB in a 30-minute soak.
 */
const STATEMENT_CACHE_CHARS = 256 * 1024;

/** The embedded engine used directly, with prepared statements cached per connection. */
class LocalConnection {
  /**
   * least recently used first; keyed by the SQL text itself, not by a string built from it per call:
   * the texts come back as the same string objects (literals, the multi-row INSERT caches), whose hash
   * the engine keeps, where a new `method + sql` key of a KB-long INSERT was copied and hashed each time
   */
  private readonly statements = new Map<string, { all?: any; get?: any; run?: any }>();
  private cachedChars = 0;
  /**
   * `cacheChars`: [memory] statement_cache_kib. A statement dropped from the cache keeps its native memory
   * until the garbage collector finds it (libsql has no finalize), which the collector, seeing only a small
   * wrapper, is in no hurry to do: the budget bounds what is live, not yet what is resident.
   */
  constructor(
    readonly db: any,
    private readonly cacheChars = STATEMENT_CACHE_CHARS,
  ) {}

  /**
   * One cached statement per (method, SQL): libsql's Statement.get() right after an all() on the
   * same statement answers the all()'s last row instead of running the query again. A statement
   * dropped from the cache is finalized once the garbage collector finds it.
   */
  private prepare(sql: string, method: "all" | "get" | "run") {
    let entry = this.statements.get(sql);
    if (entry) {
      this.statements.delete(sql);
      this.statements.set(sql, entry);
      const stmt = entry[method];
      if (stmt) return stmt;
    } else {
      this.statements.set(sql, (entry = {}));
    }
    const stmt = (entry[method] = this.db.prepare(sql));
    this.cachedChars += sql.length;
    for (const [old, e] of this.statements) {
      if (this.cachedChars <= this.cacheChars || old === sql) break;
      this.statements.delete(old);
      this.cachedChars -= old.length * ((e.all ? 1 : 0) + (e.get ? 1 : 0) + (e.run ? 1 : 0));
    }
    return stmt;
  }
  all(sql: string, args?: Args) {
    return this.prepare(sql, "all").all(bind(args));
  }
  get(sql: string, args?: Args) {
    const row = this.prepare(sql, "get").get(bind(args));
    if (row) delete row._metadata; // libsql adds query timing to get()'s row
    return row;
  }
  run(sql: string, args?: Args): RunResult {
    const r = this.prepare(sql, "run").run(bind(args));
    return { changes: r.changes, lastId: Number(r.lastInsertRowid ?? 0) };
  }
  exec(sql: string) {
    this.db.exec(sql);
  }
}

function localSql(c: LocalConnection, versions: Versions, written: Set<string> | null, inTx: boolean, batchTx?: (fn: (s: Sql) => Promise<RunResult[]>) => Promise<RunResult[]>): Sql {
  const note = (sql: string) => written && versions.written(sql, written);
  const self: Sql = {
    all: async <T>(sql: string, args?: Args) => c.all(sql, args) as T[],
    get: async <T>(sql: string, args?: Args) => c.get(sql, args) as T | undefined,
    run: async (sql, args) => {
      note(sql);
      return c.run(sql, args);
    },
    batch: async (stmts) => {
      if (!inTx) return batchTx!((s) => s.batch(stmts));
      return stmts.map((s) => {
        note(s.sql);
        return c.run(s.sql, s.args);
      });
    },
    exec: async (sql) => {
      written?.add("*");
      c.exec(sql);
    },
    memo: (tables, key, load, keep) => (inTx ? load() : versions.memo(tables, key, load, keep)),
  };
  return self;
}

function remoteSql(ex: Client | Transaction, versions: Versions, written: Set<string> | null, inTx: boolean): Sql {
  const note = (sql: string) => written && versions.written(sql, written);
  const toArgs = (args?: Args) => (bind(args) as InArgs);
  return {
    async all<T>(sql: string, args?: Args) {
      const rs = await ex.execute({ sql, args: toArgs(args) });
      return rs.rows.map((row) => Object.fromEntries(rs.columns.map((c, i) => [c, row[i]]))) as T[];
    },
    async get<T>(sql: string, args?: Args) {
      return (await this.all<T>(sql, args))[0];
    },
    async run(sql: string, args?: Args) {
      note(sql);
      const rs = await ex.execute({ sql, args: toArgs(args) });
      return { changes: rs.rowsAffected, lastId: Number(rs.lastInsertRowid ?? 0) };
    },
    async batch(stmts) {
      // outside a transaction the batch is one of its own: what it wrote is stale once it returns
      const into = written ?? new Set<string>();
      stmts.forEach((s) => versions.written(s.sql, into));
      const list = stmts.map((s) => ({ sql: s.sql, args: toArgs(s.args) }));
      const results = inTx ? await (ex as Transaction).batch(list) : await (ex as Client).batch(list, "write");
      if (!inTx) versions.bump(into);
      return results.map((rs) => ({ changes: rs.rowsAffected, lastId: Number(rs.lastInsertRowid ?? 0) }));
    },
    async exec(sql: string) {
      written?.add("*");
      await ex.executeMultiple(sql);
      if (!inTx) versions.bump(new Set(["*"]));
    },
    memo: (tables, key, load, keep) => (inTx ? load() : versions.memo(tables, key, load, keep)),
  };
}

/**
 * The database's folder must be writable, and the file too when it exists (SQLite writes its log and
 * the shared-memory index beside it even to read): otherwise a message that says so, instead of
 * SQLite's "Unable to open connection ...: 14" later.
 */
function checkWritable(path: string): void {
  const dir = dirname(path);
  const why = unwritable(dir, path);
  if (why) throw new Error(`cannot write to ${dir} (${why}): the database ${path} lives there. Make it writable, or choose another data dir (--data-dir)`);
}

/** Why `dir` (made if missing), or a `file` in it, cannot be written; null when they can. */
export function unwritable(dir: string, file?: string): string | null {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    if (file && existsSync(file)) accessSync(file, constants.W_OK);
    return null;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "EROFS" ? "it is on a read-only file system" : code === "EACCES" || code === "EPERM" ? "permission denied" : (e as Error).message;
  }
}

function openFile(path: string): Database.Database {
  try {
    return new Database(path);
  } catch (e) {
    throw new Error(`cannot open the database ${path}: ${(e as Error).message}`);
  }
}

/**
 * Opens the database. A local file is used through libSQL's embedded engine directly (the same one
 * @libsql/client wraps), with two connections: one for reads, which sees only committed data, and one
 * for writes, with prepared statements cached on each. Write transactions are serialized by an
 * in-process mutex, so SQLite never waits on its own lock (a local call blocks the event loop while it
 * waits). A remote libSQL server (libsql://, http://) goes through @libsql/client and its transactions.
 */
export async function openDb(url: string, authToken?: string, opts: { viaClient?: boolean; checkpoints?: Partial<CheckpointerOptions>; cacheMib?: number; statementCacheKib?: number } = {}): Promise<Db> {
  // viaClient: a file: URL through @libsql/client, which exercises the remote code path in tests
  const local = url.startsWith("file:") && !opts.viaClient;
  const versions = new Versions();
  const mutex = new Mutex();
  let closed = false;

  if (local) {
    const path = url.slice(5).split("?")[0]!;
    checkWritable(path);
    const statementChars = opts.statementCacheKib ? opts.statementCacheKib * 1024 : undefined;
    const reader = new LocalConnection(openFile(path), statementChars);
    const writer = new LocalConnection(openFile(path), statementChars);
    for (const c of [writer, reader]) for (const p of PRAGMAS) c.exec(p);
    // [memory] sqlite_cache_mib: each connection's page cache (SQLite's own default is 2 MiB), in KiB
    if (opts.cacheMib) for (const c of [writer, reader]) c.exec(`PRAGMA cache_size = -${Math.max(100, Math.round(opts.cacheMib * 1024))}`);
    const checkpointer = startCheckpointer(
      path,
      {
        setAutoCheckpoint: (pages) => writer.exec(`PRAGMA wal_autocheckpoint = ${pages}`),
        checkpoint: () => writer.exec("PRAGMA wal_checkpoint(PASSIVE)"),
        // a burst leaves the log file as long as it grew; once writes are quiet, cut it back to nothing
        truncate: () =>
          void mutex.run(async () => {
            if (closed) return;
            // TRUNCATE waits for readers (another process's backup, say) through the busy handler, which
            // would block the event loop for up to busy_timeout: try once, without waiting
            writer.exec("PRAGMA busy_timeout = 0");
            try {
              writer.exec("PRAGMA wal_checkpoint(TRUNCATE)");
            } catch {
              // the log stays as long as it is until the next quiet spell or close
            } finally {
              writer.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
            }
          }),
      },
      (message) => console.error(`parley: ${message}`),
      opts.checkpoints,
    );

    const tx = <T>(fn: (sql: Sql) => Promise<T>): Promise<T> =>
      mutex.run(async () => {
        const written = new Set<string>();
        writer.exec("BEGIN IMMEDIATE");
        try {
          const out = await fn(localSql(writer, versions, written, true));
          writer.exec("COMMIT");
          versions.bump(written);
          checkpointer.afterCommit();
          return out;
        } catch (e) {
          if (writer.db.inTransaction) writer.exec("ROLLBACK");
          throw e;
        }
      });
    // Writes outside a transaction still take the writer, one at a time, and invalidate on commit.
    const root = localSql(reader, versions, null, false, (fn) => tx(fn));
    // on the writer, whose own commits leave it alone; its own statement in raw mode, kept as long as
    // the connection (~3.5 µs of CPU against ~9.5 µs for a small SELECT on the reader)
    const dataVersion = writer.db.prepare("PRAGMA data_version").raw(true);
    return {
      ...root,
      dataVersion: () => Number(dataVersion.get()[0]),
      run: (sql, args) => tx((s) => s.run(sql, args)),
      exec: (sql) => tx((s) => s.exec(sql)),
      tx,
      local,
      backupTo: async (to) => void reader.run("VACUUM INTO ?", [to]),
      // a connection of its own: the shared reader must keep seeing every commit
      async readTransaction(fn) {
        const c = new LocalConnection(new Database(path));
        try {
          c.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
          c.exec("BEGIN");
          return await fn(localSql(c, versions, null, true));
        } finally {
          if (c.db.inTransaction) c.exec("COMMIT");
          c.db.close();
        }
      },
      close() {
        if (closed) return;
        closed = true;
        checkpointer.close();
        // Cached statements keep the connections open past close() until they are collected, and
        // then SQLite never folds the log back in: copy it into the database file now and empty it,
        // so the file alone is the whole database once the server has stopped.
        try {
          writer.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        } catch {
          // the log stays; SQLite replays it on the next open
        }
        reader.db.close();
        writer.db.close();
      },
    };
  }

  // Loaded only for a remote server: @libsql/client and its HTTP/WebSocket stack cost ~4 MiB resident.
  const { createClient } = await import("@libsql/client");
  const client = createClient({ url, authToken: authToken || undefined, ...(url.startsWith("file:") ? { concurrency: 2 } : {}) });
  if (url.startsWith("file:")) for (const p of PRAGMAS) await client.execute(p);
  const tx = <T>(fn: (sql: Sql) => Promise<T>): Promise<T> =>
    mutex.run(async () => {
      const written = new Set<string>();
      const t = await client.transaction("write");
      try {
        const out = await fn(remoteSql(t, versions, written, true));
        await t.commit();
        versions.bump(written);
        return out;
      } catch (e) {
        await t.rollback().catch(() => {});
        throw e;
      } finally {
        t.close();
      }
    });
  const root = remoteSql(client, versions, null, false);
  return {
    ...root,
    dataVersion: () => null,
    run: (sql, args) => tx((s) => s.run(sql, args)),
    tx,
    local,
    backupTo: async () => {
      throw new Error("backup works on the embedded database; back up a libSQL server with its own tools");
    },
    async readTransaction(fn) {
      const t = await client.transaction("read");
      try {
        return await fn(remoteSql(t, versions, null, true));
      } finally {
        await t.rollback().catch(() => {});
        t.close();
      }
    },
    close() {
      if (closed) return;
      closed = true;
      client.close();
    },
  };
}
