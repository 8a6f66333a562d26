/**
 * JavaScriptCore's options that bound a server's memory, set from `[memory]`. JavaScriptCore reads its
 * options once, as the process starts (BUN_JSC_* in the environment; there is no way to set them
 * later), so `parley serve` starts itself again with them set (execve: the same process id and open
 * files; ~25 ms more CPU at start, loading the modules again) when one is missing from its environment.
 * One an operator set there wins, and the second start finds them all, so it never starts a third time.
 *
 * - js_heap_growth: JavaScriptCore sizes its heap from the machine's RAM: from 16 GiB up, after a full
 *   collection it lets the heap grow to about 4x what survived before the next (3·e^(-2·heap/RAM) + 1);
 *   below 16 GiB (a Raspberry Pi), 2x. This fixes the factor whatever the RAM.
 * - js_ftl_jit: the fourth and last tier of the JIT (FTL). Its compiler builds large graphs per function
 *   on its own threads, whose memory the allocator keeps, and its code is the largest; off, the
 *   third tier (DFG) is the last.
 */

export interface JscMemoryConfig {
  js_heap_growth: number;
  js_ftl_jit: boolean;
}

/** The JavaScriptCore options for these settings (none for JavaScriptCore's own choices). */
export function jscOptions(c: JscMemoryConfig): Record<string, string> {
  const out: Record<string, string> = {};
  if (c.js_heap_growth > 0) {
    // the big-machine curve: growth - 1 is its increase at a heap that is a tiny part of the RAM
    out.BUN_JSC_heapGrowthMaxIncrease = String(c.js_heap_growth - 1);
    // below 16 GiB: the factor while the process uses less than a quarter of the RAM
    out.BUN_JSC_smallHeapGrowthFactor = String(c.js_heap_growth);
  }
  if (!c.js_ftl_jit) out.BUN_JSC_useFTLJIT = "false";
  return out;
}

/**
 * The environment to start again with, or null when this one will do: every option is there already
 * (from the start before this one, or an operator), none is wanted, or the platform has no execve.
 */
export function jscRestartEnv(c: JscMemoryConfig, env: Record<string, string | undefined>, platform: string = process.platform): Record<string, string> | null {
  const options = jscOptions(c);
  if (platform === "win32" || Object.keys(options).every((k) => env[k] !== undefined)) return null;
  const out: Record<string, string> = { ...options };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/** The command line that starts this same program again (the executable, or bun and the script). */
export function restartArgv(argv: readonly string[], execPath: string, execArgv: readonly string[]): string[] {
  // a compiled executable's argv[1] is its embedded entry point (/$bunfs/…, B:/~BUN/… on Windows), which it adds itself
  const compiled = /^(\/\$bunfs\/|[A-Z]:[\\/]~BUN[\\/])/.test(argv[1] ?? "");
  return compiled ? [execPath, ...argv.slice(2)] : [execPath, ...execArgv, ...argv.slice(1)];
}

/** Replaces this process by the same program with the options set, when one is missing. Returns only when it did nothing. */
export function startAgainWithJscOptions(c: JscMemoryConfig): void {
  const env = jscRestartEnv(c, process.env);
  if (!env) return;
  const execve = (process as { execve?: (file: string, args: string[], env: Record<string, string>) => never }).execve;
  if (typeof execve !== "function") return;
  try {
    execve(process.execPath, restartArgv(process.argv, process.execPath, process.execArgv), env);
  } catch {
    // the program file cannot be run again (replaced or removed since): serve with JavaScriptCore's own choices
  }
}
