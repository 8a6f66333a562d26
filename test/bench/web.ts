// The web scenario of `npm run bench`: the web app in headless Chromium (Debian's /usr/bin/chromium through
// playwright-core, as test/browser launches it) against the running server, with the organization run.ts
// seeded (1,000 users, 100 channels, a channel of 1,000,000 messages). It measures:
// - the JS and CSS of the first load, as sent (gzip), in bytes;
// - navigation start → the first message list painted: an init script's MutationObserver sees the first
//   `.message-row` enter the page; "painted" is when the animation frame after it has been drawn (a
//   requestAnimationFrame callback, then a message-channel task, which runs after that frame's paint, and
//   after whatever tasks the page queued before it); beside it, the frame that drew the first row's text
//   itself, as Element Timing reports it (the same kind of time as the login page's first contentful paint);
//   beside it, when the later of /register and the first /messages had fully arrived, the time from then
//   to the paint (the page's own work), and the long tasks before the paint;
// - a new message from another user: sent with POST /messages from this process; painted (as above, found
//   by its text) minus the moment the POST's answer arrived here, both on the wall clock (timeOrigin + now);
// - scrolling back through 5,000 messages with the mouse wheel: long tasks (PerformanceObserver 'longtask')
//   and, after a forced garbage collection, the JS heap in use (CDP Runtime.getHeapUsage) and the DOM size;
// - the settings overlay, whose code is not in the first load: the scripts fetched when it first opens
//   (gzip, reported apart; in a profile without the service worker, which would hold them already), and the time from setting `#settings/profile` to its section painted, the
//   first time (its code fetched) and again once loaded; and a switch's "Saved" painted after the server's
//   answer to its PATCH /settings arrived (the request's responseEnd).
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../helpers/chromium";
import { summarize } from "./stats";

export interface WebSetup {
  base: string;
  /** the person whose browser is measured: a password login; subscribed to the big channel */
  login: { email: string; password: string };
  /** the channel with the seeded messages, and its name for the URL */
  channel: { id: number; name: string };
  /** the newest message id of that channel before the scenario sends anything */
  newestId: number;
  /** the measured person's Basic auth header (everything is marked read first, so the channel opens at its newest) */
  readerAuth: string;
  /** another subscriber, who sends the new messages (Basic auth header) */
  senderAuth: string;
  loads: number;
  pings: number;
  scrollBack: number;
  log(msg: string): void;
}

