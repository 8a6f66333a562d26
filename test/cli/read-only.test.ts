/**
 * A data dir on a read-only disk at start: `parley serve` exits with code 1 and a message that says
 * what is wrong and what to do, not a stack trace. Skips with a notice where a tmpfs cannot be mounted.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { mountTmpfs } from "../helpers/tmpfs";

const MAIN = join(import.meta.dir, "../../src/main.ts");
const disk = mountTmpfs(16, "the read-only data dir tests (test/cli/read-only.test.ts)");
afterAll(() => disk?.unmount());

function run(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { env: { ...process.env, PARLEY_CONFIG: "" }, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

describe.skipIf(!disk)("a read-only data dir at start", () => {
  test("an initialised data dir, and a new one, are refused with exit code 1 and a clear message", () => {
    const data = join(disk!.path, "data");
    const init = run("init", "--data-dir", data, "--org-name", "Read Only", "--email", "owner@example.com", "--full-name", "Owner");
    expect(init.code).toBe(0);
    disk!.remount("ro");
    try {
      for (const dir of [data, join(disk!.path, "new")]) {
        const r = run("serve", "--data-dir", dir, "--port", "0");
        expect(r.code).toBe(1);
        expect(r.err).toBe(`parley: cannot write to the data dir ${dir} (it is on a read-only file system). Make it writable, or choose another data dir (--data-dir)\n`);
        expect(r.out).toBe("");
      }
      // the other commands that open the database say it the same way
      const r = run("create-user", "--data-dir", data, "--email", "x@example.com", "--full-name", "X");
      expect(r.code).toBe(1);
      expect(r.err).toBe(`parley: cannot write to ${data} (it is on a read-only file system): the database ${data}/parley.db lives there. Make it writable, or choose another data dir (--data-dir)\n`);
    } finally {
      disk!.remount("rw");
    }
    // and once writable again, it serves the same organization (checked without serving: init refuses it)
    expect(run("init", "--data-dir", data, "--org-name", "X", "--email", "x@example.com", "--full-name", "X").err).toContain("is already initialised (organization 'Read Only')");
  });
});
