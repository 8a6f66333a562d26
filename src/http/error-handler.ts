import type { Log } from "../lib/log";
import { ZulipError } from "../errors";

/** Turns any thrown error into Zulip's envelope; never a stack trace, never plain text. */
export function errorResponse(error: unknown, code: string | number, log: Log, request: Request): Response {
  if (error instanceof ZulipError) {
    return json({ result: "error", msg: error.message, code: error.code, ...error.data }, error.httpStatus, challenged(error, request));
  }
  switch (code) {
    case "NOT_FOUND":
      return json({ result: "error", msg: "Not Found", code: "BAD_REQUEST" }, 404);
    case "PARSE":
      return json({ result: "error", msg: "Malformed JSON", code: "INVALID_JSON" }, 400);
    case "VALIDATION":
      return json({ result: "error", msg: "Invalid parameters", code: "BAD_REQUEST" }, 400);
  }
  if (diskFull(error)) {
    // a 4xx: the apps show the msg of a 4xx to the person, and only a generic text for a 5xx
    log.error("disk full: a write was refused", { method: request.method, path: new URL(request.url).pathname, error: String((error as Error)?.message ?? error) });
    return json({ result: "error", msg: "The server's disk is full, so this could not be saved. Please tell the server's administrator.", code: "DISK_FULL" }, 400);
  }
  const status = (error as any)?.status ?? (error as any)?.code;
  if (status === 413 || (error as Error)?.message?.includes("too large")) {
    return json({ result: "error", msg: "Request body too large", code: "BAD_REQUEST" }, 413);
  }
  const requestId = crypto.randomUUID();
  log.error("unhandled error", {
    requestId,
    method: request.method,
    path: new URL(request.url).pathname,
    error: (error as Error)?.stack ?? String(error),
  });
  return json({ result: "error", msg: "Internal server error", code: "INTERNAL_SERVER_ERROR", request_id: requestId }, 500);
}

/**
 * Zulip's rule for 401s: /json (the web app's session) answers with a `Session` challenge, which no
 * browser acts on, so the app itself can take the person to the login page; a `Basic` challenge there
 * would pop the browser's own credentials prompt over it. /api/v1 keeps `Basic`.
 */
function challenged(error: ZulipError, request: Request): Record<string, string> {
  if (error.httpStatus !== 401 || !new URL(request.url).pathname.startsWith("/json/")) return error.headers;
  const { "WWW-Authenticate": _basic, ...rest } = error.headers;
  return { ...rest, "WWW-Authenticate": 'Session realm="zulip"' };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/**
 * A write the disk had no room for: SQLite's SQLITE_FULL (its transaction was rolled back, so nothing
 * of it was stored), or ENOSPC/EDQUOT from a file write (uploads remove their partial files).
 */
function diskFull(error: unknown): boolean {
  for (let e = error as any, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (e.code === "SQLITE_FULL" || e.code === "ENOSPC" || e.code === "EDQUOT") return true;
  }
  return false;
}
