import { readFileSync } from "node:fs";
import type { Config } from "./config/schema";
import { ConfigError } from "./config/load";
import { closeApp, openApp, type App, type AppHost, type OrganizationSwitch } from "./app";
import { createMetricsServer, createServer, listenLimits } from "./server";
import { ensureOrganization, type FirstLogin } from "./first-run";
import { startScheduler } from "./scheduler";
import { withRequestLog } from "./http/request-log";
import { lockDataDir } from "./store/serve-lock";
import { loadWebBuild } from "./web/source";
import { vapidKeys } from "./notify/webpush/vapid";
import { finishPendingSwap } from "./import/web/swap";
import { recoverWebImports } from "./actions/web-import";
import { fileReleaseDelayMs, limitMallocArenas, releaseFilePages, trimNativeHeap } from "./lib/native-memory";
import { setImageThreads } from "./uploads/sharp";

/** A running server. */
export interface Serving {
  app: App;
  /** the port it listens on (the chosen one when asked for port 0) */
  port: number;
  /** where people reach it: [server] external_url */
  url: string;
  /** the owner's login when this start created the organization */
  firstLogin: FirstLogin | null;
  /** Stops accepting, answers parked long-polls, lets in-flight requests finish, closes the database. */
  stop(): Promise<void>;
}

/**
 * Opens the data dir (one server per data dir: a second start fails with DataDirBusyError), creates the
 * organization on the first start, and listens: HTTPS when [server] tls_cert and tls_key are set.
 */
export async function startServing(config: Config, opts: { quiet?: boolean } = {}): Promise<Serving> {
  const tls = readTls(config);
  const lock = lockDataDir(config.data_dir);
  let app: App | null = null;
  try {
    // a switch to an imported organization that a crash cut short is finished before the database opens
    if (finishPendingSwap(config)) console.log("Finished switching to the imported organization (the server had stopped during the switch).");
    app = await openApp(config, { quiet: opts.quiet });
    await recoverWebImports(app);
    setImageThreads(config.memory.image_threads);
    const firstLogin = await ensureOrganization(app);
    // the Web Push key pair is made on the first start (DATA_DIR/vapid.json) and kept
    vapidKeys(config.data_dir);
    const host = new ServingHost(app, opts);
    let server: ReturnType<typeof Bun.serve>;
    try {
      server = Bun.serve({
        hostname: config.server.host,
        port: config.server.port,
        // an occupied port must be an error, not a second server sharing its traffic
        reusePort: false,
        // Bun's own error page (an exception that escaped every handler) never shows a stack trace
        development: false,
        idleTimeout: 60,
        ...listenLimits(config),
        tls,
        fetch: (request, server) => host.fetch(request, server),
      });
    } catch (e) {
      const message = (e as Error).message;
      if (tls && /certificate|key|pem|tls|ssl/i.test(message)) {
        throw new ConfigError(`config keys 'server.tls_cert' / 'server.tls_key': cannot serve HTTPS with ${config.server.tls_cert} and ${config.server.tls_key}: ${message}`);
      }
      throw new Error(`cannot listen on ${config.server.host}:${config.server.port}: ${message}`);
    }
    const port = server.port!;
    try {
      host.attach(server);
    } catch (e) {
      await server.stop(true);
      throw e;
    }
    // from source the web app is bundled now rather than on the first visit (the executable has it built in)
    const log = app.log;
    void loadWebBuild().catch((e) => log.error("the web app did not bundle", { error: String(e) }));
    lock.describe({ pid: process.pid, url: config.server.external_url });
    console.log(`Parley is serving ${config.server.external_url} (listening on ${config.server.host}:${port}, data in ${config.data_dir})`);

    let stopped: Promise<void> | null = null;
    return {
      get app() {
        return host.current();
      },
      port,
      url: config.server.external_url,
      firstLogin,
      stop() {
        stopped ??= (async () => {
          host.current().log.info("shutting down");
          const inflight = server.stop(false); // stop accepting; in-flight requests finish
          await host.stop(inflight);
          lock.release();
        })();
        return stopped;
      },
    };
  } catch (e) {
    if (app) await closeApp(app);
    lock.release();
    throw e;
  }
}

type BunServer = ReturnType<typeof Bun.serve>;

/**
 * What serves one App on the listening socket: its Elysia app, its scheduler and its metrics
 * listener. A switch to an imported organization (AppHost) detaches them, swaps the files and
 * attaches a new App, so every cache keyed by the App (or by its database) and every event queue
 * starts afresh; meanwhile requests wait outside with a 503.
 */
