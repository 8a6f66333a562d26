import { afterAll, expect, test } from "bun:test";
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileReleaseDelayMs, releaseFilePages } from "../../src/lib/native-memory";

const dir = mkdtempSync(join(tmpdir(), "parley-file-pages-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Resident KiB of this process's mappings of `path`, from /proc/self/smaps. */
function residentKib(path: string): number {
  let kib = 0;
  let inside = false;
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inside = line.endsWith(path);
    else if (inside && line.startsWith("Rss:")) kib += Number(line.match(/(\d+)/)![1]);
  }
  return kib;
}

test("file pages only this process maps are handed back, and read again intact when used", () => {
  const path = join(dir, "pages.bin");
  const bytes = new Uint8Array(4 * 1024 * 1024).map((_, i) => (i * 7) % 251);
  const fd = openSync(path, "w");
  writeSync(fd, bytes);
  fsyncSync(fd); // a dirty page is written back first, not dropped: make them all clean
  closeSync(fd);
  const mapped = Bun.mmap(path, { shared: false });
  let sum = 0;
  for (let i = 0; i < mapped.length; i += 4096) sum += mapped[i]!;
  expect(residentKib(path)).toBeGreaterThanOrEqual(4000);

  const advised = releaseFilePages();
  expect(advised).toBeGreaterThanOrEqual(4 * 1024 * 1024);
  expect(residentKib(path)).toBeLessThan(400);

  // the same bytes come back from the file
  let again = 0;
  for (let i = 0; i < mapped.length; i += 4096) again += mapped[i]!;
  expect(again).toBe(sum);
  expect(Buffer.from(mapped).equals(Buffer.from(bytes))).toBe(true);
});

test("after start-up's release one more comes a minute later; then none, unless a period is set, when they come at doubling intervals up to it", () => {
  expect([0, 1, 2].map((n) => fileReleaseDelayMs(n, 0))).toEqual([60_000, null, null]);
  expect([0, 1, 2, 3, 4, 5].map((n) => fileReleaseDelayMs(n, 600)! / 1000)).toEqual([60, 120, 240, 480, 600, 600]);
  // a period shorter than a minute is kept from the start
  expect(fileReleaseDelayMs(0, 30)).toBe(30_000);
  // a long-running server's count does not overflow the doubling
  expect(fileReleaseDelayMs(5000, 600)).toBe(600_000);
});
