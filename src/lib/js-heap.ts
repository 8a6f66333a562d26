/**
 * JavaScriptCore sizes its heap from the machine's RAM: from 16 GiB up, after a full collection it lets
 * the heap grow to about 4× what survived before the next (3·e^(-2·heap/RAM) + 1); below 16 GiB (a
 * Raspberry Pi), 2×. So the same server holds about twice the garbage on a big machine as on a small one.
 * `[memory] js_heap_growth` fixes that factor everywhere. JavaScriptCore reads its options once, as the
 * process starts (BUN_JSC_* in the environment; there is no way to set them later), so `parley serve`
 * starts itself again with them set (execve: the same process id and open files, ~20 ms of CPU loading the
 * modules again) unless they are already in its environment: set there by an operator, they win.
 */

/** The JavaScriptCore options for a growth factor (0: none, JavaScriptCore's own sizing). */
export function jsHeapOptions(growth: number): Record<string, string> {
  if (!(growth > 0)) return {};
  return {
    // the big-machine curve: growth - 1 is its increase at a heap that is a tiny part of the RAM
    BUN_JSC_heapGrowthMaxIncrease: String(growth - 1),
    // below 16 GiB: the factor while the process uses less than a quarter of the RAM
    BUN_JSC_smallHeapGrowthFactor: String(growth),
  };
}

/**
 * The environment to start again with, or null when this one will do: no bound wanted, one of the
 * options set already (by an operator, or by the start before this one), or a platform without execve.
 */
export function jsHeapRestartEnv(growth: number, env: Record<string, string | undefined>, platform: string = process.platform): Record<string, string> | null {
  const options = jsHeapOptions(growth);
  const keys = Object.keys(options);
  if (!keys.length || platform === "win32") return null;
  if (keys.some((k) => env[k] !== undefined)) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return { ...out, ...options };
}

/** The command line that starts this same program again (the executable, or bun and the script). */
export function restartArgv(argv: readonly string[], execPath: string, execArgv: readonly string[]): string[] {
  // a compiled executable's argv[1] is its embedded entry point (/$bunfs/…, B:/~BUN/… on Windows), which it adds itself
  const compiled = /^(\/\$bunfs\/|[A-Z]:[\\/]~BUN[\\/])/.test(argv[1] ?? "");
  return compiled ? [execPath, ...argv.slice(2)] : [execPath, ...execArgv, ...argv.slice(1)];
}

/** Replaces this process by the same program with the heap bound set, when it is not set yet. Returns only when it did nothing. */
export function startAgainWithJsHeapBound(growth: number): void {
  const env = jsHeapRestartEnv(growth, process.env);
  if (!env) return;
  const execve = (process as { execve?: (file: string, args: string[], env: Record<string, string>) => never }).execve;
  if (typeof execve !== "function") return;
  execve(process.execPath, restartArgv(process.argv, process.execPath, process.execArgv), env);
}
