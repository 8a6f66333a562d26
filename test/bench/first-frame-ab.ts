#!/usr/bin/env bun
// Two builds' first frame compared by CPU time, which a shared machine's load moves far less than the
// wall clock: `bun test/bench/first-frame-ab.ts EXE_A EXE_B [ROUNDS] [LOADS]`.
// One data dir (1,000 users, 99 channels, a channel of 50,000 messages each in one of 1,000 topics, as
// run.ts seeds, fewer messages: the first frame draws the same rows); each round starts each executable
// on it in turn (A B, then B A), LOADS cold loads of the channel at 1280x800 under a Chromium trace. Per
// load, from the trace: the page main thread's CPU time (thread duration of its tasks) from navigation to
// the paint of the frame that drew the first message row, that of its largest task (the app's start), and
// of its style and layout; beside them the wall clock (navigation → that frame painted). Medians printed.
// FIRST_FRAME_COUNT=1 also prints the elements of the first frame by region; FIRST_FRAME_PROFILE=FILE saves
// a CPU profile and trace of B's last load of each round (build with PARLEY_PROFILE_NAMES=1 to read it).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { closeApp, openApp } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { indexPendingMessages } from "../../src/store/search-index";
import { launchChromium } from "../helpers/chromium";
import { seedMessages, seedUsers, setPassword } from "./seed";
import { basic, callApi } from "./http-api";

const [exeA, exeB, roundsArg, loadsArg] = process.argv.slice(2);
if (!exeA || !exeB) throw new Error("usage: bun test/bench/first-frame-ab.ts EXE_A EXE_B [ROUNDS] [LOADS]");
const exes = { A: resolve(exeA), B: resolve(exeB) };
const ROUNDS = Number(roundsArg ?? 3);
const LOADS = Number(loadsArg ?? 3);
const PASSWORD = "first-frame-password";
const dir = mkdtempSync(join(tmpdir(), "parley-first-frame-"));
writeFileSync(join(dir, "bench.toml"), "[rate_limit]\nrequests_per_minute = 0\nunauthenticated_per_minute = 0\n");
const env = { ...process.env, PARLEY_CONFIG: join(dir, "bench.toml") };

let base = "";
let server: ReturnType<typeof Bun.spawn> | null = null;
async function start(exe: string) {
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  base = `http://127.0.0.1:${port}`;
  server = Bun.spawn([exe, "serve", "--data-dir", dir, "--port", String(port)], { stdout: "ignore", stderr: "ignore", env });
  for (const t0 = performance.now(); ; await Bun.sleep(5)) {
    if (await fetch(`${base}/api/v1/server_settings`).then(() => true, () => false)) return;
    if (performance.now() - t0 > 15_000) throw new Error(`${exe} never answered`);
  }
}
async function stop() {
  server?.kill("SIGTERM");
  await server?.exited;
  server = null;
}
const api = (auth: string, method: string, path: string, params: Record<string, unknown> = {}) => callApi(base, auth, method, path, params);

// the organization, as run.ts builds it
const init = Bun.spawnSync([exes.A, "init", "--data-dir", dir, "--org-name", "Bench", "--email", "owner@bench.test", "--full-name", "Owner"], { env });
const owner = JSON.parse(init.stdout.toString());
const ownerAuth = basic(owner.email, owner.api_key);
const config = loadConfig({ dataDir: dir }, {});
let app = await openApp(config, { quiet: true });
const users = await seedUsers(app, 1000);
await setPassword(app, users[0]!.id, PASSWORD);
await closeApp(app);
await start(exes.A);
await api(ownerAuth, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "history" }], principals: [users[0]!.id, users[1]!.id] });
for (let c = 0; c < 98; c += 14) {
  const names = Array.from({ length: Math.min(14, 98 - c) }, (_, i) => ({ name: `channel ${c + i}` }));
  await api(ownerAuth, "POST", "/users/me/subscriptions", { subscriptions: names, principals: users.slice(c, c + 50).map((u) => u.id) });
}
const historyId = (await api(ownerAuth, "GET", "/get_stream_id", { stream: "history" })).stream_id as number;
await stop();
app = await openApp(config, { quiet: true });
await seedMessages(app, { streamId: historyId, senderId: users[0]!.id, readers: [users[0]!.id], count: 50_000, topics: 1000 });
while ((await app.db.tx((sql) => indexPendingMessages(sql, 20_000))) === 20_000);
await closeApp(app);
await start(exes.A);
// everything read: the channel opens at its newest
await api(basic(users[0]!.email, users[0]!.key), "POST", "/mark_all_as_read");

