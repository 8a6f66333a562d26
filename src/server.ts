import { Elysia } from "elysia";
import type { App } from "./app";
import { errorResponse, json } from "./http/error-handler";
import { apiRoutes } from "./routes";

/** The Elysia app: one error handler, the API under /api/v1, files, the web client. Never listens. */
export function createServer(app: App) {
  const api = apiRoutes(app);
  const server = new Elysia()
    .onError(({ error, code, request }) => {
      if (code === "NOT_FOUND") {
        const allowed = allowedMethods(new URL(request.url).pathname);
        if (allowed.length) return json({ result: "error", msg: "Method Not Allowed", code: "BAD_REQUEST", allowed_methods: allowed }, 405);
      }
      return errorResponse(error, code, app.log, request);
    })
    .onAfterHandle(({ set }) => {
      if (!set.headers["cache-control"]) set.headers["cache-control"] = "no-store, no-cache, must-revalidate, max-age=0";
    })
    .use(api);

  const patterns = server.routes.map((r) => ({ method: r.method, re: pathRegex(r.path) }));
  function allowedMethods(path: string): string[] {
    const methods = new Set(patterns.filter((p) => p.re.test(path)).map((p) => p.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].filter((m) => m !== "ALL").sort();
  }
  return server;
}

function pathRegex(path: string): RegExp {
  const body = path
    .split("/")
    .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg === "*" ? ".*" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${body}/?$`);
}

export type Server = ReturnType<typeof createServer>;
