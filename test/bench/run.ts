#!/usr/bin/env bun
// npm run bench: starts Parley on a fresh data dir, seeds it, drives it from a separate load process on
// loopback, and prints each figure beside the baselines measured in the same run. Writes JSON to
// bench-results/. Options: --exe (use build/parley) or --exe=PATH, --quick (smaller data, shorter runs),
// --only=NAME,..., --profile=DIR (Bun's --cpu-prof of the server from source, one .cpuprofile per start),
// --repeat=N (the send and presence scenarios N times each: the median run, with the spread),
// --metrics (the server runs with [metrics] enabled, to measure what counting every request costs),
// --backlog (the seeded messages are left for the server to index in the background),
// --fetch-client (the broadcast's long-polls through fetch instead of the lean client, raw-http.ts),
// --compare[=FILE] (each figure beside the same figure of a previous results file, default the newest in
// bench-results/, flagging a move beyond that kind of figure's noise: test/bench/compare.ts).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { closeApp, openApp } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { indexPendingMessages } from "../../src/store/search-index";
import { seedMessages, seedUsers, setPassword } from "./seed";
import { webScenario } from "./web";
import { importScenario } from "./import";
import { compareResults, formatComparison, newestPrevious } from "./compare";
import { basic, callApi, form } from "./http-api";

const ROOT = join(import.meta.dir, "../..");
const quick = process.argv.includes("--quick");
// --exe measures build/parley, --exe=PATH another executable (to compare two builds)
const exeArg = process.argv.find((a) => a === "--exe" || a.startsWith("--exe="));
const useExe = exeArg !== undefined;
// --only=send,register runs just those scenarios (names: baselines send webhook event broadcast held fetch search register presence web import;
// start-up and idle memory are always measured, so --only=start measures just them)
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7).split(",");
const wants = (name: string) => !only || only.includes(name);
const SECONDS = quick ? 2000 : 5000;
// each throughput run first runs its requests this long uncounted, the same for Parley and the baselines:
// the figures are the steady state, not the server's JIT compiling its paths (a send's path is far longer
// than a baseline's, so its first seconds cost it more; see What one send costs)
const WARMUP = quick ? 500 : 2000;
// --repeat=3: throughput on a shared VM varies by ±10% between runs; the median of several is steadier
const REPEAT = Math.max(1, Number(process.argv.find((a) => a.startsWith("--repeat="))?.slice(9) ?? 1) || 1);
const MESSAGES = quick ? 100_000 : 1_000_000;
const dir = mkdtempSync(join(tmpdir(), "parley-bench-"));
const withMetrics = process.argv.includes("--metrics");
// --backlog: the seeded messages stay out of the search index, for the start-with-a-backlog case (issue: first search)
const leaveBacklog = process.argv.includes("--backlog");
const results: Record<string, any> = { date: new Date().toISOString(), quick, exe: useExe, metrics: withMetrics, warmup_ms: WARMUP };
const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
// --compare: chosen before this run writes its own file
const compareArg = process.argv.find((a) => a === "--compare" || a.startsWith("--compare="));
const compareWith = (() => {
  if (!compareArg) return null;
  if (compareArg.startsWith("--compare=")) return resolve(compareArg.slice(10));
  const dirPath = join(ROOT, "bench-results");
  const newest = existsSync(dirPath) ? newestPrevious(readdirSync(dirPath)) : null;
  if (!newest) throw new Error("--compare: no previous results in bench-results/ (or name one: --compare=FILE)");
  return join(dirPath, newest);
})();
// the broadcast's 1,000 long-polls: the lean client (raw-http.ts) unless --fetch-client (fetch, as before 2026-11-29)
const broadcastClient = process.argv.includes("--fetch-client") ? "fetch" : "raw";
// start-up is timed several times (wall clock on a shared machine varies a lot): the median
const START_RUNS = quick ? 3 : 5;

