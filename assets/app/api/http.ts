/**
 * The HTTP client: Zulip's /json routes with the session cookie, the CSRF token on every write, and
 * parameters form-encoded the way Zulip's clients send them (strings as they are, the rest as JSON).
 */

/** The server answered with Zulip's error envelope. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    /** the whole error body, for errors that carry more (INVITATION_FAILED's per-address errors) */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The server could not be reached, or answered with something other than the API (a 5xx, a proxy page). */
export class NetworkError extends Error {}

export type Params = Record<string, unknown>;
export type Method = "GET" | "POST" | "PATCH" | "DELETE";

export const csrfToken = () => /(?:^|;\s*)parley_csrf=([^;]*)/.exec(document.cookie)?.[1] ?? "";
const encode = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * The session ended (logged out elsewhere, deactivated, password changed): to the login page, which
 * says so and brings the person back to this view afterwards. The server answers /json with Zulip's
 * `Session` challenge, so the browser shows no credentials prompt of its own.
 */
let onSignedOut = () => location.replace(`/?session_ended=1${location.hash}`);
/** Replaces what happens when the session has ended; returns what happened before. */
export const whenSignedOut = (f: () => void) => {
  const before = onSignedOut;
  onSignedOut = f;
  return before;
};
let signedOut = false;

/**
 * The URL and fetch options of an API call. The page's inline start-up script (api/start-requests.ts)
 * sends /register and the first messages with it too, so they are asked for exactly as api() would.
 */
export function apiRequest(method: Method, path: string, params: Params = {}): { url: string; init: RequestInit } {
  const entries = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, encode(v)] as [string, string]);
  const query = method === "GET" && entries.length ? `?${new URLSearchParams(entries)}` : "";
  return {
    url: `/json${path}${query}`,
    init: {
      method,
      credentials: "same-origin",
      headers: method === "GET" ? {} : { "X-CSRFToken": csrfToken() },
      body: method === "GET" ? undefined : new URLSearchParams(entries),
    },
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/** A response with its body read as JSON (`json` false when it was not JSON or could not be read). */
export interface ReadAnswer {
  status: number;
  json: boolean;
  body?: any;
}

/**
 * Reads a response's JSON body as soon as it comes. The page's start-up script reads its two answers so,
 * while the bundle is still loading: the large /register answer is parsed before the app needs it.
 */
export const readAnswer = (res: Response): Promise<ReadAnswer> =>
  res.json().then(
    (body) => ({ status: res.status, json: true, body }),
    () => ({ status: res.status, json: false }),
  );

export async function api<T = any>(method: Method, path: string, params: Params = {}, signal?: AbortSignal): Promise<T> {
  const { url, init } = apiRequest(method, path, params);
  return answerOf<T>(fetch(url, { ...init, signal }).then(readAnswer), signal);
}

/** The answer to a request already sent (by api(), or by the page's start-up script), as api() gives it. */
export async function answerOf<T = any>(sent: Promise<ReadAnswer>, signal?: AbortSignal): Promise<T> {
  let read: ReadAnswer;
  try {
    read = await sent;
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new NetworkError("Parley's server cannot be reached.");
  }
  return answer<T>(read);
}

/** A multipart POST (an image with its fields), or PATCH where Zulip takes one, answered like api(). */
export function apiUpload<T = any>(path: string, form: FormData, method: "POST" | "PATCH" = "POST"): Promise<T> {
  return answerOf<T>(fetch(`/json${path}`, { method, credentials: "same-origin", headers: { "X-CSRFToken": csrfToken() }, body: form }).then(readAnswer));
}

function answer<T>({ status, json, body }: ReadAnswer): T {
  if (!json) throw new NetworkError(`Parley's server answered with an error (${status}).`);
  if (status === 401 && !signedOut) {
    signedOut = true; // once: every call in flight answers 401 too
    onSignedOut();
  }
  if (body?.result === "success") return body as T;
  if (status >= 500 && !body?.code) throw new NetworkError(`Parley's server answered with an error (${status}).`);
  throw new ApiError(body?.msg || `Request failed (${status})`, body?.code ?? "BAD_REQUEST", status, body && typeof body === "object" ? body : {});
}

/** A message for a person from whatever went wrong. */
export const describeError = (e: unknown) => (e instanceof Error ? e.message : String(e));