/** Runs in the page before its own scripts, on every navigation. */
const INIT = () => {
  const bench = ((window as any).__bench = { firstList: 0, firstRowSeen: 0, firstRowPainted: 0, longtasks: [] as { start: number; duration: number }[], watchPings: false, paints: {} as Record<string, number> });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  // Element Timing: the frame that drew the first row's text, as the browser reports it (the login page's
  // first-contentful-paint is the same kind of time); its elements are marked as they enter the page
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { identifier: string; renderTime: number })[]) {
      if (e.identifier === "first-row" && e.renderTime > 0 && (!bench.firstRowPainted || e.renderTime < bench.firstRowPainted)) bench.firstRowPainted = e.renderTime;
    }
  }).observe({ type: "element", buffered: true });
  const afterPaint = (done: () => void) =>
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => done();
      ch.port2.postMessage(0);
    });
  new MutationObserver((records) => {
    for (const r of records) {
      for (const n of Array.from(r.addedNodes)) {
        if (!(n instanceof Element)) continue;
        const rows: Element[] = n.matches(".message-row") ? [n] : bench.firstRowSeen && !bench.watchPings ? [] : Array.from(n.querySelectorAll(".message-row"));
        if (!rows.length) continue;
        if (!bench.firstRowSeen) {
          bench.firstRowSeen = performance.now();
          for (const el of [rows[0]!, ...Array.from(rows[0]!.querySelectorAll("*"))]) el.setAttribute("elementtiming", "first-row");
          afterPaint(() => (bench.firstList = performance.now()));
        }
        if (!bench.watchPings) continue;
        for (const row of rows) {
          const m = /web-ping-(\d+)/.exec(row.textContent ?? "");
          if (m && !(m[1]! in bench.paints)) {
            const i = m[1]!;
            bench.paints[i] = 0;
            afterPaint(() => (bench.paints[i] = performance.timeOrigin + performance.now()));
          }
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
};

const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
const round = (n: number) => Math.round(n * 10) / 10;
const kib = (bytes: number) => Math.round(bytes / 102.4) / 10;
const median = (xs: number[]) => summarize(xs, 1).p50_ms;

async function newContext(browser: Browser, cookies?: Awaited<ReturnType<BrowserContext["cookies"]>>, opts: { serviceWorkers?: "allow" | "block" } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: opts.serviceWorkers ?? "allow" });
  if (cookies) await context.addCookies(cookies);
  await context.addInitScript(INIT);
  return context;
}

async function logIn(page: Page, s: WebSetup) {
  await page.goto(`${s.base}/`);
  await page.fill("#login-email", s.login.email);
  await page.fill("#login-password", s.login.password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/login") && !u.search.includes("login_failed")), page.click(".login-form button[type=submit]")]);
  await page.locator(".app-shell").waitFor({ timeout: 30_000 });
}

/** Navigates to the channel and waits for its first message list to be painted; ms from navigation start. */
async function loadList(page: Page, url: string) {
  await page.goto(url);
  await page.waitForFunction(() => (window as any).__bench.firstList > 0, null, { timeout: 30_000, polling: 20 });
  // the element entry is queued after its frame: give it a moment (it is 0 where Element Timing is missing)
  await page.waitForFunction(() => (window as any).__bench.firstRowPainted > 0, null, { timeout: 2_000, polling: 20 }).catch(() => {});
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const res = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((r) => /\/json\/(register|messages\?)/.test(r.name));
    const b = (window as any).__bench;
    const register = res.find((r) => r.name.includes("/register"));
    const messages = res.find((r) => r.name.includes("/messages?"));
    const answered = Math.max(register?.responseEnd ?? NaN, messages?.responseEnd ?? NaN);
    const asked = Math.min(register?.fetchStart ?? NaN, messages?.fetchStart ?? NaN);
    // the app's bundle (the page's one module script)
    const script = document.querySelector<HTMLScriptElement>("script[type=module][src]")?.src;
    const bundle = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).find((r) => r.name === script);
    const before = (b.longtasks as { start: number; duration: number }[]).filter((t) => t.start < b.firstList);
    return {
      painted: b.firstList - nav.startTime,
      /** the frame that drew the first row (Element Timing), NaN where the browser gave none */
      framePainted: b.firstRowPainted ? b.firstRowPainted - nav.startTime : NaN,
      rowInserted: b.firstRowSeen - nav.startTime,
      domContentLoaded: nav.domContentLoadedEventEnd - nav.startTime,
      register: register?.duration ?? NaN,
      messages: messages?.duration ?? NaN,
      /** the later of the two answers' last byte, from navigation start */
      answered: answered - nav.startTime,
      /** what the page did after both answers were in */
      afterAnswers: b.firstList - answered,
      frameAfterAnswers: b.firstRowPainted ? b.firstRowPainted - answered : NaN,
      longTasksMs: before.reduce((n, t) => n + t.duration, 0),
      /** the bundle's request sent and its last byte in, from navigation start */
      /** the start script's requests sent (the earlier of the two) */
      asked: asked - nav.startTime,
      /** the page's own first and last byte */
      pageFirstByte: nav.responseStart - nav.startTime,
      pageIn: nav.responseEnd - nav.startTime,
      bundleRequested: bundle ? bundle.requestStart - nav.startTime : NaN,
      bundleIn: bundle ? bundle.responseEnd - nav.startTime : NaN,
    };
  });
}

/** The login page (server-rendered HTML and one small stylesheet): navigation start → first contentful paint. */
async function baselinePage(page: Page, url: string) {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, null, { timeout: 10_000 });
  return page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]!.startTime);
}

/** Opens the settings overlay at a section from the page itself: ms from the hash change to the section painted. */
const openSettings = (page: Page, section: string) =>
  page.evaluate(
    (section) =>
      new Promise<number>((resolve) => {
        const t0 = performance.now();
        location.hash = `#settings/${section}`;
        const check = () => {
          if (!document.querySelector(".settings-panel .settings-section")) return requestAnimationFrame(check);
          requestAnimationFrame(() => {
            const ch = new MessageChannel();
            ch.port1.onmessage = () => resolve(performance.now() - t0);
            ch.port2.postMessage(0);
          });
        };
        check();
      }),
    section,
  );