const profileDir = process.argv.find((a) => a.startsWith("--profile="))?.slice(10);
const profileArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${resolve(profileDir)}`] : [];
const exePath = exeArg?.startsWith("--exe=") ? resolve(exeArg.slice(6)) : join(ROOT, "build/parley");
const parleyCmd = (args: string[]) => (useExe ? [exePath, ...args] : [process.execPath, ...(args[0] === "serve" ? profileArgs : []), join(ROOT, "src/main.ts"), ...args]);

async function freePort() {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

async function waitUp(url: string, timeoutMs = 15000) {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    try {
      await fetch(url);
      return performance.now() - t0;
    } catch {
      await Bun.sleep(2);
    }
  }
  throw new Error(`${url} never answered`);
}

const statusKiB = (pid: number, field: string) => Number(readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`${field}:\\s+(\\d+)`))![1]);
const rssKiB = (pid: number) => statusKiB(pid, "VmRSS");

/** A throughput scenario REPEAT times: the run with the median rate, and every run's rate. */
async function throughput(scenario: object): Promise<any> {
  const runs: any[] = [];
  for (let i = 0; i < REPEAT; i++) runs.push(await load({ warmupMs: WARMUP, ...scenario }));
  const sorted = [...runs].sort((a, b) => a.per_second - b.per_second);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)], runs: runs.map((r) => r.per_second), total_count: runs.reduce((n, r) => n + r.count, 0) };
}

async function load(scenario: object, onLine?: (line: any) => void): Promise<any> {
  const p = Bun.spawn([process.execPath, join(import.meta.dir, "load.ts"), JSON.stringify(scenario)], {
    stdout: "pipe",
    stderr: "inherit",
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: "20000" },
  });
  let result: any;
  const reader = p.stdout.getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += new TextDecoder().decode(value);
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      if (line.phase === "result") result = line;
      else onLine?.(line);
    }
  }
  await p.exited;
  return result;
}


// ---------- baselines ----------
/**
 * A baseline server: its start to first answer, its idle RSS, its rate with 32 connections, and (for the
 * hello world) one request at a time, the floor of a loopback round trip for the latency figures.
 */
async function baseline(kind: "hello" | "elysia-insert") {
  const port = await freePort();
  const p = Bun.spawn([process.execPath, join(import.meta.dir, "baselines.ts"), kind, String(port), dir], { stdout: "pipe", stderr: "inherit" });
  const startMs = Math.round(await waitUp(`http://127.0.0.1:${port}/`));
  await Bun.sleep(1000);
  const idleRssMib = Math.round(rssKiB(p.pid) / 102.4) / 10;
  const request = kind === "hello" ? { method: "GET", path: "/" } : { method: "POST", path: "/insert", body: "content=hello" };
  const r = await load({ kind: "http", base: `http://127.0.0.1:${port}`, concurrency: 32, durationMs: SECONDS, warmupMs: WARMUP, requests: [request] });
  const sequential = kind === "hello" ? await load({ kind: "http", base: `http://127.0.0.1:${port}`, concurrency: 1, durationMs: SECONDS / 5, requests: [request] }) : undefined;
  // the same through the lean client the broadcast's long-polls use (raw-http.ts)
  const sequentialRaw = kind === "hello" ? await load({ kind: "http", client: "raw", base: `http://127.0.0.1:${port}`, concurrency: 1, durationMs: SECONDS / 5, requests: [request] }) : undefined;
  p.kill();
  await p.exited;
  return { ...r, start_ms: startMs, idle_rss_mib: idleRssMib, ...(sequential ? { sequential_p50_ms: sequential.p50_ms, sequential_p99_ms: sequential.p99_ms } : {}), ...(sequentialRaw ? { sequential_raw_p50_ms: sequentialRaw.p50_ms, sequential_raw_p99_ms: sequentialRaw.p99_ms } : {}) };
}

// ---------- Parley ----------
let server: ReturnType<typeof Bun.spawn> | null = null;
let base = "";

/** CPU time the process has used so far (every thread), in ms: steadier than wall clock on a loaded machine. */
function cpuMs(pid: number): number {
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, "utf8").split(" ")[0]);
    } catch {} // a thread that ended meanwhile
  }
  return ns / 1e6;
}
let lastStartCpuMs = 0;

async function startParley() {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  // the server logs a line per request (the default level, as in production): into a file, not the terminal
  const serverLog = Bun.file(join(dir, `server-${port}.log`));
  server = Bun.spawn(parleyCmd(["serve", "--data-dir", dir, "--port", String(port)]), { stdout: "ignore", stderr: serverLog, env: { ...process.env, PARLEY_CONFIG: join(dir, "bench.toml") } });
  log(`server log: ${serverLog.name} (removed with the data dir at the end)`);
  await waitUp(`${base}/api/v1/server_settings`);
  const wall = performance.now() - t0;
  lastStartCpuMs = cpuMs(server.pid);
  return wall;
}