class ServingHost implements AppHost {
  private handle: ((request: Request, server: BunServer) => Promise<Response>) | null = null;
  private metrics: ReturnType<typeof listenForMetrics> = null;
  private server: BunServer | null = null;
  private inflight = 0;
  private idle: (() => void)[] = [];
  private switching = false;

  constructor(
    private app: App,
    private readonly opts: { quiet?: boolean },
  ) {
    app.host = this;
  }

  current = () => this.app;

  /** Serves the current App on `server`. */
  attach(server: BunServer) {
    this.server = server;
    const app = this.app;
    const elysia = createServer(app);
    // handlers reach the socket through Elysia's `server` (peer addresses, the long-poll's timeout)
    elysia.server = server;
    const handle = elysia.fetch;
    this.handle = withRequestLog(app, (request) => handle(request));
    this.metrics = listenForMetrics(app);
    // The scheduler's first tick runs every job at once (overdue work), synchronous SQL that would hold
    // up the first requests: it starts a moment after listening, so a request that came at start is answered first.
    const firstTick = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        // native memory bounds ([memory]): after listening, as loading bun:ffi costs ~10 ms, but before the
        // checkpoint thread and libvips' threads, which would each make a malloc arena of their own
        boundNativeMemory(app);
        resolve(startScheduler(app).firstTick);
      }, SCHEDULER_START_DELAY_MS);
      app.onClose.unshift(() => clearTimeout(timer)); // first: a stop cancels it before anything awaits
    });
    relaxJitAfter(firstTick, app);
  }

  async fetch(request: Request, server: BunServer): Promise<Response> {
    if (this.switching || !this.handle) {
      return Response.json({ result: "error", msg: "The server is switching to the imported organization; try again in a moment.", code: "BAD_REQUEST" }, { status: 503, headers: { "retry-after": "2" } });
    }
    this.inflight++;
    try {
      return await this.handle(request, server);
    } finally {
      if (--this.inflight === 0) for (const f of this.idle.splice(0)) f();
    }
  }

  /** Answers parked long-polls and waits (at most `ms`) until no request is in flight. */
  private async drain(ms: number) {
    this.app.events.releaseAll();
    if (this.inflight === 0) return;
    await Promise.race([new Promise<void>((r) => this.idle.push(r)), Bun.sleep(ms)]);
  }

  private async detach() {
    void this.metrics?.stop(true);
    this.metrics = null;
    this.handle = null;
    await closeApp(this.app);
  }

  async stop(inflight: Promise<void>) {
    this.app.events.releaseAll(); // parked long-polls answer now
    await inflight;
    void this.metrics?.stop(true);
    await closeApp(this.app);
  }

  async switchOrganization(s: OrganizationSwitch): Promise<App> {
    if (this.switching) throw new Error("a switch is already under way");
    this.switching = true;
    try {
      await this.drain(10_000);
      await s.check(this.app);
      const old = this.app;
      await this.detach();
      let next: App;
      try {
        s.swap();
        next = await openApp(old.config, { quiet: this.opts.quiet });
      } catch (e) {
        // a rename failed or the imported database does not open: back to the old organization, as it was
        old.log.error("the switch to the imported organization failed; serving the old one again", { error: String(e) });
        s.undo();
        this.app = await openApp(old.config, { quiet: this.opts.quiet });
        this.app.host = this;
        this.attach(this.server!);
        throw e;
      }
      next.host = this;
      this.app = next;
      this.attach(this.server!);
      next.log.info("switched to the imported organization");
      return next;
    } finally {
      this.switching = false;
    }
  }
}

/** parley serve: serve until SIGTERM/SIGINT, then stop cleanly (exit 0). Returns -1 while serving. */
export async function serve(config: Config): Promise<number> {
  const signals = stopOnSignals();
  signals.serving(await startServing(config));
  return -1;
}

/**
 * SIGTERM and SIGINT (and any other signals named) stop the server cleanly and end the process (exit 0).
 * Installed before the server starts, so a signal that comes while it starts (or right after its banner)
 * is not the default kill: the server stops as soon as it is up.
 */
export function stopOnSignals(more: NodeJS.Signals[] = []): { serving(s: Serving): void } {
  let serving: Serving | null = null;
  let asked = false;
  const stop = async () => {
    asked = true;
    if (!serving) return;
    await serving.stop();
    process.exit(0);
  };
  for (const signal of ["SIGTERM", "SIGINT", ...more] as const) process.on(signal, stop);
  return {
    serving(s) {
      serving = s;
      if (asked) void stop();
    },
  };
}

