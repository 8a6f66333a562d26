import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../src/store/db";
import { limitMallocArenas, trimNativeHeap } from "../../src/lib/native-memory";
import { loadSharp, setImageThreads } from "../../src/uploads/sharp";

const dir = mkdtempSync(join(tmpdir(), "parley-memory-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("[memory] sqlite_cache_mib sets the page cache of both the read and the write connection", async () => {
  const db = await openDb(`file:${join(dir, "cache.db")}`, undefined, { cacheMib: 3 });
  try {
    expect(await db.get("PRAGMA cache_size")).toEqual({ cache_size: -3072 });
    expect(await db.tx((sql) => sql.get("PRAGMA cache_size"))).toEqual({ cache_size: -3072 });
  } finally {
    db.close();
  }
  // without it, SQLite's own default (2,000 KiB)
  const plain = await openDb(`file:${join(dir, "plain.db")}`);
  try {
    expect(await plain.get("PRAGMA cache_size")).toEqual({ cache_size: -2000 });
  } finally {
    plain.close();
  }
});

test("[memory] image_threads is libvips' concurrency, before and after sharp loads", async () => {
  setImageThreads(2);
  const sharp = await loadSharp();
  expect(sharp.concurrency()).toBe(2);
  setImageThreads(1);
  await Bun.sleep(0);
  expect(sharp.concurrency()).toBe(1);
});

test("on glibc the arena cap and the trim reach malloc; a cap of 0 leaves glibc's default", () => {
  // the development and CI machines are Debian (glibc)
  expect(process.platform).toBe("linux");
  expect(limitMallocArenas(0)).toBe(false);
  expect(limitMallocArenas(8)).toBe(true);
  expect(typeof trimNativeHeap()).toBe("boolean");
});
