#!/usr/bin/env bun
// npm run soak -- --minutes N: runs Parley (build/parley when it is built, else from source) on a fresh
// data dir and drives mixed traffic at a bounded rate for N minutes: sends to channels and direct
// messages, fetches, presence, edits, reactions, flags, uploads (some of them images, which get
// thumbnails), and every user's long-poll on GET /events. Every minute it prints the server's RSS, its
// open files (/proc/PID/fd), its JS heap and event queues (from its /metrics, on a port of its own) and
// the minute's p50/p99 latency; at the end, how those moved after the
// warm-up (the first minute). Not part of `npm test`. Writes JSON to soak-results/.
// Options: --minutes N (default 10; may be a fraction), --every S (a row every S seconds, default 60),
// --rate R requests per second (default 40), --users U (default 30),
// --exe[=PATH] (an executable; default build/parley when it exists), --source (from source even so),
// --toml TEXT (more config for the server, e.g. '[memory]\nstatement_cache_kib = 8': to try a bound).
// Each row also splits the server's resident memory by where it lives (/proc/PID/smaps: memoryBreakdown).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { closeApp, openApp } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { loadSharp } from "../../src/uploads/sharp";
import { seedUsers } from "../bench/seed";
import { memoryBreakdown } from "./memory";

const ROOT = join(import.meta.dir, "../..");
const arg = (name: string) => {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const a = process.argv[i]!;
  return a.includes("=") ? a.slice(a.indexOf("=") + 1) : (process.argv[i + 1] ?? "");
};
const MINUTES = Number(arg("minutes") ?? 10);
const EVERY_S = Number(arg("every") ?? 60);
const RATE = Number(arg("rate") ?? 40);
const USERS = Number(arg("users") ?? 30);
const MAX_IN_FLIGHT = 32;
const exeArg = process.argv.find((a) => a === "--exe" || a.startsWith("--exe="));
const exePath = exeArg?.startsWith("--exe=") ? resolve(exeArg.slice(6)) : join(ROOT, "build/parley");
const useExe = !process.argv.includes("--source") && existsSync(exePath);
if (!(MINUTES > 0) || !(RATE > 0) || !(USERS >= 3) || !(EVERY_S >= 5)) {
  console.error("usage: npm run soak -- --minutes N [--every S] [--rate R] [--users U] [--exe[=PATH] | --source]");
  process.exit(2);
}
const parleyCmd = (args: string[]) => (useExe ? [exePath, ...args] : [process.execPath, join(ROOT, "src/main.ts"), ...args]);
const log = (msg: string) => process.stderr.write(`[soak] ${msg}\n`);

const dir = mkdtempSync(join(tmpdir(), "parley-soak-"));
const configPath = join(dir, "soak.toml");
const env = { ...process.env, PARLEY_CONFIG: configPath };
const form = (o: Record<string, unknown>) => new URLSearchParams(Object.entries(o).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])).toString();
const basic = (email: string, key: string) => "Basic " + btoa(`${email}:${key}`);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;

async function freePort() {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

// ---------- the server ----------
let base = "";
let server: ReturnType<typeof Bun.spawn>;

/** A few of the server's own figures, from its Prometheus endpoint (its own port). */
let metricsUrl = "";
async function scrape(): Promise<{ js_heap_mib: number; event_queues: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const value = (name: string) => Number(text.match(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, "m"))?.[1] ?? NaN);
  return { js_heap_mib: round(value("nodejs_heap_size_used_bytes") / 1048576, 1), event_queues: value("parley_event_queues") };
}

function serverFigures() {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  const kib = (field: string) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? NaN);
  const size = (p: string) => (existsSync(p) ? statSync(p).size : 0);
  return {
    rss_mib: round(kib("VmRSS") / 1024, 1),
    rss_anon_mib: round(kib("RssAnon") / 1024, 1),
    open_files: readdirSync(`/proc/${server.pid}/fd`).length,
    db_mib: round((size(join(dir, "parley.db")) + size(join(dir, "parley.db-wal"))) / 1048576, 1),
    ...memoryBreakdown(readFileSync(`/proc/${server.pid}/smaps`, "utf8")),
  };
}


// ---------- traffic ----------
interface User {
  id: number;
  email: string;
  auth: string;
  /** recent messages this user sent (for edits and reactions) */
  sent: number[];
}

