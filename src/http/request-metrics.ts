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
    .onAfterResponse({ as: "global" }, (ctx) => {
      const t0 = started.get(ctx.request);
      if (t0 === undefined) return;
      const c = ctx as typeof ctx & { route?: string; response?: unknown };
      const status = errorStatus.get(ctx.request) ?? (c.response instanceof Response ? c.response.status : typeof ctx.set.status === "number" ? ctx.set.status : 200);
      metrics.observe(ctx.request.method, c.route || "unmatched", status, (performance.now() - t0) / 1000);
    });
}
