import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changedRows, openDb, type Db } from "../../src/store/db";
import { migrate, SchemaTooNewError } from "../../src/store/migrate";

for (const mode of ["embedded", "through @libsql/client (the remote path)"] as const) {
  describe(`the database, ${mode}`, () => {
    let db: Db;
    const dir = mkdtempSync(join(tmpdir(), "parley-db-"));
    beforeAll(async () => {
      db = await openDb(`file:${join(dir, "t.db")}`, undefined, { viaClient: mode !== "embedded" });
      await db.exec("CREATE TABLE a (id INTEGER PRIMARY KEY, v TEXT, flag INTEGER); CREATE TABLE b (id INTEGER PRIMARY KEY, v TEXT)");
    });
    afterAll(() => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    });

    describe("basics", () => {
      test("runs in WAL mode with foreign keys on", async () => {
        expect(await db.get("PRAGMA journal_mode")).toEqual({ journal_mode: "wal" });
        expect(await db.get("PRAGMA foreign_keys")).toEqual({ foreign_keys: 1 });
      });

      test("dataVersion moves when another connection commits, not with reads or this process's own writes", async () => {
        if (mode !== "embedded") return void expect(db.dataVersion()).toBeNull();
        const v0 = db.dataVersion()!;
        await db.get("SELECT count(*) AS n FROM a");
        await db.run("INSERT INTO b (v) VALUES ('own')");
        await db.tx((sql) => sql.run("INSERT INTO b (v) VALUES ('own, in a transaction')"));
        expect(db.dataVersion()).toBe(v0);
        const Database = (await import("libsql")).default;
        const other = new Database(join(dir, "t.db"));
        other.exec("PRAGMA busy_timeout = 5000");
        other.prepare("INSERT INTO b (v) VALUES ('from elsewhere')").run();
        other.close();
        const v1 = db.dataVersion()!;
        expect(v1).not.toBe(v0);
        expect(db.dataVersion()).toBe(v1);
      });

      test("rows are plain objects and booleans bind as 0/1", async () => {
        const { lastId } = await db.run("INSERT INTO a (v, flag) VALUES (?, ?)", ["x", true]);
        expect(await db.get("SELECT * FROM a WHERE id = ?", [lastId])).toEqual({ id: lastId, v: "x", flag: 1 });
        expect(await db.all("SELECT v, flag FROM a WHERE flag = ?", [true])).toEqual([{ v: "x", flag: 1 }]);
      });

      test("a transaction that throws leaves nothing behind", async () => {
        const before = await db.all("SELECT * FROM b");
        await expect(
          db.tx(async (sql) => {
            await sql.run("INSERT INTO b (v) VALUES ('doomed')");
            expect(await sql.get("SELECT count(*) AS n FROM b WHERE v = 'doomed'")).toEqual({ n: 1 });
            throw new Error("boom");
          }),
        ).rejects.toThrow("boom");
        expect(await db.all("SELECT * FROM b")).toEqual(before);
      });

      test("reads outside a transaction see only committed data", async () => {
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        const writing = db.tx(async (sql) => {
          await sql.run("INSERT INTO b (v) VALUES ('pending')");
          await gate;
        });
        await Bun.sleep(5);
        expect(await db.get("SELECT count(*) AS n FROM b WHERE v = 'pending'")).toEqual({ n: 0 });
        release();
        await writing;
        expect(await db.get("SELECT count(*) AS n FROM b WHERE v = 'pending'")).toEqual({ n: 1 });
      });

      test("write transactions run one at a time, in order", async () => {
        const order: string[] = [];
        await Promise.all(
          ["one", "two", "three"].map((name) =>
            db.tx(async (sql) => {
              order.push(`start ${name}`);
              await Bun.sleep(2);
              await sql.run("INSERT INTO b (v) VALUES (?)", [name]);
              order.push(`end ${name}`);
            }),
          ),
        );
        expect(order).toEqual(["start one", "end one", "start two", "end two", "start three", "end three"]);
      });
    });

    describe("remembered reads (memo)", () => {
      test("are served from memory until a write to their table commits", async () => {
        let loads = 0;
        const read = () => db.memo(["a"], "count-a", async () => (loads++, (await db.get<{ n: number }>("SELECT count(*) AS n FROM a"))!.n));
        const first = await read();
        expect(await read()).toBe(first);
        expect(loads).toBe(1);
        await db.run("INSERT INTO b (v) VALUES ('other table')");
        await read();
        expect(loads).toBe(1);
        await db.tx((sql) => sql.run("INSERT INTO a (v) VALUES ('new')"));
        expect(await read()).toBe(first + 1);
        expect(loads).toBe(2);
      });

      test("a rolled-back write does not invalidate, and a transaction always reads fresh", async () => {
        let loads = 0;
        const load = async () => (loads++, (await db.get<{ n: number }>("SELECT count(*) AS n FROM a"))!.n);
        await db.memo(["a"], "count-a-2", load);
        await db.tx(async (sql) => sql.run("UPDATE a SET v = v")).catch(() => {});
        const inTx = await db.tx(async (sql) => {
          await sql.run("INSERT INTO a (v) VALUES ('seen inside')");
          return sql.memo(["a"], "count-a-2", () => sql.get<{ n: number }>("SELECT count(*) AS n FROM a").then((r) => r!.n));
        });
        expect(await db.memo(["a"], "count-a-2", load)).toBe(inTx);
      });

      test("deleting a parent row invalidates reads of its cascading children", async () => {
        let loads = 0;
        await db.memo(["subscriptions"], "subs", async () => ++loads);
        await db.exec("CREATE TABLE IF NOT EXISTS streams (id INTEGER PRIMARY KEY)");
        await db.tx((sql) => sql.run("DELETE FROM streams WHERE id = -1"));
        await db.memo(["subscriptions"], "subs", async () => ++loads);
        expect(loads).toBe(2);
      });

      test("changedRows(table) is dropped by updates, deletes, replaces and upserts, not by added rows", async () => {
        await db.exec("CREATE TABLE IF NOT EXISTS c (id INTEGER PRIMARY KEY, v TEXT)");
        let loads = 0;
        const read = () => db.memo([changedRows("c")], "c-rows", async () => ++loads);
        await read();
        await db.run("INSERT INTO c (v) VALUES ('added')");
        await db.run("INSERT OR IGNORE INTO c (id, v) VALUES (1, 'added again')");
        await db.batch([{ sql: "INSERT INTO c (v) VALUES (?)", args: ["batched"] }]);
        expect(await read()).toBe(1);
        const changes = [
          "UPDATE c SET v = 'x' WHERE id = 1",
          "DELETE FROM c WHERE id = 2",
          "INSERT OR REPLACE INTO c (id, v) VALUES (1, 'replaced')",
          "REPLACE INTO c (id, v) VALUES (1, 'replaced')",
          "INSERT INTO c (id, v) VALUES (1, 'upsert') ON CONFLICT (id) DO UPDATE SET v = excluded.v",
        ];
        for (const [i, sql] of changes.entries()) {
          await db.run(sql);
          expect({ sql, loads: await read() }).toEqual({ sql, loads: i + 2 });
        }
        // the table's own name still follows every write, additions included
        let plain = 0;
        await db.memo(["c"], "c-any", async () => ++plain);
        await db.run("INSERT INTO c (v) VALUES ('added')");
        await db.memo(["c"], "c-any", async () => ++plain);
        expect(plain).toBe(2);
      });

      test("keep decides which answers are remembered", async () => {
        let loads = 0;
        const read = (answer: boolean) => db.memo(["a"], "kept", async () => (loads++, answer), (v) => v);
        expect(await read(false)).toBe(false);
        expect(await read(true)).toBe(true); // a "no" was not remembered: read again
        expect(await read(false)).toBe(true); // a "yes" was
        expect(loads).toBe(2);
      });
    });

  });
}

