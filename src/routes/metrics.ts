import { Elysia } from "elysia";
import type { App } from "../app";
import { enableMetrics, renderMetrics } from "../actions/metrics";
import { requestMetrics } from "../http/request-metrics";
import { bearerMatches } from "../http/auth";
import { json } from "../http/error-handler";

/** GET /metrics in Prometheus' text format; with [metrics] token set, only for `Authorization: Bearer <token>`. */
export const metricsRoutes = (app: App) =>
  new Elysia().get("/metrics", async ({ request }) => {
    const token = app.config.metrics.token;
    if (token && !bearerMatches(request, token)) {
      return json({ result: "error", msg: "Metrics need the token of [metrics] token", code: "UNAUTHORIZED" }, 401, { "www-authenticate": 'Bearer realm="parley metrics"' });
    }
    const { body, contentType } = await renderMetrics(app);
    return new Response(body, { headers: { "content-type": contentType } });
  });

/** The hooks that time every request ([metrics] enabled), to be used first of all. */
export const requestMetricsFor = (app: App) => requestMetrics(enableMetrics(app));
