import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../src/store/db";

const dir = mkdtempSync(join(tmpdir(), "parley-stmt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a get() after an all() of the same SQL reads the row asked for, not the previous result", async () => {
  const db = await openDb(`file:${join(dir, "t.db")}`);
  try {
    await db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    await db.run("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
    const sql = "SELECT * FROM t WHERE id = ?";
    expect(await db.all(sql, [2])).toEqual([{ id: 2, v: "b" }]);
    expect(await db.get(sql, [1])).toEqual({ id: 1, v: "a" });
    expect(await db.all(sql, [1])).toEqual([{ id: 1, v: "a" }]);
    expect(await db.get(sql, [2])).toEqual({ id: 2, v: "b" });
  } finally {
    db.close();
  }
});

test("lists of every length (a statement each) do not crowd out correctness: a statement dropped from the cache is prepared again", async () => {
  const db = await openDb(`file:${join(dir, "lists.db")}`);
  try {
    await db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    await db.run(`INSERT INTO t VALUES ${Array.from({ length: 400 }, (_, i) => `(${i + 1}, 'v${i + 1}')`).join(", ")}`);
    const inList = (n: number) => `SELECT count(*) AS n, sum(id) AS s FROM t WHERE id IN (${Array(n).fill("?").join(", ")})`;
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    // ~600 KB of SQL text in all: more than the cache holds, so the early ones leave it
    for (let n = 1; n <= 400; n++) expect(await db.get(inList(n), ids(n))).toEqual({ n, s: (n * (n + 1)) / 2 });
    for (const n of [1, 2, 200, 400]) expect(await db.get(inList(n), ids(n))).toEqual({ n, s: (n * (n + 1)) / 2 });
    expect(await db.get("SELECT v FROM t WHERE id = ?", [7])).toEqual({ v: "v7" });
  } finally {
    db.close();
  }
});