async function settingsOverlay(browser: Browser, cookies: Awaited<ReturnType<BrowserContext["cookies"]>>, s: WebSetup) {
  // without the service worker: its install stores every file of the build once the page is idle, so the
  // settings code would come from its cache (no size on the wire, and not a first open)
  const context = await newContext(browser, cookies, { serviceWorkers: "block" });
  const page = await context.newPage();
  await page.goto(`${s.base}/#inbox`);
  await page.locator(".app-shell").waitFor({ timeout: 30_000 });
  await page.waitForTimeout(300);
  const fetched: Promise<{ url: string; bytes: number }>[] = [];
  page.on("requestfinished", (req) => {
    if (req.resourceType() === "script") fetched.push(req.sizes().then((z) => ({ url: req.url(), bytes: z.responseBodySize })));
  });
  const cold = await openSettings(page, "profile");
  const files = await Promise.all(fetched);
  const close = async () => {
    await page.evaluate(() => (location.hash = "#inbox"));
    await page.locator(".settings-overlay").waitFor({ state: "detached" });
  };
  await close();
  const warm: number[] = [];
  for (let i = 0; i < Math.max(5, s.loads); i++) {
    warm.push(await openSettings(page, "profile"));
    await close();
  }
  // every personal section once (each its own chunk): the largest one's open time
  const sections: number[] = [];
  for (const section of ["account-and-privacy", "preferences", "notifications", "status", "muted-users", "topics", "alert-words", "saved-snippets"]) {
    sections.push(await openSettings(page, section));
    await close();
  }
  // a change confirmed: a switch clicked, PATCH /settings answered (its responseEnd), "Saved" painted
  await page.evaluate(() => (location.hash = "#settings/preferences"));
  await page.locator(".settings-panel .settings-section").waitFor();
  const confirmed: number[] = [];
  for (let i = 0; i < 6; i++) {
    const ms = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          performance.clearResourceTimings();
          const box = document.querySelector<HTMLInputElement>(".settings-panel input[role=switch]")!;
          const status = box.closest(".setting")!.querySelector(".save-status")!;
          new MutationObserver((_, obs) => {
            if (!status.classList.contains("saved")) return;
            obs.disconnect();
            requestAnimationFrame(() => {
              const ch = new MessageChannel();
              ch.port1.onmessage = () => {
                const res = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).find((r) => r.name.includes("/json/settings"));
                resolve(res ? performance.now() - res.responseEnd : NaN);
              };
              ch.port2.postMessage(0);
            });
          }).observe(status, { attributes: true, attributeFilter: ["class"] });
          box.click();
        }),
    );
    if (!Number.isNaN(ms)) confirmed.push(ms);
    await page.waitForTimeout(200);
  }
  await context.close();
  const bytes = files.reduce((n, f) => n + f.bytes, 0);
  return {
    chunk_gz_kib: kib(bytes),
    chunk_files: files.map((f) => `${f.url.replace(/^.*\//, "")} ${kib(f.bytes)} KiB`),
    open_cold_ms: round(cold),
    open_warm_p50_ms: round(median(warm)),
    other_sections_first_open_max_ms: round(Math.max(...sections)),
    change_confirmed_after_answer_p50_ms: round(median(confirmed)),
    change_confirmed_samples: confirmed.length,
  };
}

