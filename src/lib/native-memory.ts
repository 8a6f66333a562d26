/**
 * glibc malloc's knobs for native code (libSQL, libvips), which allocates with the C library's malloc
 * (JavaScript's heap and Bun's own allocations are JavaScriptCore's and mimalloc's). By default glibc
 * makes up to 8 arenas per core, one per thread that meets contention, and keeps freed memory in them:
 * resident memory grows under load and stays. MALLOC_ARENA_MAX in the environment only works when set
 * before the process starts, so the limit is set here through mallopt, before the threads that would make
 * new arenas (the checkpoint thread, libvips') start. Elsewhere (musl, macOS, Windows) these do nothing.
 */
const M_ARENA_MAX = -8;

type Libc = { mallopt(param: number, value: number): number; malloc_trim(pad: number): number };
let libc: Libc | null | undefined;

function glibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== "linux") return null;
  try {
    const { dlopen } = require("bun:ffi") as typeof import("bun:ffi");
    const lib = dlopen("libc.so.6", { mallopt: { args: ["i32", "i32"], returns: "i32" }, malloc_trim: { args: ["u64"], returns: "i32" } });
    libc = { mallopt: (p, v) => lib.symbols.mallopt(p, v), malloc_trim: (pad) => lib.symbols.malloc_trim(pad) };
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