async function stopParley() {
  server?.kill("SIGTERM");
  await server?.exited;
  server = null;
}

const api = (auth: string, method: string, path: string, params: Record<string, unknown> = {}) => callApi(base, auth, method, path, params);

async function main() {
  const metricsToml = withMetrics ? '[metrics]\nenabled = true\ntoken = "bench"\n' : "";
  writeFileSync(join(dir, "bench.toml"), "[rate_limit]\nrequests_per_minute = 0\nunauthenticated_per_minute = 0\n" + metricsToml);
  log(`data dir ${dir}`);
  if (wants("import")) {
    results.import = await importScenario(quick ? 20_000 : 100_000);
    log(`import: ${JSON.stringify(results.import)}`);
    if (only?.every((n) => n === "import")) return;
  }
  if (wants("baselines")) {
    results.baseline_hello = await baseline("hello");
    log(`baseline hello: ${results.baseline_hello.per_second} req/s`);
    results.baseline_elysia_insert = await baseline("elysia-insert");
    log(`baseline elysia+insert: ${results.baseline_elysia_insert.per_second} req/s`);
  }

  // organization, owner, users
  const init = Bun.spawnSync(parleyCmd(["init", "--data-dir", dir, "--org-name", "Bench", "--email", "owner@bench.test", "--full-name", "Owner"]), { env: { ...process.env, PARLEY_CONFIG: join(dir, "bench.toml") } });
  const owner = JSON.parse(init.stdout.toString());
  const ownerAuth = basic(owner.email, owner.api_key);
  const config = loadConfig({ dataDir: dir }, {});
  const app = await openApp(config, { quiet: true });
  const users = await seedUsers(app, 1000);
  // the web scenario's person logs in with a password, as a browser does
  await setPassword(app, users[0]!.id, WEB_PASSWORD);
  await closeApp(app);
  const auth = (i: number) => basic(users[i]!.email, users[i]!.key);

  // start-up (the median of START_RUNS starts, and the CPU time each used to its first answer) and idle memory
  const starts: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < START_RUNS; i++) {
    if (i > 0) await stopParley();
    starts.push({ wall: await startParley(), cpu: lastStartCpuMs });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  results.start_to_first_answer_ms = Math.round(median(starts.map((s) => s.wall)));
  results.start_cpu_ms = Math.round(median(starts.map((s) => s.cpu)));
  results.start_runs_ms = starts.map((s) => Math.round(s.wall));
  results.start_load_average = round(loadavg()[0]!);
  await Bun.sleep(1000);
  results.idle_rss_mib = Math.round(rssKiB(server!.pid) / 102.4) / 10;
  // Anonymous memory is Parley's own; file-backed pages are the executable's and libraries' code, shared and
  // reclaimable, and their count depends on the kernel's readahead and the page cache (a just-written file
  // maps in larger pieces).
  results.idle_rss_anon_mib = Math.round(statusKiB(server!.pid, "RssAnon") / 102.4) / 10;
  results.idle_rss_file_mib = Math.round(statusKiB(server!.pid, "RssFile") / 102.4) / 10;
  log(`start ${results.start_to_first_answer_ms} ms (median of ${START_RUNS}: ${results.start_runs_ms.join(", ")}; CPU ${results.start_cpu_ms} ms; load ${results.start_load_average}), idle RSS ${results.idle_rss_mib} MiB (anonymous ${results.idle_rss_anon_mib}, file-backed ${results.idle_rss_file_mib})`);

  // channels: "bench" with 20 subscribers, "history" for the fetch/search data, 98 more for register
  await api(ownerAuth, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "bench" }], principals: users.slice(0, 20).map((u) => u.id) });
  // (user 1 only sends the web scenario's new messages there; the seeded history is user 0's)
  await api(ownerAuth, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "history" }], principals: [users[0]!.id, users[1]!.id] });
  for (let c = 0; c < 98; c += 14) {
    const names = Array.from({ length: Math.min(14, 98 - c) }, (_, i) => ({ name: `channel ${c + i}` }));
    await api(ownerAuth, "POST", "/users/me/subscriptions", { subscriptions: names, principals: users.slice(c, c + 50).map((u) => u.id) });
  }
  const benchId = (await api(ownerAuth, "GET", "/get_stream_id", { stream: "bench" })).stream_id;
  const historyId = (await api(ownerAuth, "GET", "/get_stream_id", { stream: "history" })).stream_id;

  // send to a 20-subscriber channel, 32 concurrent senders (the 20 subscribers take turns)
  if (wants("send")) results.send_20_subscribers = await throughput({
    kind: "http",
    base,
    concurrency: 32,
    durationMs: SECONDS,
    auths: users.slice(0, 20).map((_, i) => auth(i)),
    requests: [{ method: "POST", path: "/api/v1/messages", body: form({ type: "channel", to: benchId, topic: "load", content: "Hello @**Bench User 3**, how is it going? :smile:" }) }],
  });
  if (results.send_20_subscribers) log(`send: ${results.send_20_subscribers.per_second} msg/s p99 ${results.send_20_subscribers.p99_ms} ms`);

  // incoming webhooks into the same channel, the key in the URL as tools send it (issue 24: ≥ 0.8× the
  // send rate): a Slack-format post of the send scenario's own text (like for like), then a GitHub push
  // of two commits (its message, a list of links, costs more to render than the send's line)
  if (wants("webhook")) {
    const hook = await api(ownerAuth, "POST", "/bots", { full_name: "Bench Hook", short_name: "benchhook", bot_type: 2 });
    results.webhook_same_text = await throughput({
      kind: "http",
      base,
      concurrency: 32,
      durationMs: SECONDS,
      requests: [{ method: "POST", path: `/api/v1/external/slack_incoming?api_key=${hook.api_key}&stream=${benchId}&topic=load`, headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "Hello @**Bench User 3**, how is it going? :smile:" }) }],
    });
    log(`webhook (send's text): ${results.webhook_same_text.per_second} req/s p99 ${results.webhook_same_text.p99_ms} ms`);
    results.webhook_github_push = await throughput({
      kind: "http",
      base,
      concurrency: 32,
      durationMs: SECONDS,
      requests: [{ method: "POST", path: `/api/v1/external/github?api_key=${hook.api_key}&stream=${benchId}`, headers: { "content-type": "application/json", "x-github-event": "push" }, body: JSON.stringify(githubPush()) }],
    });
    log(`webhook: ${results.webhook_github_push.per_second} req/s p99 ${results.webhook_github_push.p99_ms} ms`);
  }

  // send → the recipient's pending GET /events, with 1,000 queues connected
  if (wants("event")) results.send_to_event = await load({
    kind: "events-latency",
    base,
    samples: quick ? 100 : 300,
    sender: { auth: auth(1), body: form({ type: "direct", to: [users[2]!.id], content: "ping {i}" }) },
    watcher: { auth: auth(2) },
    idle: { auths: users.slice(3, 1000).map((_, i) => auth(i + 3)), count: 1000 },
  });
  if (results.send_to_event) log(`send→event: p50 ${results.send_to_event?.p50_ms} ms p99 ${results.send_to_event?.p99_ms} ms`);

  // one message to the "bench" channel → 1,000 pending GET /events (its 20 subscribers × 50 queues), from send start
  // (with the server's CPU time per send, its answers to the 1,000 long-polls included: steadier than
  // the latency on a shared machine)
  if (wants("broadcast")) {
    let cpu0 = 0;
    let cpu = 0;
    const r = await load(
      {
        kind: "broadcast",
        base,
        samples: quick ? 20 : 50,
        client: broadcastClient,
        sender: { auth: auth(0), body: form({ type: "channel", to: benchId, topic: "broadcast", content: "broadcast {i}" }) },
        watchers: { auths: users.slice(0, 20).map((_, i) => auth(i)), perUser: 50 },
      },
      (line) => {
        if (line.phase === "sampling") cpu0 = cpuMs(server!.pid);
        if (line.phase === "sampled") cpu = cpuMs(server!.pid) - cpu0;
      },
    );
    results.broadcast = { ...r, server_cpu_ms_per_send: round(cpu / r.sends) };
    log(`broadcast: p50 ${r.p50_ms} ms p99 ${r.p99_ms} ms (${r.count} deliveries, ${r.lost} lost), server CPU ${results.broadcast.server_cpu_ms_per_send} ms per send, load process CPU ${r.load_cpu_ms_per_send} ms per send; all 1,000 answered after p50 ${r.last_answer?.p50_ms} ms, p90 ${r.last_answer?.p90_ms} ms, max ${r.last_answer?.max_ms} ms`);
  }

  // presence updates
  if (wants("presence")) results.presence = await throughput({
    kind: "http",
    base,
    concurrency: 32,
    durationMs: SECONDS,
    auths: users.slice(0, 200).map((_, i) => auth(i)),
    requests: [{ method: "POST", path: "/api/v1/users/me/presence", body: form({ status: "active", ping_only: true }) }],
  });
  if (results.presence) log(`presence: ${results.presence?.per_second} req/s`);

  // register in an org of 1,000 users and 100 channels (sequential requests): a user in 14 channels,
  // and (for information) one of the "bench" subscribers, who now has every message sent above unread
  const registerAs = (i: number) =>
    load({ kind: "http", base, concurrency: 1, durationMs: SECONDS, auths: [auth(i)], requests: [{ method: "POST", path: "/api/v1/register", body: "" }] });
  if (wants("register")) {
    results.register = await registerAs(30);
    if (results.send_20_subscribers) results.register_many_unread = { ...(await registerAs(5)), unread: results.send_20_subscribers.total_count };
  }
  if (results.register) log(`register: p50 ${results.register?.p50_ms} ms`);

  // 10,000 concurrent waiting GET /events: RSS above idle
  if (wants("held")) await heldPolls(users.map((_, i) => auth(i)));
  if (wants("fetch") || wants("search") || wants("web")) await fetchAndSearch(config, users, historyId, auth);
}

