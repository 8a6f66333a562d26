/**
 * glibc malloc's knobs for native code (libSQL, libvips), which allocates with the C library's malloc
 * (JavaScript's heap and Bun's own allocations are JavaScriptCore's and mimalloc's). By default glibc
 * makes up to 8 arenas per core, one per thread that meets contention, and keeps freed memory in them:
 * resident memory grows under load and stays. MALLOC_ARENA_MAX in the environment only works when set
 * before the process starts, so the limit is set here through mallopt, before the threads that would make
 * new arenas (the checkpoint thread, libvips') start. Elsewhere (musl, macOS, Windows) these do nothing.
 */
const M_ARENA_MAX = -8;

type Libc = { mallopt(param: number, value: number): number; malloc_trim(pad: number): number; madvise(addr: number, len: number, advice: number): number };
let libc: Libc | null | undefined;

function glibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== "linux") return null;
  try {
    const { dlopen } = require("bun:ffi") as typeof import("bun:ffi");
    const lib = dlopen("libc.so.6", {
      mallopt: { args: ["i32", "i32"], returns: "i32" },
      malloc_trim: { args: ["u64"], returns: "i32" },
      // the address as a 64-bit integer: it comes from /proc/self/maps, not from a JS pointer
      madvise: { args: ["u64", "u64", "i32"], returns: "i32" },
    });
    libc = { mallopt: (p, v) => lib.symbols.mallopt(p, v), malloc_trim: (pad) => lib.symbols.malloc_trim(pad), madvise: (a, l, adv) => lib.symbols.madvise(a, l, adv) };
  } catch {
    // not glibc (musl has no libc.so.6 and no arenas to limit)
  }
  return libc;
}

/** At most `max` malloc arenas from now on (0: glibc's default). True when glibc took it. */
export function limitMallocArenas(max: number): boolean {
  if (max <= 0) return false;
  const c = glibc();
  return c ? c.mallopt(M_ARENA_MAX, max) === 1 : false;
}

/** Hands freed native memory at the top of every arena back to the system. True when glibc did. */
export function trimNativeHeap(): boolean {
  const c = glibc();
  return c ? c.malloc_trim(0) === 1 : false;
}

const MADV_PAGEOUT = 21;

/**
 * Hands back the resident pages of the files this process maps (the executable: Bun's machine code, its
 * read-only data, the embedded bytecode; the native libraries) that only it maps, through
 * madvise(MADV_PAGEOUT) (Linux 5.4+). They are clean copies of the files, so nothing is lost: a page used
 * again is read back on its next use. What start-up alone ran (migrations, loading every module, copying
 * the native files out) leaves resident memory; what requests keep using comes back within seconds.
 * Pages written to (relocations, copy-on-write data) are anonymous and stay. Returns the bytes advised.
 */
export function releaseFilePages(maps = readSelfMaps()): number {
  const c = glibc();
  if (!c || !maps) return 0;
  let bytes = 0;
  for (const line of maps.split("\n")) {
    // start-end perms offset dev inode path
    const m = line.match(/^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ (\d+)\s+(\/\S.*)$/);
    if (!m || m[4] === "0" || m[5]!.endsWith(" (deleted)")) continue;
    const start = parseInt(m[1]!, 16);
    const len = parseInt(m[2]!, 16) - start;
    if (c.madvise(start, len, MADV_PAGEOUT) === 0) bytes += len;
  }
  return bytes;
}

function readSelfMaps(): string | null {
  try {
    return require("node:fs").readFileSync("/proc/self/maps", "utf8");
  } catch {
    return null;
  }
}

/**
 * How long after the n-th release of file pages (n from 0: start-up's) the next one comes, in ms, or null
 * for none: a minute after start-up's (the first requests load modules and libraries start-up did not,
 * and a release soon after them finds what only they used); then, only when `periodSeconds` is set,
 * doubling up to every `periodSeconds`.
 */
export function fileReleaseDelayMs(n: number, periodSeconds: number): number | null {
  if (n === 0) return periodSeconds > 0 ? Math.min(60_000, periodSeconds * 1000) : 60_000;
  if (periodSeconds <= 0) return null;
  return Math.min(60_000 * 2 ** Math.min(n, 20), periodSeconds * 1000);
}
