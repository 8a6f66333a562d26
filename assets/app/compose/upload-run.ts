/**
 * Sending one file to the server, with progress (loaded only when the person uploads something).
 * Files up to TUS_THRESHOLD go in one multipart POST /json/user_uploads (XMLHttpRequest, for its upload
 * progress); larger ones through tus (/json/tus): created, then sent in chunks, each resumed from the
 * offset the server reports (HEAD) after a dropped connection. Both end with the file's `url` and `filename`.
 */

export const TUS_THRESHOLD = 5 * 1024 * 1024;
const CHUNK = 5 * 1024 * 1024;
const RETRIES = 5;
const TUS = "1.0.0";

export interface Uploaded {
  url: string;
  filename: string;
}

export class UploadError extends Error {}

const csrfToken = () => /(?:^|;\s*)parley_csrf=([^;]*)/.exec(document.cookie)?.[1] ?? "";

/** The server's reason, from its JSON error envelope, or a plain one. */
function reason(xhr: XMLHttpRequest): string {
  try {
    const body = JSON.parse(xhr.responseText);
    if (body?.msg) return body.msg;
  } catch {
    // not JSON
  }
  return xhr.status ? `the server answered ${xhr.status}` : "the server cannot be reached";
}

interface Sent {
  xhr: XMLHttpRequest;
  /** false: the connection failed before an answer */
  answered: boolean;
}

function request(method: string, url: string, headers: Record<string, string>, body: XMLHttpRequestBodyInit | null, onProgress: (loaded: number) => void, signal: AbortSignal): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => resolve({ xhr, answered: true });
    xhr.onerror = () => resolve({ xhr, answered: false });
    xhr.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    const abort = () => xhr.abort();
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    xhr.send(body);
  });
}

async function postUpload(file: File, onProgress: (loaded: number) => void, signal: AbortSignal): Promise<Uploaded> {
  const form = new FormData();
  form.append("file", file, file.name);
  const { xhr, answered } = await request("POST", "/json/user_uploads", { "X-CSRFToken": csrfToken() }, form, onProgress, signal);
  if (!answered) throw new UploadError("the server cannot be reached");
  if (xhr.status !== 200) throw new UploadError(reason(xhr));
  const body = JSON.parse(xhr.responseText);
  return { url: body.url ?? body.uri, filename: body.filename ?? file.name };
}

const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function tusUpload(file: File, onProgress: (loaded: number) => void, signal: AbortSignal): Promise<Uploaded> {
  const writeHeaders = { "Tus-Resumable": TUS, "X-CSRFToken": csrfToken() };
  const created = await fetch("/json/tus", {
    method: "POST",
    credentials: "same-origin",
    headers: { ...writeHeaders, "Upload-Length": String(file.size), "Upload-Metadata": `filename ${b64(file.name)},filetype ${b64(file.type || "application/octet-stream")}` },
    signal,
  }).catch(() => {
    if (signal.aborted) throw new DOMException("The upload was cancelled.", "AbortError");
    throw new UploadError("the server cannot be reached");
  });
  if (created.status !== 201) throw new UploadError(await created.json().then((b) => b.msg as string, () => `the server answered ${created.status}`));
  const location = created.headers.get("location")!;
  // a cancelled upload is ended on the server too
  signal.addEventListener("abort", () => void fetch(location, { method: "DELETE", credentials: "same-origin", headers: writeHeaders }).catch(() => {}), { once: true });

  let offset = 0;
  let failures = 0;
  for (;;) {
    const chunk = file.slice(offset, Math.min(file.size, offset + CHUNK));
    const start = offset;
    const { xhr, answered } = await request(
      "PATCH",
      location,
      { ...writeHeaders, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
      chunk,
      (loaded) => onProgress(start + loaded),
      signal,
    );
    if (answered && xhr.status === 200) {
      const body = JSON.parse(xhr.responseText);
      return { url: body.url, filename: body.filename ?? file.name };
    }
    if (answered && xhr.status === 204) {
      offset = Number(xhr.getResponseHeader("Upload-Offset"));
      failures = 0;
      continue;
    }
    // a refusal (4xx other than a lost offset) is final; a dropped connection or a 5xx is resumed
    if (answered && xhr.status >= 400 && xhr.status < 500 && xhr.status !== 409 && xhr.status !== 423) throw new UploadError(reason(xhr));
    if (++failures > RETRIES) throw new UploadError(answered ? reason(xhr) : "the server cannot be reached");
    await pause(500 * 2 ** failures);
    if (signal.aborted) throw new DOMException("The upload was cancelled.", "AbortError");
    const head = await fetch(location, { method: "HEAD", credentials: "same-origin", headers: { "Tus-Resumable": TUS } }).catch(() => null);
    if (head?.ok) offset = Number(head.headers.get("Upload-Offset") ?? offset);
  }
}

export function runUpload(file: File, onProgress: (loaded: number) => void, signal: AbortSignal): Promise<Uploaded> {
  return file.size > TUS_THRESHOLD ? tusUpload(file, onProgress, signal) : postUpload(file, onProgress, signal);
}