/** [metrics] port: a listener of its own for /metrics (and /health), e.g. on 127.0.0.1 for a local Prometheus. */
function listenForMetrics(app: App) {
  const { enabled, host, port } = app.config.metrics;
  if (!enabled || !port) return null;
  const server = createMetricsServer(app);
  try {
    server.listen({ hostname: host, port, reusePort: false });
  } catch (e) {
    throw new Error(`cannot listen for metrics on ${host}:${port}: ${(e as Error).message}`);
  }
  console.log(`Metrics at http://${host.includes(":") ? `[${host}]` : host}:${port}/metrics`);
  return server;
}

/** [server] tls_cert and tls_key read at start, so a bad path is a clear config error naming the key. */
function readTls(config: Config): { cert: string; key: string } | undefined {
  const { tls_cert, tls_key } = config.server;
  if (!tls_cert) return undefined;
  const read = (key: string, path: string, what: string) => {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new ConfigError(`config key 'server.${key}': cannot read ${path}: ${(e as Error).message}`);
    }
    if (!text.includes("-----BEGIN ")) throw new ConfigError(`config key 'server.${key}': ${path} is not a PEM file (${what})`);
    return text;
  };
  return { cert: read("tls_cert", tls_cert, "a certificate chain"), key: read("tls_key", tls_key, "a private key") };
}

/** Servers whose close hooks have run (a stop during start-up must not start the file-page timer after). */
const stopped = new WeakSet<App>();

/**
 * The executable starts with a reluctant JIT (build/compile.ts: jitPolicy), so start-up code that runs
 * once is not compiled. Start-up ends after the scheduler's first tick, whose jobs walk every user and
 * channel once (full-member sync, retention, overdue scheduled messages); from then on requests are the
 * hot code, so the normal policy applies. Compiling those walks cost ~3 MiB of idle RSS (the optimizing
 * compiler's own pages). A tick stuck on a slow job does not keep the JIT reluctant past 2 s.
 */
function relaxJitAfter(firstTick: Promise<void>, app: App): void {
  app.onClose.push(() => void stopped.add(app));
  void Promise.race([firstTick, Bun.sleep(2000)]).then(() => {
    Bun.unsafe.setJITPolicy(1);
    // Start-up's compiled code and allocations are garbage now: let JavaScriptCore drop them when idle
    // (code is compiled again from the embedded bytecode if it ever runs again). ~2 MiB of idle RSS.
    // Bun marks shrink() deprecated without a replacement; Bun.gc(true) alone frees far less here.
    Bun.shrink();
    releaseFilePagesNowAndEvery(app);
  });
}

/**
 * [memory] release_start_up_pages: the executable's pages that only start-up used (loading every
 * module's bytecode, migrations, copying the native files out) stay resident until the kernel needs the
 * memory. They are handed back once start-up is over; the first requests then load what start-up did not
 * (lazily imported modules, libvips), so again a minute later. Only with release_file_pages_seconds set,
 * at doubling intervals up to that after: each release costs reading back the pages requests keep using
 * (~45 MiB under the soak's mix), which a steady load touches again within seconds.
 */
function releaseFilePagesNowAndEvery(app: App): void {
  const { release_start_up_pages: enabled, release_file_pages_seconds: seconds } = app.config.memory;
  // a server stopped during start-up has run its close hooks already
  if (!enabled || stopped.has(app)) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const release = (n: number) => {
    releaseFilePages();
    const next = fileReleaseDelayMs(n, seconds);
    if (next === null) return;
    timer = setTimeout(() => release(n + 1), next);
    timer.unref();
  };
  release(0);
  app.onClose.unshift(() => clearTimeout(timer));
}

/**
 * [memory] malloc_arena_max and malloc_trim_seconds: glibc keeps what native code (libSQL, libvips) freed
 * in its arenas; a cap on their number, and handing free pages back now and then, keep resident memory
 * flat under a steady load (see src/lib/native-memory.ts).
 */
function boundNativeMemory(app: App): void {
  const { malloc_arena_max, malloc_trim_seconds } = app.config.memory;
  limitMallocArenas(malloc_arena_max);
  if (malloc_trim_seconds > 0) {
    const timer = setInterval(trimNativeHeap, malloc_trim_seconds * 1000);
    timer.unref();
    app.onClose.unshift(() => clearInterval(timer));
  }
}

/** How long after listening the scheduler starts (one of its ticks). */
const SCHEDULER_START_DELAY_MS = 250;
