import { Elysia } from "elysia";
import type { ServerMetrics } from "../lib/metrics";

/**
 * The status of a response the error handler made: Elysia's after-response hook sees the handler's
 * status, not the one an error turned into (server.ts records it here).
 */
export const errorStatus = new WeakMap<Request, number>();

/**
 * Times every request and counts it by method, route template and status. Added only when metrics
 * are on: with them off no hook runs on any request.
 */
export function requestMetrics(metrics: ServerMetrics) {
  const started = new WeakMap<Request, number>();
  return new Elysia({ name: "request-metrics" })
    .onRequest(({ request }) => void started.set(request, performance.now()))
    // destructured: Elysia reads a hook's parameters to decide what to prepare (a whole context costs more)
    .onAfterResponse({ as: "global" }, ({ request, route, set, response }: { request: Request; route?: string; set: { status?: unknown }; response?: unknown }) => {
      const t0 = started.get(request);
      if (t0 === undefined) return;
      const status = errorStatus.get(request) ?? (response instanceof Response ? response.status : typeof set.status === "number" ? set.status : 200);
      metrics.observe(request.method, route || "unmatched", status, (performance.now() - t0) / 1000);
    });
}
