// Tests of the built executable (test/cli/executable.test.ts for this machine, test/cli/arm64.test.ts for
// 64-bit ARM under qemu): building it with build/compile.ts, and one live session against a running server.
import { expect } from "bun:test";
import { chmodSync, copyFileSync, existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import sharp from "sharp";

export const ROOT = join(import.meta.dir, "../..");

/** Runs build/compile.ts (what `npm run build` runs) into a scratch file and copies the result alone to dest. */
export function buildExecutable(dest: string, opts: { entry?: string; target?: string } = {}): void {
  const scratch = join(ROOT, "build/out", `test-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const args = [process.execPath, join(ROOT, "build/compile.ts"), "--outfile", scratch];
  if (opts.entry) args.push("--entry", opts.entry);
  if (opts.target) args.push(`--target=${opts.target}`);
  const b = Bun.spawnSync(args, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  try {
    if (b.exitCode !== 0) throw new Error(`build failed:\n${b.stdout}\n${b.stderr}`);
    copyFileSync(scratch, dest);
    chmodSync(dest, 0o755);
  } finally {
    rmSync(scratch, { force: true });
  }
}

/** Throws unless no folder from dir up to / holds a node_modules (module lookup walks up and would hide a missing part). */
export function assertNoNodeModulesAbove(dir: string): void {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, "node_modules"))) throw new Error(`${d}/node_modules exists: the test would not prove the executable is self-contained`);
    if (d === "/") break;
  }
}

export function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** Polls base until the server answers; returns the milliseconds it took. */
export async function waitUntilServing(base: string, server: { exitCode: number | null; stderr: unknown }, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs && server.exitCode === null) {
    if (await fetch(`${base}/api/v1/server_settings`).then((r) => r.ok, () => false)) return performance.now() - started;
    await Bun.sleep(20);
  }
  throw new Error(`server did not answer within ${timeoutMs} ms (exit code ${server.exitCode}): ${await new Response(server.stderr as ReadableStream).text()}`);
}

/**
 * A user's session with a running server: the owner reads itself, sends a direct message to itself and
 * reads it back rendered, uploads a PNG and downloads it, and gets its thumbnail (made by the embedded
 * sharp with libvips, maybe in the background).
 */
export async function chatSession(base: string, owner: { user_id: number; email: string; api_key: string }, opts: { thumbnailWaitMs?: number } = {}) {
  const auth = { Authorization: `Basic ${btoa(`${owner.email}:${owner.api_key}`)}` };
  const me = (await (await fetch(`${base}/api/v1/users/me`, { headers: auth })).json()) as any;
  expect(me).toMatchObject({ result: "success", user_id: owner.user_id, email: owner.email });

  const sent = await fetch(`${base}/api/v1/messages`, {
    method: "POST",
    headers: auth,
    body: new URLSearchParams({ type: "direct", to: JSON.stringify([owner.user_id]), content: "hello from the executable" }),
  });
  const sentBody = (await sent.json()) as any;
  expect(sentBody).toMatchObject({ result: "success" });
  expect(sentBody.id).toBeGreaterThan(0);
  const fetched = (await (await fetch(`${base}/api/v1/messages?anchor=newest&num_before=5&num_after=0&apply_markdown=true`, { headers: auth })).json()) as any;
  expect(fetched.result).toBe("success");
  expect(fetched.messages.find((m: any) => m.id === sentBody.id)?.content).toBe("<p>hello from the executable</p>");

  const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#3366cc" } }).png().toBuffer();
  const form = new FormData();
  form.append("file", new File([png], "picture.png", { type: "image/png" }));
  const uploaded = (await (await fetch(`${base}/api/v1/user_uploads`, { method: "POST", headers: auth, body: form })).json()) as any;
  expect(uploaded).toMatchObject({ result: "success", filename: "picture.png" });
  expect(uploaded.url).toMatch(/^\/user_uploads\/.+\/picture\.png$/);
  const original = await fetch(`${base}${uploaded.url}`, { headers: auth });
  expect(original.status).toBe(200);
  expect(Buffer.from(await original.arrayBuffer()).equals(png)).toBe(true);

  const thumbUrl = uploaded.url.replace(/^\/user_uploads\//, "/user_uploads/thumbnail/") + "/840x560.webp";
  const until = performance.now() + (opts.thumbnailWaitMs ?? 5_000);
  let thumb = await fetch(`${base}${thumbUrl}`, { headers: auth });
  while (thumb.status !== 200 && performance.now() < until) {
    await Bun.sleep(50); // thumbnails may be made in the background
    thumb = await fetch(`${base}${thumbUrl}`, { headers: auth });
  }
  expect(thumb.status).toBe(200);
  const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
  expect(meta.format).toBe("webp");
  expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(840);
  return { messageId: sentBody.id as number, uploadUrl: uploaded.url as string };
}

/** SIGTERM, then the exit code (or "timeout" after a SIGKILL). */
export async function stop(server: { kill(sig?: string | number): void; exited: Promise<number> }, timeoutMs = 5_000): Promise<number | "timeout"> {
  server.kill("SIGTERM");
  const code = await Promise.race([server.exited, Bun.sleep(timeoutMs).then(() => "timeout" as const)]);
  if (code === "timeout") server.kill("SIGKILL");
  return code;
}
