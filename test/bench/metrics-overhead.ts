#!/usr/bin/env bun
// What [metrics] enabled costs per request: the same requests through app.handle (no sockets, so the
// figure is Parley's own work) on two servers in one process, metrics off and metrics on. Rounds
// alternate between them, so a busy machine slows both alike; the medians are printed. (With metrics
// off no hook is added to any request.) Not part of npm test.
//   bun test/bench/metrics-overhead.ts [--rounds=N] [--per-round=N]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeApp, openApp, type App } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { createOrganization } from "../../src/actions/organization";
import { createServer } from "../../src/server";

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const ROUNDS = arg("rounds", 12);
const PER_ROUND = arg("per-round", 1500);
// one at a time: concurrent sends are committed in groups whose sizes vary with timing, which would blur the figure
const CONCURRENCY = 1;

async function start(metrics: boolean) {
  const dir = mkdtempSync(join(tmpdir(), "parley-metrics-bench-"));
  const config = loadConfig({ dataDir: dir }, {});
  config.rate_limit.requests_per_minute = 0;
  config.rate_limit.unauthenticated_per_minute = 0;
  if (metrics) Object.assign(config.metrics, { enabled: true, token: "bench" });
  const app = await openApp(config, { quiet: true });
  const owner = await createOrganization(app, { name: "Bench", ownerEmail: "owner@bench.test", ownerFullName: "Owner", ownerPassword: null });
  const server = createServer(app);
  const auth = "Basic " + btoa(`${owner.email}:${owner.apiKey}`);
  return { app, server, auth, dir, userId: owner.userId };
}

type S = Awaited<ReturnType<typeof start>>;
const scenarios: Record<string, (s: S, i: number) => Request> = {
  "GET /api/v1/users/me": (s) => new Request("http://parley.test/api/v1/users/me", { headers: { authorization: s.auth } }),
  "POST /api/v1/messages (send)": (s, i) =>
    new Request("http://parley.test/api/v1/messages", {
      method: "POST",
      headers: { authorization: s.auth, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ type: "direct", to: JSON.stringify([s.userId]), content: `message ${i}` }),
    }),
};

/**
 * µs of CPU time (the process's user + system) per request for PER_ROUND requests, CONCURRENCY at a
 * time: on a machine shared with other work, wall time swings by tens of percent between rounds.
 */
async function round(s: S, make: (s: S, i: number) => Request): Promise<number> {
  let next = 0;
  const t0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PER_ROUND) {
        const r = await s.server.handle(make(s, next++));
        if (r.status !== 200) throw new Error(`status ${r.status}: ${await r.text()}`);
        await r.arrayBuffer();
      }
    }),
  );
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / PER_ROUND;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const off = await start(false);
const on = await start(true);
try {
  for (const [name, make] of Object.entries(scenarios)) {
    await round(off, make); // warm-up
    await round(on, make);
    const times = { off: [] as number[], on: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      // alternate which goes first, so neither always runs on a warmer cache
      for (const which of r % 2 ? (["on", "off"] as const) : (["off", "on"] as const)) times[which].push(await round(which === "on" ? on : off, make));
    }
    const [a, b] = [median(times.off), median(times.on)];
    console.log(
      `${name}: metrics off ${a.toFixed(1)} µs CPU/request, on ${b.toFixed(1)} µs: ${b - a >= 0 ? "+" : ""}${(b - a).toFixed(1)} µs (${(((b - a) / a) * 100).toFixed(1)}%), median of ${ROUNDS} alternating rounds of ${PER_ROUND}`,
    );
  }
  const text = await (await on.server.handle(new Request("http://parley.test/metrics", { headers: { authorization: "Bearer bench" } }))).text();
  console.log(text.split("\n").filter((l) => l.startsWith("parley_http_requests_total") || l.startsWith("parley_messages_sent_total")).join("\n"));
} finally {
  for (const s of [off, on]) {
    await closeApp(s.app as App);
    rmSync(s.dir, { recursive: true, force: true });
  }
}