async function heldPolls(auths: string[]) {
  await stopParley();
  await startParley();
  await Bun.sleep(500);
  const idleRss = rssKiB(server!.pid);
  let registeredRss = 0;
  let heldRss = 0;
  const held = quick ? 2000 : 10_000;
  await load({ kind: "held-polls", base, polls: { auths, count: held }, holdMs: 4000 }, (line) => {
    if (line.phase === "registered") registeredRss = rssKiB(server!.pid);
    if (line.phase === "held") heldRss = rssKiB(server!.pid);
  });
  results.held_polls = { held, idle_rss_mib: round(idleRss / 1024), rss_mib: round(heldRss / 1024), kib_each_above_idle: round((heldRss - idleRss) / held), queues_only_kib_each: round((registeredRss - idleRss) / held) };
  log(`held polls: ${JSON.stringify(results.held_polls)}`);
}

/** A million messages, then the newest 100 of a topic, a full-text search, and the web app over them. */
async function fetchAndSearch(config: ReturnType<typeof loadConfig>, users: { id: number; email: string }[], historyId: number, auth: (i: number) => string) {
  await stopParley();
  const app = await openApp(config, { quiet: true });
  const t0 = performance.now();
  await seedMessages(app, { streamId: historyId, senderId: users[0]!.id, readers: [users[0]!.id], count: MESSAGES, topics: 1000 });
  results.seed_seconds = round((performance.now() - t0) / 1000);
  // a server indexes what it is sent (and an import builds its index): index the seeded rows too, so the
  // scenarios do not run beside the background pass that catches up a backlog; --backlog leaves them pending
  if (!leaveBacklog) {
    const t1 = performance.now();
    while ((await app.db.tx((sql) => indexPendingMessages(sql, 20_000))) === 20_000);
    results.seed_index_seconds = round((performance.now() - t1) / 1000);
  }
  await closeApp(app);
  log(`seeded ${MESSAGES} messages in ${results.seed_seconds} s${leaveBacklog ? " (left unindexed: --backlog)" : `, indexed in ${results.seed_index_seconds} s`}`);
  await startParley();
  if (wants("fetch")) results.fetch_topic_newest_100 = await load({
    kind: "http",
    base,
    concurrency: 1,
    durationMs: SECONDS,
    auths: [auth(0)],
    requests: [{ method: "GET", path: `/api/v1/messages?${form({ anchor: "newest", num_before: 100, num_after: 0, narrow: [{ operator: "channel", operand: historyId }, { operator: "topic", operand: "hot" }] })}` }],
  });
  if (results.fetch_topic_newest_100) log(`fetch: p50 ${results.fetch_topic_newest_100.p50_ms} ms`);
  if (wants("search")) results.search = await load({
    kind: "http",
    base,
    concurrency: 1,
    durationMs: SECONDS,
    auths: [auth(0)],
    requests: [{ method: "GET", path: `/api/v1/messages?${form({ anchor: "newest", num_before: 20, num_after: 0, narrow: [{ operator: "search", operand: "needle" }] })}` }],
  });
  if (results.search) log(`search: p50 ${results.search?.p50_ms} ms`);
  if (wants("web")) {
    const newestId = (await api(auth(0), "GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "channel", operand: historyId }] })).messages[0].id;
    // browser timings on a shared 2-core machine move with its load: it is printed beside them
    const loadBefore = loadavg()[0]!;
    results.web = await webScenario({
      base,
      login: { email: users[0]!.email, password: WEB_PASSWORD },
      channel: { id: historyId, name: "history" },
      newestId,
      readerAuth: auth(0),
      senderAuth: auth(1),
      loads: quick ? 3 : 7,
      pings: quick ? 20 : 50,
      scrollBack: 5000,
      log,
    });
    results.web.load_average = [round(loadBefore), round(loadavg()[0]!)];
  }
  await stopParley();
}

const round = (n: number) => Math.round(n * 10) / 10;

/** A GitHub push of two commits, shaped as GitHub documents it. */
function githubPush() {
  const commit = (i: number) => ({ id: `${i}f0e1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6`, message: `Fix the flaky test ${i}\n\nDetails.`, url: `https://github.com/bench/app/commit/${i}f0e1d2`, author: { name: "Bench User", email: "b@bench.test", username: "bench" } });
  return { ref: "refs/heads/main", before: "a".repeat(40), after: "b".repeat(40), created: false, deleted: false, forced: false, compare: "https://github.com/bench/app/compare/aaaa...bbbb", commits: [commit(1), commit(2)], repository: { name: "app", full_name: "bench/app", html_url: "https://github.com/bench/app" }, sender: { login: "bench", html_url: "https://github.com/bench" } };
}
const WEB_PASSWORD = "bench-web-password";
/** With --repeat: ", median of N (min-max)". */
const spread = (r: any) => (r?.runs?.length > 1 ? `, median of ${r.runs.length} (${Math.min(...r.runs)}-${Math.max(...r.runs)})` : "");

function table() {
  const r = results;
  const hello = r.baseline_hello;
  const insert = r.baseline_elysia_insert;
  const times = (x: number | undefined, of: number | undefined) => (x && of ? `${(x / of).toFixed(2)}×` : "?");
  const floor = hello ? `loopback round trip p50 ${hello.sequential_p50_ms} ms` : "";
  const rows: string[][] = [
    ["baseline: Bun.serve hello, 32 conns", `${hello?.per_second} req/s`, "", `p99 ${hello?.p99_ms} ms`, ""],
    ["baseline: Elysia + 1 libSQL insert", `${insert?.per_second} req/s`, "", `p99 ${insert?.p99_ms} ms`, ""],
    ["send, 20-subscriber channel, 32 senders", `${r.send_20_subscribers?.per_second} msg/s, p99 ${r.send_20_subscribers?.p99_ms} ms`, "≥ 8,000 msg/s, p99 < 20 ms", `errors ${r.send_20_subscribers?.errors}${spread(r.send_20_subscribers)}`, insert ? `${times(r.send_20_subscribers?.per_second, insert.per_second)} Elysia + insert` : ""],
    ["webhook: the send's text (Slack format), 32 conns", `${r.webhook_same_text?.per_second} req/s, p99 ${r.webhook_same_text?.p99_ms} ms`, "≥ 0.8× send", `errors ${r.webhook_same_text?.errors}${spread(r.webhook_same_text)}`, r.send_20_subscribers ? `${times(r.webhook_same_text?.per_second, r.send_20_subscribers.per_second)} send` : ""],
    ["webhook: GitHub push into the same channel, 32 conns", `${r.webhook_github_push?.per_second} req/s, p99 ${r.webhook_github_push?.p99_ms} ms`, "", `errors ${r.webhook_github_push?.errors}${spread(r.webhook_github_push)}`, r.send_20_subscribers ? `${times(r.webhook_github_push?.per_second, r.send_20_subscribers.per_second)} send` : ""],
    ["send → pending GET /events (1,000 queues)", `p50 ${r.send_to_event?.p50_ms} ms, p99 ${r.send_to_event?.p99_ms} ms`, "p50 < 2 ms, p99 < 10 ms", `${r.send_to_event?.count} samples`, floor],
    ["channel message → 1,000 pending GET /events (20 users × 50)", `p50 ${r.broadcast?.p50_ms} ms, p99 ${r.broadcast?.p99_ms} ms`, "p99 < 50 ms", `${r.broadcast?.count} deliveries, ${r.broadcast?.lost} lost, server CPU ${r.broadcast?.server_cpu_ms_per_send} ms per send, load process (${r.broadcast?.client ?? "fetch"} client) ${r.broadcast?.load_cpu_ms_per_send} ms`, r.broadcast?.client === "raw" ? (hello ? `loopback round trip p50 ${hello.sequential_raw_p50_ms} ms (lean client)` : "") : floor],
    ["held GET /events", `${r.held_polls?.held} held, ${r.held_polls?.kib_each_above_idle} KiB each, RSS ${r.held_polls?.rss_mib} MiB`, "10,000, ≤ 20 KiB each, < 260 MB", "", ""],
    [`GET /messages newest 100 of a topic (${MESSAGES.toLocaleString()} stored)`, `p50 ${r.fetch_topic_newest_100?.p50_ms} ms`, "p50 < 3 ms", `p99 ${r.fetch_topic_newest_100?.p99_ms} ms`, floor],
    [`search over ${MESSAGES.toLocaleString()} messages`, `p50 ${r.search?.p50_ms} ms`, "p50 < 25 ms", `p99 ${r.search?.p99_ms} ms`, floor],
    ["POST /register, 1,000 users, 100 channels", `p50 ${r.register?.p50_ms} ms`, "p50 < 20 ms", `p99 ${r.register?.p99_ms} ms`, floor],
    ["  … for a user with every sent message unread", `p50 ${r.register_many_unread?.p50_ms} ms`, "", `${r.register_many_unread?.unread} unread`, ""],
    ["presence update", `${r.presence?.per_second} req/s`, "≥ 20,000 req/s", `p99 ${r.presence?.p99_ms} ms${spread(r.presence)}`, hello ? `${times(r.presence?.per_second, hello.per_second)} hello, ${times(r.presence?.per_second, insert?.per_second)} Elysia + insert` : ""],
    ["idle RSS after start", `${r.idle_rss_mib} MiB (${Math.round(r.idle_rss_mib * 1.048576 * 10) / 10} MB)`, "< 60 MB", `anonymous ${r.idle_rss_anon_mib} MiB, file-backed ${r.idle_rss_file_mib} MiB`, hello ? `bun: hello ${hello.idle_rss_mib} MiB, Elysia + libSQL ${insert?.idle_rss_mib} MiB` : ""],
    ["web: JS + CSS of the first load, gzipped", `${r.web?.first_load?.total_gz_kib} KiB`, "≤ 150 KB", `JS ${r.web?.first_load?.js_gz_kib} KiB, CSS ${r.web?.first_load?.css_gz_kib} KiB`, `machine load average ${r.web?.load_average?.join(" → ")} (2 cores)`],
    [`web: navigation → first message list painted (${MESSAGES.toLocaleString()}-message channel)`, `frame drawn p50 ${r.web?.first_list?.cold_frame_painted_p50_ms} ms cold, ${r.web?.first_list?.warm_frame_painted_p50_ms} ms cached (Element Timing); the task after it p50 ${r.web?.first_list?.cold_p50_ms} ms cold, ${r.web?.first_list?.warm_p50_ms} ms cached`, "≤ 250 ms (issue 21)", `max ${r.web?.first_list?.cold_max_ms} ms of ${r.web?.first_list?.samples}; /register ${r.web?.first_list?.register_p50_ms} ms, /messages ${r.web?.first_list?.messages_p50_ms} ms, sent at ${r.web?.first_list?.cold_requests_sent_p50_ms} ms (page in at ${r.web?.first_list?.cold_page_in_p50_ms} ms), both in at ${r.web?.first_list?.cold_answers_in_p50_ms} ms (the bundle at ${r.web?.first_list?.cold_bundle_in_p50_ms} ms), painted ${r.web?.first_list?.cold_painted_after_answers_p50_ms} ms after (long tasks ${r.web?.first_list?.cold_long_tasks_before_paint_p50_ms} ms)`, `login page first paint p50 ${r.web?.first_list?.baseline_login_page_fcp_p50_ms} ms`],
    ["web: another user's message painted after POST answered", `p50 ${r.web?.new_message?.p50_ms} ms, p99 ${r.web?.new_message?.p99_ms} ms`, "≤ 100 ms", `${r.web?.new_message?.samples} of ${r.web?.new_message?.sent} painted; from POST start p50 ${r.web?.new_message?.from_post_start_p50_ms} ms`, r.send_to_event ? `send → event p50 ${r.send_to_event.p50_ms} ms` : ""],
    ["web: scrolling back through 5,000 messages", `longest task ${r.web?.scroll_back?.max_long_task_ms} ms, heap ${r.web?.scroll_back?.heap_used_mib} MiB`, "no task > 100 ms, heap < 100 MB", `${r.web?.scroll_back?.messages} messages in ${r.web?.scroll_back?.seconds} s, ${r.web?.scroll_back?.long_tasks_over_100ms} tasks > 100 ms, ${r.web?.scroll_back?.message_rows_in_dom} rows / ${r.web?.scroll_back?.dom_nodes} nodes in the DOM`, ""],
    ["web: the settings overlay's code (loaded on demand, not in the first load), gzipped", `${r.web?.settings?.chunk_gz_kib} KiB`, "apart from the 150 KB", `${r.web?.settings?.chunk_files?.length} files`, ""],
    ["web: opening the settings overlay (#settings/profile → its section painted)", `${r.web?.settings?.open_cold_ms} ms first (code fetched), p50 ${r.web?.settings?.open_warm_p50_ms} ms after`, "≤ 300 ms", `the other personal sections' first opens: at most ${r.web?.settings?.other_sections_first_open_max_ms} ms`, ""],
    ["web: a settings change confirmed on screen after the server answered", `p50 ${r.web?.settings?.change_confirmed_after_answer_p50_ms} ms`, "≤ 100 ms", `${r.web?.settings?.change_confirmed_samples} samples ("Saved" painted − PATCH responseEnd)`, ""],
    [`import of a ${(r.import?.messages ?? 0).toLocaleString()}-message Slack export`, `${r.import?.messages_per_second} msg/s, peak RSS ${r.import?.peak_rss_mib} MiB`, "≥ 10,000 msg/s", `${r.import?.messages_per_cpu_second} msg per CPU-second, ${r.import?.seconds} s`, ""],
    ["start to first answered request", `${r.start_to_first_answer_ms} ms, CPU ${r.start_cpu_ms} ms`, "< 100 ms", `${useExe ? "executable" : "bun src/main.ts"}, median of ${r.start_runs_ms?.length} (${r.start_runs_ms?.join(", ")}), load ${r.start_load_average}`, hello ? `bun: hello ${hello.start_ms} ms, Elysia + libSQL ${insert?.start_ms} ms` : ""],
  ];
  // a scenario left out with --only prints as "not run" instead of its undefined figures
  for (const row of rows) if (row[1]!.includes("undefined")) [row[1], row[3], row[4]] = ["not run", "", ""];
  const w = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((row) => row[i]!.length), 6));
  const line = (row: string[]) => row.map((c, i) => c.padEnd(w[i]!)).join(" | ");
  console.log(line(["figure", "measured", "goal", "note", "same-run baseline"]));
  console.log(w.map((n) => "-".repeat(n)).join("-|-"));
  for (const row of rows) console.log(line(row));
}

try {
  await main();
} catch (e) {
  log(`failed: ${(e as Error).stack ?? e}`);
  results.error = String((e as Error).message ?? e);
} finally {
  await stopParley().catch(() => {});
  table();
  mkdirSync(join(ROOT, "bench-results"), { recursive: true });
  const out = join(ROOT, "bench-results", `bench-${results.date.replace(/[:.]/g, "-")}.json`);
  writeFileSync(out, JSON.stringify(results, null, 2));
  console.log(`\nresults written to ${out}`);
  if (compareWith) {
    try {
      const previous = JSON.parse(readFileSync(compareWith, "utf8"));
      console.log("\n" + formatComparison(compareResults(previous, results), compareWith).join("\n"));
    } catch (e) {
      log(`--compare: cannot read ${compareWith}: ${(e as Error).message}`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  process.exit(results.error ? 1 : 0);
}

