import type { Config } from "./config/schema";
import { closeApp, openApp, type App } from "./app";
import { createMetricsServer, createServer } from "./server";
import { ensureOrganization } from "./main";
import { startScheduler } from "./scheduler";
import { loadWebBuild } from "./web/source";

/** parley serve: open, listen, and on SIGTERM/SIGINT stop cleanly (exit 0). Returns -1 while serving. */
export async function serve(config: Config): Promise<number> {
  const app = await openApp(config);
  await ensureOrganization(app);
  const server = createServer(app);
  try {
    server.listen({
      hostname: config.server.host,
      port: config.server.port,
      reusePort: false,
      idleTimeout: 60,
      maxRequestBodySize: (config.limits.max_file_upload_size_mib + 2) * 1024 * 1024,
    });
  } catch (e) {
    await closeApp(app);
    throw new Error(`cannot listen on ${config.server.host}:${config.server.port}: ${(e as Error).message}`);
  }
  let metricsServer: ReturnType<typeof listenForMetrics>;
  try {
    metricsServer = listenForMetrics(app);
  } catch (e) {
    await server.stop(true);
    await closeApp(app);
    throw e;
  }
  const { firstTick } = startScheduler(app);
  // from source the web app is bundled now rather than on the first visit (the executable has it built in)
  void loadWebBuild().catch((e) => app.log.error("the web app did not bundle", { error: String(e) }));
  // The executable starts with a reluctant JIT (build/compile.ts: jitPolicy), so start-up code that runs
  // once is not compiled. Start-up ends after the scheduler's first tick, whose jobs walk every user and
  // channel once (full-member sync, retention, overdue scheduled messages); from then on requests are the
  // hot code, so the normal policy applies. Compiling those walks cost ~3 MiB of idle RSS (the optimizing
  // compiler's own pages). A tick stuck on a slow job does not keep the JIT reluctant past 2 s.
  void Promise.race([firstTick, Bun.sleep(2000)]).then(() => {
    Bun.unsafe.setJITPolicy(1);
    // Start-up's compiled code and allocations are garbage now: let JavaScriptCore drop them when idle
    // (code is compiled again from the embedded bytecode if it ever runs again). ~2 MiB of idle RSS.
    // Bun marks shrink() deprecated without a replacement; Bun.gc(true) alone frees far less here.
    Bun.shrink();
  });
  const port = server.server?.port;
  console.log(`Parley is serving ${config.server.external_url} (listening on ${config.server.host}:${port}, data in ${config.data_dir})`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    app.log.info("shutting down");
    void metricsServer?.stop(true);
    const inflight = server.stop(false); // stop accepting; in-flight requests finish
    app.events.releaseAll(); // parked long-polls answer now
    await inflight;
    await closeApp(app);
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  return -1;
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
