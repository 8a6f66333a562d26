/**
 * A small tmpfs for tests of a full or read-only disk. Mounting needs root (CI runs as root); where
 * it is not permitted the caller skips, and this says so once on stderr.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Tmpfs {
  path: string;
  /** remount read-only or read-write */
  remount(mode: "ro" | "rw"): void;
  unmount(): void;
}

export function mountTmpfs(sizeMib: number, needed: string): Tmpfs | null {
  const path = mkdtempSync(join(tmpdir(), "parley-tmpfs-"));
  const run = (...args: string[]) => {
    try {
      const r = Bun.spawnSync(args, { stdout: "ignore", stderr: "pipe" });
      return { ok: r.exitCode === 0, why: r.stderr.toString().trim().split("\n")[0]! };
    } catch (e) {
      return { ok: false, why: (e as Error).message }; // no mount command at all
    }
  };
  const mounted = run("mount", "-t", "tmpfs", "-o", `size=${sizeMib}m`, "tmpfs", path);
  if (!mounted.ok) {
    rmSync(path, { recursive: true, force: true });
    console.warn(`notice: cannot mount a tmpfs here (${mounted.why || "not permitted"}): skipping ${needed}`);
    return null;
  }
  return {
    path,
    remount(mode) {
      const r = run("mount", "-o", `remount,${mode}`, path);
      if (!r.ok) throw new Error(`remount ${mode} failed: ${r.why}`);
    },
    unmount() {
      run("umount", "-l", path);
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** Writes a file until the filesystem is full; returns its path (delete it to free the space). */
export async function fillDisk(dir: string): Promise<string> {
  const { openSync, writeSync, closeSync } = await import("node:fs");
  const file = join(dir, "filler");
  const fd = openSync(file, "w");
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
  }
  // and the last few bytes: a small block fits where a large one did not
  try {
    for (;;) writeSync(fd, block, 0, 512);
  } catch {}
  closeSync(fd);
  return file;
}