describe("migrations", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-db-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  test("are applied once, each recorded, and a newer database is refused", async () => {
    const other = await openDb(`file:${join(dir, "m.db")}`);
    const m = [
      { version: 1, name: "one", sql: "CREATE TABLE one (id INTEGER)" },
      { version: 2, name: "two", sql: "CREATE TABLE two (id INTEGER)" },
    ];
    expect(await migrate(other, m)).toEqual([1, 2]);
    expect(await migrate(other, m)).toEqual([]);
    expect((await other.all("SELECT version, name FROM schema_migrations")).map((r) => [r.version, r.name])).toEqual([[1, "one"], [2, "two"]]);
    await expect(migrate(other, m.slice(0, 1))).rejects.toBeInstanceOf(SchemaTooNewError);
    other.close();
  });

  test("a migration missing from the record is applied, even below the newest recorded one", async () => {
    const other = await openDb(`file:${join(dir, "g.db")}`);
    const m = [
      { version: 1, name: "one", sql: "CREATE TABLE one (id INTEGER)" },
      { version: 2, name: "two", sql: "CREATE TABLE two (id INTEGER)" },
      { version: 3, name: "three", sql: "CREATE TABLE three (id INTEGER)" },
    ];
    expect(await migrate(other, [m[0]!, m[2]!])).toEqual([1, 3]);
    expect(await migrate(other, m)).toEqual([2]);
    expect((await other.all("SELECT version FROM schema_migrations ORDER BY version")).map((r) => r.version)).toEqual([1, 2, 3]);
    expect((await other.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('one', 'two', 'three') ORDER BY name")).map((r) => r.name)).toEqual(["one", "three", "two"]);
    other.close();
  });

  test("a failing migration rolls back whole and is not recorded", async () => {
    const other = await openDb(`file:${join(dir, "f.db")}`);
    const m = [{ version: 1, name: "bad", sql: "CREATE TABLE ok (id INTEGER); CREATE TABLE ok (id INTEGER)" }];
    await expect(migrate(other, m)).rejects.toThrow();
    expect(await other.all("SELECT name FROM sqlite_master WHERE name = 'ok'")).toEqual([]);
    expect(await other.all("SELECT * FROM schema_migrations")).toEqual([]);
    other.close();
  });
});

describe("closing the embedded database", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-db-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  test("folds the write-ahead log into the file, so the file alone holds every committed row", async () => {
    const db = await openDb(`file:${join(dir, "c.db")}`);
    await db.exec("CREATE TABLE kept (id INTEGER PRIMARY KEY, v TEXT)");
    await db.tx(async (sql) => {
      for (let i = 0; i < 200; i++) await sql.run("INSERT INTO kept (v) VALUES (?)", [`row ${i}`]);
    });
    // reads leave cached statements behind, which keep the connection alive past close()
    expect(await db.get("SELECT count(*) AS n FROM kept")).toEqual({ n: 200 });
    expect(await db.all("SELECT v FROM kept WHERE id <= 2")).toEqual([{ v: "row 0" }, { v: "row 1" }]);
    db.close();
    expect(statSync(join(dir, "c.db-wal"), { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    copyFileSync(join(dir, "c.db"), join(dir, "copy.db"));
    const copy = await openDb(`file:${join(dir, "copy.db")}`);
    expect(await copy.get("SELECT count(*) AS n, max(v) AS last FROM kept")).toEqual({ n: 200, last: "row 99" });
    copy.close();
  });
});
