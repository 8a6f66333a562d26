// Native parts (libSQL's driver, sharp with libvips) inside the single executable.
//
// `bun src/main.ts` loads them from node_modules as usual. `npm run build` (build/compile.ts) embeds the
// `.node` files and libvips-cpp.so as plain files and rewrites the two package loaders to call
// loadLibsqlAddon / loadSharpAddon below. Those copy the embedded files once into a private cache folder
// (0700, owned by us; never a predictable path in world-writable /tmp) and load them from there, so
// Bun's own extraction to $TMPDIR is never used and TMPDIR may be unset, missing or noexec.
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** One file embedded by the build (see build/compile.ts): its path in the executable and what it must be. */
export interface EmbeddedFile {
  path: string;
  name: string;
  hash: string;
  size: number;
}

/** The cache folder: PARLEY_CACHE_DIR, else $XDG_CACHE_HOME/parley, else ~/.cache/parley. */
export function nativeCacheDir(env: Record<string, string | undefined> = process.env): string {
  if (env.PARLEY_CACHE_DIR) return env.PARLEY_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, "parley");
  const home = env.HOME || homedir();
  if (!home) throw new Error("cannot place native libraries: set PARLEY_CACHE_DIR (or HOME / XDG_CACHE_HOME)");
  return join(home, ".cache", "parley");
}

/** Creates dir (0700) or checks that an existing one is a real directory owned by us, and tightens it to 0700. */
function privateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new Error(`cannot create native cache folder ${dir}: ${(e as Error).message} (set PARLEY_CACHE_DIR)`);
  }
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) {
    throw new Error(`refusing native cache folder ${dir}: not a directory owned by this user (set PARLEY_CACHE_DIR)`);
  }
  if ((st.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

/** The real path of an embedded file, copying it into the cache folder the first time (atomically). */
export function extractEmbedded(file: EmbeddedFile, env: Record<string, string | undefined> = process.env): string {
  const cache = nativeCacheDir(env);
  const dir = join(cache, "native");
  privateDir(cache); // whoever owns a folder can swap what is inside it, so both must be ours
  privateDir(dir);
  const target = join(dir, `${file.hash}-${file.name}`);
  try {
    if (statSync(target).size === file.size) return target;
  } catch {}
  const bytes = readFileSync(file.path);
  if (bytes.length !== file.size) throw new Error(`embedded ${file.name} is ${bytes.length} bytes, expected ${file.size}`);
  const tmp = join(dir, `.${file.name}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  const fd = openSync(tmp, "wx", 0o500);
  try {
    try {
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new Error(`cannot write ${target}: ${(e as Error).message}`);
  }
  // Older builds' copies of the same file are no longer needed (a running process keeps its mapping).
  for (const f of readdirSync(dir)) {
    if (f !== `${file.hash}-${file.name}` && f.endsWith(`-${file.name}`)) {
      try {
        unlinkSync(join(dir, f));
      } catch {}
    }
  }
  return target;
}

function dlopenAddon(path: string): any {
  const module = { exports: {} as any };
  try {
    process.dlopen(module, path);
  } catch (e) {
    throw new Error(`cannot load native library ${path}: ${(e as Error).message} (is the folder on a noexec mount? set PARLEY_CACHE_DIR)`);
  }
  return module.exports;
}

/**
 * Compiled mode only: libSQL's native driver (called by the rewritten node_modules/libsql/index.js while the
 * program's modules load). Without it nothing works, so a failure ends the program with one clear line.
 */
export function loadLibsqlAddon(file: EmbeddedFile): any {
  try {
    return dlopenAddon(extractEmbedded(file));
  } catch (e) {
    process.stderr.write(`parley: ${(e as Error).message}\n`);
    process.exit(1);
  }
}

let libvipsHandle: unknown = null;

/** Compiled mode only: sharp's addon, after loading libvips so the addon's DT_NEEDED soname resolves. */
export function loadSharpAddon(files: { sharp: EmbeddedFile; libvips: EmbeddedFile }): any {
  const libvipsPath = extractEmbedded(files.libvips);
  // A library already loaded satisfies a later DT_NEEDED with its soname, wherever its file lives.
  const { dlopen } = require("bun:ffi") as typeof import("bun:ffi");
  const lib = dlopen(libvipsPath, { vips_version: { args: ["i32"], returns: "i32" } });
  libvipsHandle = lib;
  const version = [0, 1, 2].map((i) => lib.symbols.vips_version(i)).join(".");
  if (!files.libvips.name.endsWith(version)) throw new Error(`embedded libvips reports version ${version}, expected ${files.libvips.name}`);
  const sharp = dlopenAddon(extractEmbedded(files.sharp));
  // sharp's addon answers this probe on every platform, but only the x64 build needs x86-64-v2 (on arm64
  // it says false, and refusing there would fail every upload)
  if (process.arch === "x64" && typeof sharp._isUsingX64V2 === "function" && !sharp._isUsingX64V2()) {
    throw new Error("sharp's prebuilt binary for Linux x64 requires a CPU with the x86-64-v2 microarchitecture");
  }
  return sharp;
}

/** True once libvips has been loaded from the executable (for diagnostics and tests). */
export function embeddedLibvipsLoaded(): boolean {
  return libvipsHandle !== null;
}

let sharpModule: Promise<typeof import("sharp").default> | null = null;

/**
 * sharp's default export, imported on first use (importing it costs 50-60 ms of start-up). The same call
 * works in both modes: in the executable the build has rewritten sharp's loader to loadSharpAddon.
 */
export function loadSharpModule(): Promise<typeof import("sharp").default> {
  sharpModule ??= import("sharp").then((m) => m.default);
  return sharpModule;
}
