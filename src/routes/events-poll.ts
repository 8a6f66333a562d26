import type { App } from "../app";
import { authenticate } from "../http/auth";
import { limitUser } from "../http/plugin";
import { errorResponse } from "../http/error-handler";
import { errorStatus } from "../http/request-metrics";
import { eventsAnswer } from "../events/wire";

/**
 * A re-poll's parameters in their usual form (queue_id, a plain integer last_event_id, dont_block
 * true/false or absent), read without the general reader: every long-poll answer is followed by one.
 * Anything else (null when so) goes through args.read(GetEventsArgs), which gives the same values and
 * Zulip's errors.
 */
export function pollArgs(raw: Record<string, unknown>): { queue_id: string; last_event_id: number; dont_block: boolean } | null {
  const q = raw.queue_id;
  const l = raw.last_event_id;
  const d = raw.dont_block;
  if (typeof q !== "string" || typeof l !== "string" || !PLAIN_INTEGER.test(l)) return null;
  if (d !== undefined && d !== "true" && d !== "false") return null;
  return { queue_id: q, last_event_id: Number(l), dont_block: d === "true" };
}
const PLAIN_INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/;

/** What a re-poll read: everything else it was sent is reported as ignored (Params.ignored). */
const POLL_PARAMETERS = new Set(["client", "queue_id", "last_event_id", "dont_block"]);
export function ignoredBesidePoll(raw: Record<string, unknown>): string[] {
  let out: string[] | null = null;
  for (const k in raw) if (!POLL_PARAMETERS.has(k)) (out ??= []).push(k); // (raw has no prototype)
  return out ? out.sort() : NONE;
}
const NONE: string[] = [];

/** What the server adds to every API answer of its own (server.ts NO_STORE). */
const NO_STORE = "no-store, no-cache, must-revalidate, max-age=0";

/**
 * A long-poll answer's headers, built once: Bun copies a Headers object into a Response faster than
 * it reads a plain object's. (The cache-control the server adds to every API answer is in it; the
 * server's after-handle hook leaves a Headers object alone.)
 */
export const EVENTS_ANSWER_HEADERS = new Headers({ "content-type": "application/json", "cache-control": NO_STORE });

/**
 * The query of a re-poll as clients send it, e.g. `?queue_id=…&last_event_id=41` (the order free,
 * `dont_block` and `client` optional): each key once, values without escapes. Read straight into the
 * three values, as pollArgs gives them; null for anything else.
 */
function plainRepoll(url: string, start: number): { queue_id: string; last_event_id: number; dont_block: boolean } | null {
  let queueId: string | undefined;
  let lastEventId: string | undefined;
  let dontBlock: string | undefined;
  let client = false;
  for (let i = start; i < url.length; ) {
    let amp = url.indexOf("&", i);
    if (amp < 0) amp = url.length;
    const eq = url.indexOf("=", i);
    if (eq < 0 || eq > amp) return null;
    const value = url.slice(eq + 1, amp);
    if (!PLAIN_VALUE.test(value)) return null;
    switch (url.slice(i, eq)) {
      case "queue_id":
        if (queueId !== undefined) return null;
        queueId = value;
        break;
      case "last_event_id":
        if (lastEventId !== undefined || !PLAIN_INTEGER.test(value)) return null;
        lastEventId = value;
        break;
      case "dont_block":
        if (dontBlock !== undefined || (value !== "true" && value !== "false")) return null;
        dontBlock = value;
        break;
      case "client":
        if (client) return null;
        client = true;
        break;
      default:
        return null;
    }
    i = amp + 1;
  }
  if (queueId === undefined || lastEventId === undefined) return null;
  return { queue_id: queueId, last_event_id: Number(lastEventId), dont_block: dontBlock === "true" };
}
const PLAIN_VALUE = /^[A-Za-z0-9._-]{1,100}$/;

const REPOLL_PATHS = ["/api/v1/events", "/json/events"];

/**
 * GET /events re-polls answered before the framework's routing, parameter reader and hooks: a
 * broadcast is followed by one re-poll per queue, 1,000 at once. The same steps as the route in
 * events.ts (authentication, the user's rate limit, the queue, the poll, the answer), every failure
 * answered by the same error handler; any other request, or a re-poll in another form (escaped
 * values, other parameters, a body), returns null and goes the general way. Not with [metrics] on:
 * its hooks count every request.
 */
export function repollFastPath(app: App, bunServer: () => { timeout(request: Request, seconds: number): void } | undefined) {
  return (request: Request): Promise<Response> | null => {
    if (request.method !== "GET") return null;
    const url = request.url;
    const pathStart = url.indexOf("/", url.indexOf("//") + 2);
    const q = url.indexOf("?", pathStart);
    if (q < 0 || url.indexOf("#", q) >= 0) return null;
    const path = url.slice(pathStart, q);
    if (path !== REPOLL_PATHS[0] && path !== REPOLL_PATHS[1]) return null;
    const p = plainRepoll(url, q + 1);
    if (!p) return null;
    const headers = request.headers;
    if (headers.has("transfer-encoding") || (headers.has("content-length") && headers.get("content-length") !== "0")) return null;
    return answer(app, request, p, bunServer).catch((error) => {
      const response = errorResponse(error, "UNKNOWN", app.log, request);
      errorStatus.set(request, response.status);
      return response;
    });
  };
}

/** The poll itself, the same for both paths: the user's queue, then its events (at once, or when some come). */
export async function pollQueue(app: App, userId: number, p: { queue_id: string; last_event_id: number; dont_block: boolean }, request: Request, server: { timeout(request: Request, seconds: number): void } | undefined) {
  const queue = app.events.get(p.queue_id, userId);
  // A long-poll outlives Bun's idle timeout: the heartbeat (45-55 s) ends it instead.
  if (!p.dont_block) server?.timeout(request, 0);
  return { queue, batch: await app.events.poll(queue, p.last_event_id, p.dont_block) };
}

async function answer(app: App, request: Request, p: { queue_id: string; last_event_id: number; dont_block: boolean }, bunServer: () => { timeout(request: Request, seconds: number): void } | undefined) {
  const me = await authenticate(app, request);
  const limited: Record<string, string | number> = {};
  limitUser(app, me.id, limited);
  const { queue, batch } = await pollQueue(app, me.id, p, request, bunServer());
  const body = eventsAnswer(batch, queue.id, NONE);
  let headers = EVENTS_ANSWER_HEADERS;
  for (const _ in limited) {
    headers = new Headers(limited as Record<string, string>);
    headers.set("content-type", "application/json");
    headers.set("cache-control", NO_STORE);
    break;
  }
  return new Response(body, { headers });
}