interface Minute {
  latencies: number[];
  errors: number;
  skipped: number;
  byKind: Record<string, number>;
  events: number;
}
const newMinute = (): Minute => ({ latencies: [], errors: 0, skipped: 0, byKind: {}, events: 0 });
let minute = newMinute();
const errorSamples: string[] = [];

async function call(u: User, method: string, path: string, params: Record<string, unknown> | FormData = {}): Promise<any> {
  const isForm = params instanceof FormData;
  const q = method === "GET" && !isForm ? `?${form(params)}` : "";
  const body = method === "GET" ? undefined : isForm ? params : form(params);
  const headers: Record<string, string> = { authorization: u.auth };
  if (!isForm && method !== "GET") headers["content-type"] = "application/x-www-form-urlencoded";
  const res = await fetch(`${base}/api/v1${path}${q}`, { method, headers, body });
  const json = (await res.json()) as any;
  if (json.result !== "success") throw new Error(`${method} ${path} ${res.status}: ${JSON.stringify(json).slice(0, 200)}`);
  return json;
}

let users: User[] = [];
let channels: { id: number; name: string }[] = [];
/** recent channel messages (anyone may react to those) */
const channelMessages: number[] = [];
const remember = (list: number[], id: number) => {
  list.push(id);
  if (list.length > 50) list.shift();
};
let png: Buffer;
let counter = 0;