/** In the page before its scripts: marks the first row's insertion and, after the frame that drew it, its paint. */
const INIT = () => {
  let seen = false;
  new MutationObserver((records, observer) => {
    for (const r of records)
      for (const n of Array.from(r.addedNodes)) {
        if (seen || !(n instanceof Element) || !(n.matches(".message-row") || n.querySelector(".message-row"))) continue;
        seen = true;
        observer.disconnect();
        performance.mark("first-row-inserted");
        const by: Record<string, number> = {};
        for (const el of Array.from(document.querySelectorAll("#app *"))) {
          const region = el.closest(".message-row") ? "rows" : el.closest(".recipient-bar") ? "bars" : el.closest("#left-sidebar") ? "left" : el.closest("#right-sidebar") ? "right" : el.closest(".compose") ? "compose" : el.closest(".top-bar") ? "top" : "other";
          by[region] = (by[region] ?? 0) + 1;
        }
        (window as unknown as { __firstFrameElements: unknown }).__firstFrameElements = { all: document.querySelectorAll("#app *").length, messageRows: document.querySelectorAll(".message-row").length, ...by };
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => performance.mark("first-row-painted");
          ch.port2.postMessage(0);
        });
      }
  }).observe(document, { childList: true, subtree: true });
};

const browser = await launchChromium();
const login = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const loginPage = await login.newPage();
await loginPage.goto(`${base}/`);
await loginPage.fill("#login-email", users[0]!.email);
await loginPage.fill("#login-password", PASSWORD);
await Promise.all([loginPage.waitForURL((u) => !u.pathname.startsWith("/login")), loginPage.click(".login-form button[type=submit]")]);
await loginPage.locator(".app-shell").waitFor({ timeout: 30_000 });
const cookies = await login.cookies();
await login.close();
await stop();

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}
type Sample = { cpu: number; largest: number; styleLayout: number; wall: number };
const samples: Record<"A" | "B", Sample[]> = { A: [], B: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const which of round % 2 ? (["B", "A"] as const) : (["A", "B"] as const)) {
    await start(exes[which]);
    // the first load of each start is not measured (the server's first answers)
    for (let i = 0; i <= LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addCookies(cookies.map((c) => ({ ...c, domain: "127.0.0.1" })));
      await context.addInitScript(INIT);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const events: TraceEvent[] = [];
      cdp.on("Tracing.dataCollected", (e) => events.push(...(e.value as unknown as TraceEvent[])));
      const profiling = process.env.FIRST_FRAME_PROFILE && which === "B" && i === LOADS;
      if (profiling) {
        await cdp.send("Profiler.enable");
        await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
        await cdp.send("Profiler.start");
      }
      await cdp.send("Tracing.start", { categories: "devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,loading", transferMode: "ReportEvents" });
      await page.goto(`${base}/#narrow/channel/${historyId}-history`);
      await page.waitForFunction(() => performance.getEntriesByName("first-row-painted").length > 0, null, { timeout: 30_000, polling: 20 });
      const wall = await page.evaluate(() => performance.getEntriesByName("first-row-painted")[0]!.startTime);
      if (process.env.FIRST_FRAME_COUNT && i === 1) console.error(which, "first frame's elements", JSON.stringify(await page.evaluate(() => (window as unknown as { __firstFrameElements: unknown }).__firstFrameElements)));
      if (profiling) writeFileSync(`${process.env.FIRST_FRAME_PROFILE}-${round}`, JSON.stringify((await cdp.send("Profiler.stop")).profile));
      const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
      await cdp.send("Tracing.end");
      await done;
      await context.close();
      if (i === 0) continue;
      if (profiling) writeFileSync(`${process.env.FIRST_FRAME_PROFILE}-${round}.trace.json`, JSON.stringify({ traceEvents: events }));
      const inserted = events.find((e) => e.name === "first-row-inserted")!;
      const main = events.filter((e) => e.pid === inserted.pid && e.tid === inserted.tid && e.ph === "X");
      const navigated = Math.min(...main.filter((e) => e.name === "ParseHTML").map((e) => e.ts));
      // the end: the first paint after the row went in (the frame that drew it)
      const paint = main.filter((e) => e.name === "Paint" && e.ts > inserted.ts).sort((a, b) => a.ts - b.ts)[0];
      const end = paint?.ts ?? events.find((e) => e.name === "first-row-painted")!.ts;
      const tasks = main.filter((e) => e.name === "RunTask" && e.ts >= navigated - 50_000 && e.ts <= end);
      const ms = (us: number) => us / 1000;
      samples[which].push({
        cpu: ms(tasks.reduce((n, e) => n + (e.tdur ?? 0), 0)),
        largest: ms(Math.max(...tasks.map((e) => e.tdur ?? 0))),
        styleLayout: ms(main.filter((e) => (e.name === "Layout" || e.name === "UpdateLayoutTree") && e.ts >= navigated && e.ts <= end).reduce((n, e) => n + (e.tdur ?? 0), 0)),
        wall,
      });
    }
    await stop();
  }
  console.error(`round ${round + 1} of ${ROUNDS}, load average ${loadavg()[0]!.toFixed(1)}`);
}
await browser.close();
rmSync(dir, { recursive: true, force: true });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
for (const w of ["A", "B"] as const) {
  const s = samples[w];
  const p50 = (k: keyof Sample) => median(s.map((x) => x[k])).toFixed(1);
  console.log(`${w} ${exes[w]}: main-thread CPU to the first row's frame p50 ${p50("cpu")} ms [${s.map((x) => x.cpu.toFixed(0)).join(" ")}]; its largest task ${p50("largest")} ms; style + layout ${p50("styleLayout")} ms; wall clock to that frame painted p50 ${p50("wall")} ms`);
}
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} (2 cores)`);
