#!/usr/bin/env bun
// The send path in-process, for profilers: `bun test/bench/send-profile.ts [N]` (or under
// `bun --cpu-prof`, or `valgrind --tool=callgrind bun ...`). Seeds the bench's setup (a channel with 20
// subscribers, the bench's message), then sends N messages through app.handle with 32 in flight, and does
// the same with the floor (Elysia + one libSQL insert, as baselines.ts) in the same process. No sockets:
// the figures are the server's own work per message, without the HTTP server's share. Then it times the
// notification scan (scan_cpu_us per message), which `parley serve` runs each second beside the sends.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia } from "elysia";
import { createClient } from "@libsql/client";
import { closeApp, openApp } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { createOrganization } from "../../src/actions/organization";
import { createServer } from "../../src/server";
import { scanNewMessages } from "../../src/notify/scan";
import { seedUsers } from "./seed";
import { basic, form } from "./http-api";

const N = Number(process.argv[2] ?? 4000);
const only = process.argv[3]; // "send" | "floor" | undefined (both)
const CONCURRENCY = 32;
const dir = mkdtempSync(join(tmpdir(), "parley-send-profile-"));

/**
 * Sends n requests, 32 in flight; returns the wall, the CPU (user + system, every thread) and the main
 * thread's CPU, in milliseconds. The main thread's is what bounds a server's messages per second on an
 * idle machine (one event loop); the rest is mostly Bun's JIT compiler threads, early in a run.
 */
async function drive(handle: (i: number) => Promise<Response>, n: number): Promise<{ wall: number; cpu: number; main: number }> {
  let next = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const m0 = process.threadCpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const res = await handle(next++);
        if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
  const c = process.cpuUsage(c0);
  const m = process.threadCpuUsage(m0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000, main: (m.user + m.system) / 1000 };
}


async function parley() {
  const config = loadConfig({ dataDir: join(dir, "parley") }, {});
  config.rate_limit.requests_per_minute = 0;
  config.rate_limit.unauthenticated_per_minute = 0;
  const app = await openApp(config, { quiet: true });
  const owner = await createOrganization(app, { name: "Bench", ownerEmail: "owner@bench.test", ownerFullName: "Owner", ownerPassword: null });
  const users = await seedUsers(app, 40);
  const server = createServer(app);
  const post = (auth: string, path: string, body: string) =>
    server.handle(new Request(`http://127.0.0.1/api/v1${path}`, { method: "POST", headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" }, body }));
  const r = await post(basic(owner.email, owner.apiKey), "/users/me/subscriptions", form({ subscriptions: [{ name: "bench" }], principals: users.slice(0, 20).map((u) => u.id) }));
  if (r.status !== 200) throw new Error(await r.text());
  const benchId = (await app.db.get<{ id: number }>("SELECT id FROM streams WHERE name = 'bench'"))!.id;
  const auths = users.slice(0, 20).map((u) => basic(u.email, u.key));
  const body = form({ type: "channel", to: benchId, topic: "load", content: "Hello @**Bench User 3**, how is it going? :smile:" });
  const send = (i: number) => post(auths[i % auths.length]!, "/messages", body);
  await drive(send, 500); // warm-up: JIT, statement caches, the directory
  const ms = await drive(send, N);
  // `parley serve` also runs the notification scan over every sent message (a timer job, off the send
  // path but on the same event loop and CPU): its share per message, measured apart
  const c0 = process.cpuUsage();
  const scanned = await scanNewMessages(app);
  const c = process.cpuUsage(c0);
  await closeApp(app);
  return { ...ms, scanCpu: ((c.user + c.system) / 1000) * (N / scanned) };
}

async function floor() {
  const db = createClient({ url: `file:${dir}/baseline.db`, concurrency: 1 });
  for (const p of ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"]) await db.execute(p);
  await db.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const e = new Elysia().post("/insert", async ({ body }) => {
    const r = await db.execute({ sql: "INSERT INTO t (body) VALUES (?)", args: [String((body as any)?.content ?? "")] });
    return { id: Number(r.lastInsertRowid) };
  });
  const insert = () => e.handle(new Request("http://127.0.0.1/insert", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "content=hello" }));
  await drive(insert, 500);
  const ms = await drive(insert, N);
  db.close();
  return ms;
}

try {
  const none = { wall: 0, cpu: 0, main: 0 };
  const f = only === "send" ? none : await floor();
  const s = only === "floor" ? { ...none, scanCpu: 0 } : await parley();
  const us = (ms: number) => Math.round((ms * 1000) / N);
  const ratio = (a: number, b: number) => (a && b ? Math.round((a / b) * 100) / 100 : null);
  console.log(
    JSON.stringify({ n: N, send_us: us(s.wall), send_cpu_us: us(s.cpu), send_main_cpu_us: us(s.main), scan_cpu_us: us(s.scanCpu), floor_us: us(f.wall), floor_cpu_us: us(f.cpu), floor_main_cpu_us: us(f.main), ratio: ratio(f.wall, s.wall), cpu_ratio: ratio(f.cpu, s.cpu), main_cpu_ratio: ratio(f.main, s.main) }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
// (a checkpoint thread or timer left behind must not hold a profiler's run open)
process.exit(0);
