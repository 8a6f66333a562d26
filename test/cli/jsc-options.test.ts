import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jscOptions, jscRestartEnv, restartArgv } from "../../src/lib/jsc-options";
import { ConfigError, loadConfig } from "../../src/config/load";

const MAIN = join(import.meta.dir, "../../src/main.ts");
const root = mkdtempSync(join(tmpdir(), "parley-jsc-options-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("[memory] js_heap_growth and js_ftl_jit", () => {
  test("the growth defaults to 2, may be 0 or from 1.25 to 8; the FTL tier is off by default; a bad value names the key", () => {
    expect(loadConfig({}, {}).memory.js_heap_growth).toBe(2);
    const file = (text: string) => {
      const p = join(root, `c${Math.random().toString(36).slice(2)}.toml`);
      writeFileSync(p, text);
      return p;
    };
    expect(loadConfig({ config: file("[memory]\njs_heap_growth = 0\n") }, {}).memory.js_heap_growth).toBe(0);
    expect(loadConfig({ config: file("[memory]\njs_heap_growth = 1.5\n") }, {}).memory.js_heap_growth).toBe(1.5);
    expect(() => loadConfig({ config: file("[memory]\njs_heap_growth = 1.1\n") }, {})).toThrow(new ConfigError("config key 'memory.js_heap_growth': must be 0 (JavaScriptCore's own sizing) or at least 1.25, got 1.1"));
    expect(() => loadConfig({ config: file("[memory]\njs_heap_growth = 9\n") }, {})).toThrow("config key 'memory.js_heap_growth'");
    expect(() => loadConfig({ config: file("[memory]\njs_heap_growth = -1\n") }, {})).toThrow("config key 'memory.js_heap_growth'");
    expect(loadConfig({}, {}).memory.js_ftl_jit).toBe(false);
    expect(loadConfig({ config: file("[memory]\njs_ftl_jit = true\n") }, {}).memory.js_ftl_jit).toBe(true);
    expect(() => loadConfig({ config: file("[memory]\njs_ftl_jit = \"yes\"\n") }, {})).toThrow("config key 'memory.js_ftl_jit'");
  });

  test("a growth factor sets both of JavaScriptCore's curves (16 GiB and up, and below), and the FTL tier is off unless wanted", () => {
    expect(jscOptions({ js_heap_growth: 2, js_ftl_jit: false })).toEqual({ BUN_JSC_heapGrowthMaxIncrease: "1", BUN_JSC_smallHeapGrowthFactor: "2", BUN_JSC_useFTLJIT: "false" });
    expect(jscOptions({ js_heap_growth: 1.5, js_ftl_jit: true })).toEqual({ BUN_JSC_heapGrowthMaxIncrease: "0.5", BUN_JSC_smallHeapGrowthFactor: "1.5" });
    expect(jscOptions({ js_heap_growth: 0, js_ftl_jit: true })).toEqual({});
  });

  test("the server starts again only while an option is missing from its environment, and an operator's value wins", () => {
    const defaults = { js_heap_growth: 2, js_ftl_jit: false };
    expect(jscRestartEnv(defaults, { PATH: "/bin", HOME: undefined }, "linux")).toEqual({ PATH: "/bin", BUN_JSC_heapGrowthMaxIncrease: "1", BUN_JSC_smallHeapGrowthFactor: "2", BUN_JSC_useFTLJIT: "false" });
    expect(jscRestartEnv(defaults, { BUN_JSC_heapGrowthMaxIncrease: "3" }, "linux")).toEqual({ BUN_JSC_heapGrowthMaxIncrease: "3", BUN_JSC_smallHeapGrowthFactor: "2", BUN_JSC_useFTLJIT: "false" });
    // the second start finds them all
    expect(jscRestartEnv(defaults, { BUN_JSC_heapGrowthMaxIncrease: "3", BUN_JSC_smallHeapGrowthFactor: "2", BUN_JSC_useFTLJIT: "false" }, "linux")).toBeNull();
    expect(jscRestartEnv({ js_heap_growth: 0, js_ftl_jit: true }, {}, "linux")).toBeNull();
    expect(jscRestartEnv(defaults, {}, "win32")).toBeNull();
  });

  test("the same command line starts again: the executable with its arguments, or bun with its flags and the script", () => {
    expect(restartArgv(["bun", "/$bunfs/root/parley", "serve", "--port", "80"], "/usr/local/bin/parley", [])).toEqual(["/usr/local/bin/parley", "serve", "--port", "80"]);
    expect(restartArgv(["/usr/bin/bun", "/srv/parley/src/main.ts", "serve"], "/usr/bin/bun", ["--smol"])).toEqual(["/usr/bin/bun", "--smol", "/srv/parley/src/main.ts", "serve"]);
  });
});

/** Starts `parley serve` from source and returns the options JavaScriptCore saw in the serving process's environment. */
async function servedEnvironment(toml: string, env: Record<string, string> = {}) {
  const dir = join(root, `d${Math.random().toString(36).slice(2)}`);
  const config = join(root, `${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(config, toml);
  const proc = Bun.spawn([process.execPath, MAIN, "serve", "--data-dir", dir, "--port", "0", "--config", config], { stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  try {
    // the line the serving process prints once it listens
    const reader = proc.stdout.getReader();
    let out = "";
    while (!out.includes("listening on")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`serve exited: ${out}${await new Response(proc.stderr).text()}`);
      out += new TextDecoder().decode(value);
    }
    const port = Number(out.match(/listening on 127\.0\.0\.1:(\d+)/)![1]);
    const settings = (await (await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`)).json()) as { result: string };
    const environ = readFileSync(`/proc/${proc.pid}/environ`, "utf8").split("\0");
    return { settings, jsc: environ.filter((l) => l.startsWith("BUN_JSC_")).sort() };
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}

describe.if(process.platform === "linux")("parley serve with JavaScriptCore's options", () => {
  test("by default the serving process (the same process id) runs with the heap growth 2 and no FTL tier", async () => {
    const r = await servedEnvironment("");
    expect(r.settings.result).toBe("success");
    expect(r.jsc).toEqual(["BUN_JSC_heapGrowthMaxIncrease=1", "BUN_JSC_smallHeapGrowthFactor=2", "BUN_JSC_useFTLJIT=false"]);
  }, 30_000);

  test("JavaScriptCore's own choices start once with nothing set, and an operator's option is kept as given", async () => {
    expect((await servedEnvironment("[memory]\njs_heap_growth = 0\njs_ftl_jit = true\n")).jsc).toEqual([]);
    expect((await servedEnvironment("[memory]\njs_heap_growth = 1.5\n", { BUN_JSC_heapGrowthMaxIncrease: "3" })).jsc).toEqual(["BUN_JSC_heapGrowthMaxIncrease=3", "BUN_JSC_smallHeapGrowthFactor=1.5", "BUN_JSC_useFTLJIT=false"]);
  }, 30_000);
});
