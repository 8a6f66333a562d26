// The profile behind the executable's bytecode layout (Bun's `bytecodeOrder`): which functions a
// server uses from start to its first requests. build/compile.ts builds once, runs that build through
// recordBytecodeOrder, then builds again with the profile, so the bytecode a start needs lies together
// at the front of the file and the rest is never read (idle RSS ~3 MiB lower, faster start).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const form = (o: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(o).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])).toString();

/**
 * Runs `exe init`, then `exe serve` with BUN_BYTECODE_ORDER_OUT=orderFile, and drives it the way a
 * client starts: server settings, register, a message sent and fetched, an event poll. SIGTERM makes
 * the server exit cleanly, which writes the profile.
 */
export async function recordBytecodeOrder(exe: string, orderFile: string): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "parley-order-"));
  // Everything the run writes stays in the scratch folder, the native-library cache included.
  const env = { ...process.env, PARLEY_CACHE_DIR: join(scratch, "cache"), PARLEY_CONFIG: "", PARLEY_DATA_DIR: join(scratch, "data") };
  let server: ReturnType<typeof Bun.spawn> | null = null;
  try {
    const init = Bun.spawnSync([exe, "init", "--org-name", "Profile", "--email", "owner@profile.invalid", "--full-name", "Owner"], { env, stderr: "pipe" });
    if (init.exitCode !== 0) throw new Error(`init failed: ${init.stderr}`);
    const owner = JSON.parse(init.stdout.toString()) as { user_id: number; email: string; api_key: string };

    server = Bun.spawn([exe, "serve", "--port", "0"], { env: { ...env, BUN_BYTECODE_ORDER_OUT: orderFile }, stdout: "pipe", stderr: "pipe" });
    const stderr = new Response(server.stderr as ReadableStream).text();
    const base = await listeningAddress(server.stdout as ReadableStream<Uint8Array>).catch(async (e) => {
      server?.kill("SIGKILL");
      throw new Error(`${(e as Error).message}\n${await stderr}`);
    });
    const auth = `Basic ${btoa(`${owner.email}:${owner.api_key}`)}`;
    const call = async (method: string, path: string, params: Record<string, unknown> = {}) => {
      const query = method === "GET" ? `?${form(params)}` : "";
      const res = await fetch(`${base}/api/v1${path}${query}`, {
        method,
        headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
        body: method === "GET" ? undefined : form(params),
      });
      const body = (await res.json()) as { result: string; [k: string]: unknown };
      if (body.result !== "success") throw new Error(`${method} ${path}: ${JSON.stringify(body)}`);
      return body;
    };
    await call("GET", "/server_settings");
    const queue = await call("POST", "/register", { event_types: ["message"] });
    await call("POST", "/messages", { type: "direct", to: [owner.user_id], content: "Hello **there**" });
    await call("GET", "/messages", { anchor: "newest", num_before: 20, num_after: 0, narrow: [] });
    await call("GET", "/events", { queue_id: queue.queue_id, last_event_id: -1, dont_block: true });

    server.kill("SIGTERM");
    if ((await server.exited) !== 0) throw new Error(`the profiling server did not stop cleanly:\n${await stderr}`);
    server = null;
    if (!statSync(orderFile, { throwIfNoEntry: false })?.size) throw new Error(`no bytecode profile was written to ${orderFile}`);
  } finally {
    server?.kill("SIGKILL");
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Reads serve's banner ("... listening on HOST:PORT, ...") for the port it chose, then keeps draining stdout. */
async function listeningAddress(stdout: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = setTimeout(() => void reader.cancel().catch(() => {}), 15_000);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const m = /listening on ([^\s,]+):(\d+)/.exec(text);
      if (!m) continue;
      void (async () => {
        while (!(await reader.read()).done);
      })().catch(() => {});
      return `http://${m[1] === "0.0.0.0" ? "127.0.0.1" : m[1]}:${m[2]}`;
    }
  } finally {
    clearTimeout(deadline);
  }
  throw new Error(`the profiling server never said where it listens:\n${text}`);
}
