// A `parley` process started from source the way an operator starts it, for tests of what only a real
// process shows: its banner, its log on stderr, signals, locks, sockets.
import { join } from "node:path";

export const MAIN = join(import.meta.dir, "../../src/main.ts");

export interface ServeProcess {
  proc: ReturnType<typeof Bun.spawn>;
  /** http(s)://127.0.0.1:PORT, from the banner */
  base: string;
  /** everything printed on stdout so far (the banner, the first login) */
  stdout(): string;
  /** everything printed on stderr so far (the log) */
  stderr(): string;
  /** SIGTERM, then the exit code */
  stop(): Promise<number>;
}

/** This process's environment with the changes (a key set to undefined is removed). */
function envWith(changes: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, PARLEY_CONFIG: "", ...changes };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env as Record<string, string>;
}

function collect(stream: ReadableStream<Uint8Array>): { text: () => string; done: Promise<void> } {
  let text = "";
  const decoder = new TextDecoder();
  const done = (async () => {
    const reader = stream.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  })();
  return { text: () => text, done };
}

/** Runs `bun src/main.ts ...args` and waits for its banner ("... listening on HOST:PORT ..."). */
export async function startParley(args: string[], opts: { env?: Record<string, string | undefined>; cwd?: string; https?: boolean } = {}): Promise<ServeProcess> {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    cwd: opts.cwd,
    env: envWith(opts.env),
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = collect(proc.stdout as ReadableStream<Uint8Array>);
  const err = collect(proc.stderr as ReadableStream<Uint8Array>);
  const deadline = performance.now() + 15_000;
  let m: RegExpExecArray | null = null;
  while (!(m = /listening on ([^\s,]+):(\d+)/.exec(out.text()))) {
    if (proc.exitCode !== null || performance.now() > deadline) {
      proc.kill("SIGKILL");
      await Promise.all([out.done, err.done]);
      throw new Error(`parley ${args.join(" ")} did not start (exit ${proc.exitCode}):\n${out.text()}\n${err.text()}`);
    }
    await Bun.sleep(10);
  }
  const host = m[1] === "0.0.0.0" ? "127.0.0.1" : m[1];
  return {
    proc,
    base: `${opts.https ? "https" : "http"}://${host}:${m[2]}`,
    stdout: out.text,
    stderr: err.text,
    async stop() {
      proc.kill("SIGTERM");
      const code = await Promise.race([proc.exited, Bun.sleep(10_000).then(() => -1)]);
      if (code === -1) proc.kill("SIGKILL");
      await Promise.all([out.done, err.done]);
      return code;
    },
  };
}

/** Runs `bun src/main.ts ...args` to its end. */
export function runParley(args: string[], opts: { env?: Record<string, string | undefined>; cwd?: string } = {}) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], {
    cwd: opts.cwd,
    env: envWith(opts.env),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}
