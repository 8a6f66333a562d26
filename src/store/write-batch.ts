import type { Db, Sql } from "./db";

/**
 * Group commit: writes queued while a transaction runs are committed together in the next one,
 * each inside its own SAVEPOINT so one failing write rolls back alone. Under concurrency this
 * turns N commits into one; alone it costs the same as db.tx.
 */
class WriteBatcher {
  private queue: { fn: (sql: Sql) => Promise<unknown>; resolve: (v: any) => void; reject: (e: unknown) => void }[] = [];
  private running = false;
  constructor(private readonly db: Db) {}

  run<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve, reject });
      if (!this.running) void this.flush();
    });
  }

  private async flush() {
    this.running = true;
    try {
      while (this.queue.length) {
        const items = this.queue.splice(0, 512);
        const results: { ok: boolean; value: unknown }[] = [];
        try {
          await this.db.tx(async (sql) => {
            if (items.length === 1) {
              results.push({ ok: true, value: await items[0]!.fn(sql) });
              return;
            }
            for (const it of items) {
              await sql.exec("SAVEPOINT batched_write");
              try {
                const value = await it.fn(sql);
                await sql.exec("RELEASE batched_write");
                results.push({ ok: true, value });
              } catch (e) {
                await sql.exec("ROLLBACK TO batched_write; RELEASE batched_write");
                results.push({ ok: false, value: e });
              }
            }
          });
        } catch (e) {
          for (const it of items) it.reject(e);
          continue;
        }
        items.forEach((it, i) => (results[i]!.ok ? it.resolve(results[i]!.value) : it.reject(results[i]!.value)));
      }
    } finally {
      this.running = false;
    }
  }
}

const batchers = new WeakMap<Db, WriteBatcher>();

/** Runs `fn` in a write transaction shared with other batched writes queued meanwhile. */
export function batchedTx<T>(db: Db, fn: (sql: Sql) => Promise<T>): Promise<T> {
  let b = batchers.get(db);
  if (!b) batchers.set(db, (b = new WriteBatcher(db)));
  return b.run(fn);
}
