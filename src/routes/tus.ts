import { Elysia } from "elysia";
import type { App } from "../app";
import { createTusUpload, getTusUpload, patchTusUpload, terminateTusUpload, TusError, type Finished, type TusState } from "../actions/tus";
import { maxUploadBytes } from "../actions/uploads";
import { authenticate } from "../http/auth";
import { errorResponse, json } from "../http/error-handler";
import { TUS_EXTENSIONS, TUS_VERSION } from "../uploads/tus";

/**
 * tus 1.0 at /api/v1/tus, and at /json/tus for the web app's session (cookie and CSRF token, like every
 * /json route): an upload's URL keeps the prefix it was created under. Errors are Zulip envelopes with
 * tus's status codes and headers.
 */

const base = () => ({ "tus-resumable": TUS_VERSION, "cache-control": "no-store" });

function stateHeaders(s: TusState): Record<string, string> {
  const h: Record<string, string> = {
    ...base(),
    "upload-offset": String(s.offset),
    "upload-length": String(s.upload.length),
    "upload-expires": new Date(s.upload.expires * 1000).toUTCString(),
  };
  if (s.upload.rawMetadata) h["upload-metadata"] = s.upload.rawMetadata;
  if (s.upload.completed) {
    h["upload-url"] = s.upload.completed.url;
    h["upload-filename"] = encodeURIComponent(s.upload.completed.filename);
  }
  return h;
}

const finishedBody = (f: Finished) => ({ result: "success", msg: "", url: f.url, uri: f.url, filename: f.filename });

async function handle(app: App, request: Request, fn: () => Promise<Response>): Promise<Response> {
  try {
    if (request.method !== "OPTIONS" && request.headers.get("tus-resumable") !== TUS_VERSION) {
      return json({ result: "error", msg: "Unsupported or missing Tus-Resumable version", code: "BAD_REQUEST" }, 412, { ...base(), "tus-version": TUS_VERSION });
    }
    return await fn();
  } catch (e) {
    if (e instanceof TusError) return json({ result: "error", msg: e.message, code: "BAD_REQUEST" }, e.status, base());
    const r = errorResponse(e, "", app.log, request);
    for (const [k, v] of Object.entries(base())) r.headers.set(k, v);
    return r;
  }
}

/** The tus paths: `/api/v1/tus` or `/json/tus`, then an upload's id. */
const TUS_PATH = /^(\/api\/v1|\/json)\/tus(?:\/(.*))?$/;

export const isTusPath = (path: string) => TUS_PATH.test(path);

function idOf(request: Request): string {
  const id = TUS_PATH.exec(new URL(request.url).pathname)?.[2] ?? "";
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

const prefixOf = (request: Request) => TUS_PATH.exec(new URL(request.url).pathname)?.[1] ?? "/api/v1";

async function head(app: App, request: Request): Promise<Response> {
  return handle(app, request, async () => {
    const me = await authenticate(app, request);
    return new Response(null, { status: 200, headers: stateHeaders(await getTusUpload(app, me, idOf(request))) });
  });
}

async function patch(app: App, request: Request): Promise<Response> {
  return handle(app, request, async () => {
    const me = await authenticate(app, request);
    const r = await patchTusUpload(app, me, idOf(request), request.headers, request.body);
    return r.finished ? json(finishedBody(r.finished), 200, stateHeaders(r)) : new Response(null, { status: 204, headers: stateHeaders(r) });
  });
}

async function terminate(app: App, request: Request): Promise<Response> {
  return handle(app, request, async () => {
    await terminateTusUpload(app, await authenticate(app, request), idOf(request));
    return new Response(null, { status: 204, headers: base() });
  });
}

/** OPTIONS and HEAD, answered from upload-files' request hook (before the generic OPTIONS/HEAD handling). */
export function tusEarlyResponse(app: App, request: Request): Promise<Response> | undefined {
  if (request.method === "OPTIONS") {
    return Promise.resolve(
      new Response(null, {
        status: 204,
        headers: { ...base(), "tus-version": TUS_VERSION, "tus-extension": TUS_EXTENSIONS, "tus-max-size": String(maxUploadBytes(app)), allow: "OPTIONS, POST, HEAD, PATCH, DELETE" },
      }),
    );
  }
  if (request.method === "HEAD" && idOf(request)) return head(app, request);
  return undefined;
}

/** A POST carrying X-HTTP-Method-Override (for clients that cannot send PATCH/DELETE). */
function overridden(app: App, request: Request): Promise<Response> {
  switch ((request.headers.get("x-http-method-override") ?? "").toUpperCase()) {
    case "PATCH":
      return patch(app, request);
    case "DELETE":
      return terminate(app, request);
    case "HEAD":
      return head(app, request);
  }
  return Promise.resolve(json({ result: "error", msg: "Method Not Allowed", code: "BAD_REQUEST" }, 405, base()));
}

export const tusRoutes = (app: App) =>
  new Elysia()
    .post(
      "/tus",
      ({ request }) =>
        handle(app, request, async () => {
          const me = await authenticate(app, request);
          const r = await createTusUpload(app, me, request.headers, request.body);
          const location = `${prefixOf(request)}/tus/${r.upload.id}`;
          const headers = { ...stateHeaders(r), location };
          return r.finished ? json(finishedBody(r.finished), 201, headers) : new Response(null, { status: 201, headers });
        }),
      { parse: "none" },
    )
    .patch("/tus/:id", ({ request }) => patch(app, request), { parse: "none" })
    .delete("/tus/:id", ({ request }) => terminate(app, request), { parse: "none" })
    .post("/tus/:id", ({ request }) => overridden(app, request), { parse: "none" });
