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
