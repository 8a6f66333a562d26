import { Elysia } from "elysia";
import type { App } from "./app";
import type { Config } from "./config/schema";
import { errorResponse, json } from "./http/error-handler";
import { apiPlugins } from "./routes";
import { webRoutes } from "./routes/web";
import { uploadFileRoutes } from "./routes/upload-files";
import { joinRoutes } from "./routes/join";
import { loginLinkRoutes } from "./routes/login-links";
import { accountPageRoutes } from "./routes/account-pages";
import { emojiDataRoutes } from "./routes/emoji-data";
import { zulipImageRoutes } from "./routes/zulip-images";
import { healthRoutes } from "./routes/health";
import { metricsRoutes, requestMetricsFor } from "./routes/metrics";
import { errorStatus } from "./http/request-metrics";
import { peersOf } from "./http/client-address";
import { pathOf } from "./http/url-path";
import { discardRest, readAtMost, readFrom } from "./http/request-body";
import { repollFastPath } from "./routes/events-poll";

/** The Elysia app: one error handler, the API under /api/v1, files, the web client. Never listens. */
export function createServer(app: App) {
  const uploadLimit = uploadBodyLimit(app.config);
  const readCap = listenLimits(app.config).maxRequestBodySize;
  const smallerLimit = Math.min(uploadLimit, MAX_BODY_BYTES);
  const metrics = app.config.metrics;
  // chunked bodies the wrap read and found too long
  const overLimit = new WeakSet<Request>();
  // GET /events re-polls in their usual form skip the routing and hooks (routes/events-poll.ts)
  const repoll = metrics.enabled ? null : repollFastPath(app, () => server.server ?? undefined);
  const server: Elysia<any, any, any, any, any, any, any> = new Elysia()
    // every answer waits until the request's body was read to its end (request-body.ts)
    .wrap((handle, request) => {
      const quick = repoll?.(request);
      return quick ? () => quick : general(handle, request);
    });
  const general = (handle: (...args: unknown[]) => unknown, request: Request) => async (...args: unknown[]) => {
    // A chunked body (no Content-Length) is read up to its limit before the framework parses it
    // (uploads stream their bodies themselves, with their own limit); past it, the same refusal.
    // Here rather than in a request hook: no hook (and no await) for the requests without one.
    if (request.headers.has("transfer-encoding") && !request.headers.has("content-length") && request.body && request.method !== "OPTIONS" && request.method !== "HEAD") {
      const path = pathOf(request.url);
      if (!IMPORT_PATH.test(path) && !UPLOAD_PATHS.some((p) => path.startsWith(p))) {
        let body: Blob | null = null;
        try {
          body = await readAtMost(request.body, MAX_BODY_BYTES);
        } catch {} // a client gone while sending: answered as too large, to nobody
        if (body) readFrom(request, body);
        else overLimit.add(request); // refused by the request hook below (so metrics count it)
      }
    }
    const response = await handle(...args);
    await discardRest(request, readCap);
    return response;
  };
  // first of all, so every request is timed (only when metrics are on: no hook otherwise)
  if (metrics.enabled) server.use(requestMetricsFor(app));
  // the client address is worked out when something asks for it (client-address.ts), with the socket
  // of the server this app listens with
  peersOf(app, () => server.server);
  server
    .use(uploadFileRoutes(app)) // first: its request hook answers tus OPTIONS/HEAD before the generic handling below
    .onRequest(({ request }) => {
      const method = request.method;
      if (method === "OPTIONS") {
        const allowed = allowedMethods(pathOf(request.url));
        return allowed.length
          ? new Response(null, { status: 204, headers: { allow: [...allowed, "OPTIONS"].join(", ") } })
          : json({ result: "error", msg: "Not Found", code: "BAD_REQUEST" }, 404);
      }
      if (method === "HEAD") return headAsGet(request);
      if (overLimit.has(request)) return json(BODY_TOO_LARGE, 413);
      // refused unread (the body is then read and thrown away, see wrap above); the path is looked
      // at only for a body past the smaller of the two limits
      const length = Number(request.headers.get("content-length") ?? 0);
      if (length > smallerLimit) {
        const path = pathOf(request.url);
        const limit = IMPORT_PATH.test(path) ? importBodyLimit(app.config) : UPLOAD_PATHS.some((p) => path.startsWith(p)) ? uploadLimit : MAX_BODY_BYTES;
        if (length > limit) return json(BODY_TOO_LARGE, 413);
      }
    })
    .onError(({ error, code, request }) => {
      if (code === "NOT_FOUND") {
        const allowed = allowedMethods(pathOf(request.url));
        if (allowed.length) {
          errorStatus.set(request, 405);
          return json({ result: "error", msg: "Method Not Allowed", code: "BAD_REQUEST", allowed_methods: allowed }, 405);
        }
      }
      const response = errorResponse(error, code, app.log, request);
      errorStatus.set(request, response.status);
      return response;
    })
    .onAfterHandle(({ set }) => {
      // (a route's prebuilt Headers, GET /events', carries its own)
      if (!set.headers["cache-control"] && !(set.headers instanceof Headers)) set.headers["cache-control"] = NO_STORE;
    })
    // the API's parts one by one, not through one more plugin level (see apiPlugins)
    .use(apiPlugins(app))
    .use(webRoutes(app))
    .use(emojiDataRoutes())
    .use(zulipImageRoutes())
    .use(joinRoutes(app))
    .use(loginLinkRoutes(app))
    .use(accountPageRoutes(app))
    .use(healthRoutes(app));
  // metrics on the main port unless [metrics] port gives them a listener of their own (createMetricsServer)
  if (metrics.enabled && !metrics.port) server.use(metricsRoutes(app));

  async function headAsGet(request: Request): Promise<Response> {
    const res = await server.handle(new Request(request.url, { method: "GET", headers: request.headers }));
    return new Response(null, { status: res.status, headers: res.headers });
  }

  const patterns = server.routes.map((r) => ({ method: r.method, re: pathRegex(r.path) }));
  function allowedMethods(path: string): string[] {
    const methods = new Set(patterns.filter((p) => p.re.test(path)).map((p) => p.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].filter((m) => m !== "ALL").sort();
  }
  return server;
}

/** What every API answer says of caching unless its route says otherwise. */
export const NO_STORE = "no-store, no-cache, must-revalidate, max-age=0";

/** Bodies above this are refused before they are read (uploads have their own, larger limit). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
const BODY_TOO_LARGE = { result: "error", msg: "Request body too large", code: "BAD_REQUEST" } as const;
const MIB = 1024 * 1024;

/** An upload's body: the largest file and its multipart envelope. */
const uploadBodyLimit = (config: Config) => (config.limits.max_file_upload_size_mib + 1) * MIB;

/**
 * How much of a refused body is read and thrown away, past the largest body Parley takes: a client
 * sending 30 MB to a 5 MiB endpoint, or a 100 MB file, reads the JSON refusal instead of a connection
 * closed under it. A body longer than the upload limit plus this has its connection closed (Bun's
 * maxRequestBodySize) once that much arrived.
 */
export const DISCARD_BYTES = 100 * MIB;

/** The options every listen() of the app takes (serve and the tests that use a real socket). */
export function listenLimits(config: Config): { maxRequestBodySize: number } {
  return { maxRequestBodySize: Math.max(uploadBodyLimit(config), importBodyLimit(config)) + DISCARD_BYTES };
}

/** The web import's upload (the owner's Slack or Zulip export): its own, larger limit. */
const IMPORT_PATH = /^\/(api\/v1|json)\/parley\/import\/?$/;
const importBodyLimit = (config: Config) => (config.limits.max_import_size_mib + 1) * MIB;

const UPLOAD_PATHS = ["/api/v1/user_uploads", "/api/v1/tus", "/api/v1/realm/emoji", "/api/v1/users/me/avatar", "/api/v1/realm/icon", "/api/v1/realm/logo", "/json/"];

function pathRegex(path: string): RegExp {
  const body = path
    .split("/")
    .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg === "*" ? ".*" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${body}/?$`);
}

export type Server = ReturnType<typeof createServer>;

/** The separate metrics listener ([metrics] port): /metrics and /health only. Never listens itself. */
export function createMetricsServer(app: App) {
  return new Elysia()
    .onError(({ error, code, request }) => errorResponse(error, code, app.log, request))
    .use(metricsRoutes(app))
    .use(healthRoutes(app));
}
