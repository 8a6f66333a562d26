/**
 * The two requests a page starts with, POST /register and the first view's GET /messages. A small
 * classic script inlined in the app page's head (start.ts, built by src/web/build.ts) sends them, so
 * they run while the app's bundle loads instead of after it; boot.tsx adopts them, or sends them itself
 * when the page came without them. Both sides use this module: the parameters have one source.
 */
import { REGISTER_PARAMS } from "../state/register-params";
import { firstViewParams } from "./calls";
import { apiRequest, readAnswer, type Method, type Params, type ReadAnswer } from "./http";

export interface StartRequests {
  register: Promise<ReadAnswer>;
  /** the first view's messages, when the URL names a view readable before /register (calls.ts) */
  messages: { params: Params; response: Promise<ReadAnswer> } | null;
}

declare global {
  interface Window {
    /** set by the page's start-up script, taken (once) by boot.tsx */
    parleyStart?: StartRequests;
  }
}

/** Sends a request and reads its answer's JSON as it comes (off the app's path: the bundle is still loading). */
function send(method: Method, path: string, params: Params): Promise<ReadAnswer> {
  const { url, init } = apiRequest(method, path, params);
  const sent = fetch(url, init).then(readAnswer);
  sent.catch(() => {}); // read (and reported) by boot.tsx; a failure waiting for it is nobody's error yet
  return sent;
}

export function startRequests(hash: string): StartRequests {
  const register = send("POST", "/register", REGISTER_PARAMS);
  const params = firstViewParams(hash);
  return { register, messages: params && { params, response: send("GET", "/messages", params) } };
}

/** The requests the page's script started (`adopted`), else sent now; each page load takes them once. */
export function takeStartRequests(): StartRequests & { adopted: boolean } {
  const started = window.parleyStart;
  delete window.parleyStart;
  return started ? { ...started, adopted: true } : { ...startRequests(location.hash), adopted: false };
}