export async function webScenario(s: WebSetup): Promise<Record<string, unknown>> {
  const out: Record<string, any> = {};
  const browser = await launchChromium(["--enable-precise-memory-info"]);
  try {
    // from source the server bundles the app on its first request: not part of any figure
    await fetch(`${s.base}/login`).then((r) => r.arrayBuffer());
    // the person has read everything (the channels' creation notices too): the channel opens at its newest
    await fetch(`${s.base}/api/v1/mark_all_as_read`, { method: "POST", headers: { authorization: s.readerAuth } }).then((r) => r.arrayBuffer());
    const url = `${s.base}/#narrow/channel/${s.channel.id}-${encodeURIComponent(s.channel.name)}`;

    // log in once; every load below carries that session cookie
    const first = await newContext(browser);
    const loginPage = await first.newPage();
    await logIn(loginPage, s);
    const cookies = await first.cookies();
    await first.close();

    // cold loads (empty cache): the bytes of JS and CSS as sent, and the time to the first list
    const cold: Awaited<ReturnType<typeof loadList>>[] = [];
    for (let i = 0; i < s.loads; i++) {
      // each load starts with the server free: a request answered means the previous page's last requests are done
      await fetch(`${s.base}/api/v1/server_settings`).then((r) => r.arrayBuffer());
      const context = await newContext(browser, cookies);
      const page = await context.newPage();
      const sizes: Promise<{ kind: string; url: string; bytes: number }>[] = [];
      page.on("requestfinished", (req) => {
        const kind = req.resourceType();
        if (kind === "script" || kind === "stylesheet") sizes.push(req.sizes().then((z) => ({ kind, url: req.url(), bytes: z.responseBodySize })));
      });
      cold.push(await loadList(page, url));
      if (i === 0) {
        const files = await Promise.all(sizes);
        const js = files.filter((f) => f.kind === "script").reduce((n, f) => n + f.bytes, 0);
        const css = files.filter((f) => f.kind === "stylesheet").reduce((n, f) => n + f.bytes, 0);
        out.first_load = { js_gz_kib: kib(js), css_gz_kib: kib(css), total_gz_kib: kib(js + css), files: files.map((f) => `${f.url.replace(/^.*\//, "")} ${kib(f.bytes)} KiB`) };
      }
      await context.close();
    }
    // BENCH_WEB_PROFILE=file: one more cold load under the V8 sampling profiler (Chrome's .cpuprofile format),
    // to find what the page does between its answers and the first paint; not part of any figure
    if (process.env.BENCH_WEB_PROFILE) {
      const context = await newContext(browser, cookies);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
      const events: unknown[] = [];
      cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
      await cdp.send("Tracing.start", { categories: "devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink", transferMode: "ReportEvents" });
      const timing = await loadList(page, url);
      const { profile } = await cdp.send("Profiler.stop");
      const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
      await cdp.send("Tracing.end");
      await done;
      await Bun.write(`${process.env.BENCH_WEB_PROFILE}.trace.json`, JSON.stringify({ traceEvents: events }));
      await Bun.write(process.env.BENCH_WEB_PROFILE, JSON.stringify(profile));
      // where the page's elements are at that moment (layout and style cost follow their number)
      const nodes = await page.evaluate(() => {
        const count = (sel: string) => document.querySelector(sel)?.querySelectorAll("*").length ?? 0;
        return { all: document.querySelectorAll("*").length, left: count("#left-sidebar"), right: count("#right-sidebar"), messages: count(".message-list"), compose: count(".compose") };
      });
      s.log(`web profile written to ${process.env.BENCH_WEB_PROFILE}: ${JSON.stringify({ ...timing, nodes })}`);
      await context.close();
    }
    // warm loads: the same browser profile again (the hashed files come from its cache)
    const warmContext = await newContext(browser, cookies);
    const warm: Awaited<ReturnType<typeof loadList>>[] = [];
    for (let i = 0; i < s.loads + 1; i++) {
      const page = await warmContext.newPage();
      const r = await loadList(page, url);
      if (i > 0) warm.push(r);
      await page.close();
    }
    const baseline: number[] = [];
    for (let i = 0; i < s.loads; i++) {
      const context = await newContext(browser);
      baseline.push(await baselinePage(await context.newPage(), `${s.base}/login`));
      await context.close();
    }
    const p50 = (rs: typeof cold, k: keyof (typeof cold)[0]) => round(median(rs.map((r) => r[k])));
    out.first_list = {
      cold_p50_ms: p50(cold, "painted"),
      warm_p50_ms: p50(warm, "painted"),
      cold_max_ms: round(Math.max(...cold.map((r) => r.painted))),
      cold_frame_painted_p50_ms: p50(cold, "framePainted"),
      warm_frame_painted_p50_ms: p50(warm, "framePainted"),
      cold_frame_after_answers_p50_ms: p50(cold, "frameAfterAnswers"),
      samples: cold.length,
      cold_row_inserted_p50_ms: p50(cold, "rowInserted"),
      cold_dom_content_loaded_p50_ms: p50(cold, "domContentLoaded"),
      register_p50_ms: p50(cold, "register"),
      messages_p50_ms: p50(cold, "messages"),
      cold_answers_in_p50_ms: p50(cold, "answered"),
      cold_requests_sent_p50_ms: p50(cold, "asked"),
      cold_page_first_byte_p50_ms: p50(cold, "pageFirstByte"),
      cold_page_in_p50_ms: p50(cold, "pageIn"),
      cold_bundle_requested_p50_ms: p50(cold, "bundleRequested"),
      cold_bundle_in_p50_ms: p50(cold, "bundleIn"),
      cold_painted_after_answers_p50_ms: p50(cold, "afterAnswers"),
      cold_long_tasks_before_paint_p50_ms: p50(cold, "longTasksMs"),
      baseline_login_page_fcp_p50_ms: round(median(baseline)),
    };
    s.log(`web first load: ${JSON.stringify(out.first_load)}; first list ${JSON.stringify(out.first_list)}`);

    // the page that stays open: new messages, then scrolling back
    const page = await warmContext.newPage();
    await loadList(page, url);
    await page.locator(`.message-row[data-message-id="${s.newestId}"]`).waitFor({ timeout: 30_000 });
    await page.evaluate(() => ((window as any).__bench.watchPings = true));
    await page.waitForTimeout(500); // the event queue's long-poll is parked
    const afterAnswer: number[] = [];
    const afterSend: number[] = [];
    for (let i = 0; i < s.pings; i++) {
      const t0 = performance.timeOrigin + performance.now();
      const res = await fetch(`${s.base}/api/v1/messages`, {
        method: "POST",
        headers: { authorization: s.senderAuth, "content-type": "application/x-www-form-urlencoded" },
        body: form({ type: "stream", to: String(s.channel.id), topic: "pings", content: `web-ping-${i}` }),
      });
      await res.arrayBuffer();
      const t1 = performance.timeOrigin + performance.now();
      const painted = await page
        .waitForFunction((k) => (window as any).__bench.paints[k] > 0 && (window as any).__bench.paints[k], String(i), { timeout: 3000, polling: 5 })
        .then((h) => h.jsonValue() as Promise<number>)
        .catch(() => NaN);
      if (!Number.isNaN(painted)) {
        afterAnswer.push(painted - t1);
        afterSend.push(painted - t0);
      }
      await Bun.sleep(100);
    }
    const a = summarize(afterAnswer, 1);
    out.new_message = { samples: afterAnswer.length, sent: s.pings, p50_ms: a.p50_ms, p99_ms: a.p99_ms, max_ms: a.max_ms, from_post_start_p50_ms: summarize(afterSend, 1).p50_ms };
    s.log(`web new message: ${JSON.stringify(out.new_message)}`);

    // scrolling back: the mouse wheel over the list until `scrollBack` older messages have been shown
    const cdp = await warmContext.newCDPSession(page);
    await page.evaluate(() => ((window as any).__bench.watchPings = false));
    const since = await page.evaluate(() => performance.now());
    const box = (await page.locator(".message-scroller").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const target = s.newestId - s.scrollBack;
    const t0 = performance.now();
    let oldest = Infinity;
    while (performance.now() - t0 < 240_000) {
      await page.mouse.wheel(0, -1200);
      await page.waitForTimeout(40);
      oldest = await page.evaluate(() => {
        let min = Infinity;
        for (const el of Array.from(document.querySelectorAll<HTMLElement>(".message-row[data-message-id]"))) min = Math.min(min, Number(el.dataset.messageId));
        const b = (window as any).__bench;
        b.oldest = Math.min(b.oldest ?? Infinity, min);
        return b.oldest;
      });
      if (oldest <= target) break;
    }
    const seconds = (performance.now() - t0) / 1000;
    await cdp.send("HeapProfiler.collectGarbage");
    const heap = await cdp.send("Runtime.getHeapUsage");
    await cdp.send("Performance.enable");
    const metrics = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
    const tasks = await page.evaluate((t) => (window as any).__bench.longtasks.filter((l: { start: number }) => l.start >= t).map((l: { duration: number }) => l.duration), since);
    const rows = await page.locator(".message-row").count();
    out.scroll_back = {
      messages: s.newestId - oldest,
      goal_messages: s.scrollBack,
      seconds: round(seconds),
      long_tasks: tasks.length,
      long_tasks_over_100ms: tasks.filter((d: number) => d > 100).length,
      max_long_task_ms: round(Math.max(0, ...tasks)),
      heap_used_mib: round(heap.usedSize / 1048576),
      heap_total_mib: round(heap.totalSize / 1048576),
      dom_nodes: metrics.Nodes,
      message_rows_in_dom: rows,
    };
    s.log(`web scroll back: ${JSON.stringify(out.scroll_back)}`);
    out.settings = await settingsOverlay(browser, cookies, s);
    s.log(`web settings: ${JSON.stringify(out.settings)}`);
  } finally {
    await browser.close();
  }
  return out;
}
