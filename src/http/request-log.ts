// One log line per request (`parley serve`): method, path, status, duration, client address, user.
// The path carries no secrets: the query string is left out (API keys and tokens may ride in it), and
// so are the key of an invitation link and the token of a temporary upload URL.
import type { App } from "../app";
import { clientOf, type PeerSource } from "./client-address";

const users = new WeakMap<Request, number>();

/** Called by authentication: the request's user, for its log line. */
export function noteUser(request: Request, userId: number): void {
  users.set(request, userId);
}

const SECRET_SEGMENT = /\/(join|temporary)\/[^/]+/;
const MAX_PATH = 300;

/** The path of a request URL as it is logged. */
export function loggedPath(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.indexOf("?", start);
  if (end < 0) end = url.indexOf("#", start);
  let path = end < 0 ? url.slice(start) : url.slice(start, end);
  if (path.length > MAX_PATH) path = path.slice(0, MAX_PATH) + "…";
  return SECRET_SEGMENT.test(path) ? path.replace(SECRET_SEGMENT, "/$1/[hidden]") : path;
}

type Handler<S> = (request: Request, server: S) => Response | Promise<Response>;

/** Wraps a server's fetch handler so each answered request writes its line to the app's log. */
export function withRequestLog<S extends PeerSource>(app: App, handle: Handler<S>): (request: Request, server: S) => Promise<Response> {
  const log = app.log;
  // a request line is written for every answer at info: the client is then worked out as the request
  // comes in, while its socket is there (a long-poll's client may be gone by the time it is answered)
  const lines = log.enabled("info");
  return async (request, server) => {
    const started = performance.now();
    if (lines) clientOf(app, request, server);
    let status = 500;
    try {
      const response = await handle(request, server);
      status = response.status;
      return response;
    } finally {
      if (log.enabled(status >= 500 ? "error" : "info")) {
        log.request({
          method: request.method,
          path: loggedPath(request.url),
          status,
          ms: performance.now() - started,
          client: clientOf(app, request, server).address,
          user_id: users.get(request),
          user_agent: log.enabled("debug") ? (request.headers.get("user-agent") ?? "") : undefined,
        });
      }
    }
  };
}