/** The mix: [weight, kind, what it does]. */
const MIX: [number, string, (u: User) => Promise<unknown>][] = [
  [28, "send", async (u) => {
    const c = pick(channels);
    const r = await call(u, "POST", "/messages", { type: "stream", to: c.id, topic: `topic ${counter % 12}`, content: `soak ${++counter}: hello @**Bench User ${pick(users).id % USERS}** :smile: **bold** \`code\`` });
    remember(u.sent, r.id);
    remember(channelMessages, r.id);
  }],
  [8, "dm", async (u) => {
    const r = await call(u, "POST", "/messages", { type: "direct", to: [pick(users).id], content: `direct ${++counter}` });
    remember(u.sent, r.id);
  }],
  [20, "fetch", (u) => call(u, "GET", "/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow: [{ operator: "channel", operand: pick(channels).id }], apply_markdown: true })],
  [4, "search", (u) => call(u, "GET", "/messages", { anchor: "newest", num_before: 20, num_after: 0, narrow: [{ operator: "search", operand: "hello" }] })],
  [14, "presence", (u) => call(u, "POST", "/users/me/presence", { status: "active", new_user_input: true, ping_only: false, slim_presence: true })],
  [8, "edit", async (u) => {
    const id = u.sent.at(-1);
    if (id) await call(u, "PATCH", `/messages/${id}`, { content: `edited ${++counter}` });
  }],
  [5, "reaction", async (u) => {
    const id = channelMessages.length ? pick(channelMessages) : undefined;
    if (id) await call(u, "POST", `/messages/${id}/reactions`, { emoji_name: pick(["smile", "heart", "tada", "octopus"]) }).catch((e) => {
      if (!String(e).includes("Reaction already exists.")) throw e;
    });
  }],
  [5, "read", (u) => call(u, "POST", "/mark_all_as_read")],
  [2, "typing", (u) => call(u, "POST", "/typing", { op: "start", type: "direct", to: [pick(users).id] })],
  [4, "upload", async (u) => {
    const f = new FormData();
    const image = counter % 3 === 0;
    f.append("file", image ? new File([new Uint8Array(png)], `picture-${++counter}.png`, { type: "image/png" }) : new File([Buffer.alloc(20_000 + (counter % 50) * 1000, 97)], `notes-${++counter}.txt`));
    const r = await call(u, "POST", "/user_uploads", f);
    await call(u, "POST", "/messages", { type: "stream", to: pick(channels).id, topic: "files", content: `[file](${r.url})` });
  }],
  [2, "register", async (u) => {
    const r = await call(u, "POST", "/register", { event_types: ["message"], fetch_event_types: ["realm_user", "subscription", "message"] });
    await call(u, "DELETE", "/events", { queue_id: r.queue_id });
  }],
];
const TOTAL_WEIGHT = MIX.reduce((n, [w]) => n + w, 0);
function chooseKind() {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const m of MIX) if ((r -= m[0]) < 0) return m;
  return MIX[0]!;
}

let inFlight = 0;
async function oneRequest() {
  if (inFlight >= MAX_IN_FLIGHT) {
    minute.skipped++;
    return;
  }
  inFlight++;
  const [, kind, run] = chooseKind();
  const u = pick(users);
  const t0 = performance.now();
  try {
    await run(u);
    minute.latencies.push(performance.now() - t0);
    minute.byKind[kind] = (minute.byKind[kind] ?? 0) + 1;
  } catch (e) {
    minute.errors++;
    if (errorSamples.length < 20) errorSamples.push(`${kind}: ${(e as Error).message}`);
  } finally {
    inFlight--;
  }
}

/** Each user's long-poll, for as long as the soak runs (re-registering if its queue goes away). */
let running = true;
async function poller(u: User) {
  while (running) {
    try {
      const reg = await call(u, "POST", "/register", { event_types: null, apply_markdown: true, client_capabilities: { notification_settings_null: true, user_settings_object: true } });
      let last = reg.last_event_id;
      while (running) {
        const r = await call(u, "GET", "/events", { queue_id: reg.queue_id, last_event_id: last });
        for (const e of r.events) last = Math.max(last, e.id);
        minute.events += r.events.length;
      }
    } catch (e) {
      if (!running) return;
      if (errorSamples.length < 20) errorSamples.push(`poll: ${(e as Error).message}`);
      await Bun.sleep(1000);
    }
  }
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
function percentile(sorted: number[], p: number) {
  return sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!) : NaN;
}
/** Least-squares slope of ys over 0..n-1 (per minute). */
function slope(ys: number[]) {
  const n = ys.length;
  if (n < 2) return 0;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return round((num / den) * (60 / EVERY_S), 3); // per minute, whatever the row interval
}

async function main() {
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const extra = (arg("toml") ?? "").replaceAll("\\n", "\n");
  writeFileSync(configPath, `[rate_limit]\nrequests_per_minute = 0\nunauthenticated_per_minute = 0\n[metrics]\nenabled = true\nport = ${metricsPort}\n${extra}\n`);
  log(`data dir ${dir}; ${useExe ? `executable ${exePath}` : "from source"}; ${MINUTES} min at ${RATE} req/s, ${USERS} users`);
  const init = Bun.spawnSync(parleyCmd(["init", "--data-dir", dir, "--org-name", "Soak", "--email", "owner@soak.test", "--full-name", "Owner"]), { env });
  if (init.exitCode !== 0) throw new Error(`init failed: ${init.stderr}`);
  const owner = JSON.parse(init.stdout.toString());
  const app = await openApp(loadConfig({ dataDir: dir }, {}), { quiet: true });
  const seeded = await seedUsers(app, USERS);
  await closeApp(app);
  users = seeded.map((s) => ({ id: s.id, email: s.email, auth: basic(s.email, s.key), sent: [] }));
  png = await (await loadSharp())({ create: { width: 64, height: 48, channels: 3, background: "#3366cc" } }).png().toBuffer();

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = Bun.spawn(parleyCmd(["serve", "--data-dir", dir, "--port", String(port)]), { stdout: "ignore", stderr: "inherit", env });
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/api/v1/server_settings`);
      break;
    } catch {
      if (i > 3000) throw new Error("the server never answered");
      await Bun.sleep(5);
    }
  }
  const ownerUser: User = { id: owner.user_id, email: owner.email, auth: basic(owner.email, owner.api_key), sent: [] };
  for (const name of ["general", "random", "files"]) {
    await call(ownerUser, "POST", "/users/me/subscriptions", { subscriptions: [{ name }], principals: users.map((u) => u.id) });
    channels.push({ id: (await call(ownerUser, "GET", "/get_stream_id", { stream: name })).stream_id, name });
  }

  const pollers = users.map((u) => poller(u));
  const idle = serverFigures();
  // the JavaScriptCore options the server runs with ([memory] js_heap_growth, js_ftl_jit: src/lib/jsc-options.ts)
  const jscOptions = readFileSync(`/proc/${server.pid}/environ`, "utf8").split("\0").filter((l) => l.startsWith("BUN_JSC_"));
  log(`serving on ${base}; idle RSS ${idle.rss_mib} MiB, ${idle.open_files} open files; ${jscOptions.join(" ") || "JavaScriptCore's own options"}`);
  console.log("minute  requests  errors  skipped  events   p50 ms   p99 ms   RSS MiB  anon MiB  JS heap MiB  open files  queues  db MiB  | exe code  exe data  files  brk  arenas(n)  mimalloc  jit  other anon");
  const rows: any[] = [];
  const started = performance.now();
  const ticker = setInterval(() => void oneRequest(), 1000 / RATE);
  const ROWS = Math.max(1, Math.round((MINUTES * 60) / EVERY_S));
  for (let m = 1; m <= ROWS; m++) {
    await Bun.sleep(started + m * EVERY_S * 1000 - performance.now());
    const done = minute;
    minute = newMinute();
    const sorted = done.latencies.sort((a, b) => a - b);
    const row = { minute: round((m * EVERY_S) / 60, 2), requests: sorted.length, errors: done.errors, skipped: done.skipped, events: done.events, p50_ms: percentile(sorted, 50), p99_ms: percentile(sorted, 99), ...serverFigures(), ...(await scrape()), by_kind: done.byKind };
    rows.push(row);
    console.log(
      [row.minute, row.requests, row.errors, row.skipped, row.events, row.p50_ms, row.p99_ms, row.rss_mib, row.rss_anon_mib, row.js_heap_mib, row.open_files, row.event_queues, row.db_mib]
        .map((v, i) => String(v).padStart(i === 0 ? 6 : [8, 6, 7, 7, 8, 8, 9, 9, 11, 11, 6, 7][i - 1]!))
        .join("  ") + `  | ${row.exe_code_mib}  ${row.exe_data_mib}  ${row.other_files_mib}  ${row.brk_mib}  ${row.glibc_arenas_mib}(${row.glibc_arena_count})  ${row.mimalloc_mib}  ${row.jit_mib}  ${row.other_anon_mib}`,
    );
  }
  clearInterval(ticker);
  running = false;
  server.kill("SIGTERM");
  const exit = await server.exited;
  await Promise.allSettled(pollers);

  // after the warm-up (the first row): how memory, files and latency moved
  const after = rows.slice(1);
  const summary = {
    date: new Date().toISOString(),
    minutes: MINUTES,
    rate: RATE,
    users: USERS,
    executable: useExe,
    jsc_options: jscOptions,
    idle,
    server_exit_code: exit,
    requests: rows.reduce((n, r) => n + r.requests, 0),
    errors: rows.reduce((n, r) => n + r.errors, 0),
    error_samples: errorSamples,
    after_warm_up: after.length
      ? {
          rss_mib: { first: after[0].rss_mib, last: after.at(-1).rss_mib, min: Math.min(...after.map((r) => r.rss_mib)), max: Math.max(...after.map((r) => r.rss_mib)), slope_per_minute: slope(after.map((r) => r.rss_mib)) },
          rss_anon_mib: { first: after[0].rss_anon_mib, last: after.at(-1).rss_anon_mib, slope_per_minute: slope(after.map((r) => r.rss_anon_mib)) },
          // where the anonymous memory is, first row after the warm-up and last (see memoryBreakdown)
          breakdown_mib: Object.fromEntries(["file_mib", "exe_code_mib", "exe_data_mib", "other_files_mib", "brk_mib", "glibc_arenas_mib", "glibc_arena_count", "other_anon_mib", "mimalloc_mib", "jit_mib"].map((k) => [k, { first: after[0][k], last: after.at(-1)[k] }])),
          js_heap_mib: { first: after[0].js_heap_mib, last: after.at(-1).js_heap_mib, min: Math.min(...after.map((r) => r.js_heap_mib)), max: Math.max(...after.map((r) => r.js_heap_mib)), slope_per_minute: slope(after.map((r) => r.js_heap_mib)) },
          open_files: { min: Math.min(...after.map((r) => r.open_files)), max: Math.max(...after.map((r) => r.open_files)) },
          p99_ms: { first: after[0].p99_ms, last: after.at(-1).p99_ms, min: Math.min(...after.map((r) => r.p99_ms)), max: Math.max(...after.map((r) => r.p99_ms)), slope_per_minute: slope(after.map((r) => r.p99_ms)) },
          p50_ms: { first: after[0].p50_ms, last: after.at(-1).p50_ms, slope_per_minute: slope(after.map((r) => r.p50_ms)) },
          db_mib: { first: after[0].db_mib, last: after.at(-1).db_mib },
        }
      : null,
    rows,
  };
  console.log(JSON.stringify({ ...summary, rows: undefined }, null, 2));
  mkdirSync(join(ROOT, "soak-results"), { recursive: true });
  const out = join(ROOT, "soak-results", `soak-${summary.date.replace(/[:.]/g, "-")}.json`);
  writeFileSync(out, JSON.stringify(summary, null, 2));
  log(`wrote ${out}`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(exit === 0 && summary.errors === 0 ? 0 : 1);
}

await main();
