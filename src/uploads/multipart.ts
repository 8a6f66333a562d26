/**
 * A streaming multipart/form-data reader: parts are handed to a sink chunk by chunk as the body
 * arrives, so a large upload never sits in memory whole (Bun's request.formData() buffers it).
 */

export interface PartInfo {
  /** the form field name */
  name: string;
  /** the client's file name; null for a plain field */
  filename: string | null;
  contentType: string | null;
}

export interface PartSink {
  write(chunk: Uint8Array): Promise<void> | void;
  end(): Promise<void> | void;
}

export class MultipartError extends Error {}

/** The boundary of a multipart/form-data Content-Type, or null. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType.trim())) return null;
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const b = m?.[1] ?? m?.[2];
  return b && b.length <= 200 ? b : null;
}

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Reads `body`, calling `onPart` for each part; the returned sink (or null to skip the part)
 * receives its bytes. Resolves when the closing boundary has been read.
 */
export async function readMultipart(body: ReadableStream<Uint8Array>, boundary: string, onPart: (info: PartInfo) => PartSink | null | Promise<PartSink | null>): Promise<void> {
  const opening = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let buf: Buffer = Buffer.alloc(0);
  let state: "preamble" | "afterBoundary" | "headers" | "body" | "done" = "preamble";
  const finished = () => state === "done"; // (read through a call: the loops change it)
  let sink: PartSink | null = null;
  const reader = body.getReader();
  try {
    let ended = false;
    while (!finished()) {
      let progressed = true;
      while (progressed && !finished()) {
        progressed = false;
        if (state === "preamble") {
          const i = buf.indexOf(opening);
          if (i >= 0) {
            buf = buf.subarray(i + opening.length);
            state = "afterBoundary";
            progressed = true;
          } else if (buf.length > opening.length) buf = buf.subarray(buf.length - opening.length);
        } else if (state === "afterBoundary") {
          if (buf.length < 2) break;
          if (buf[0] === 0x2d && buf[1] === 0x2d) {
            state = "done";
            break;
          }
          const eol = buf.indexOf(CRLF);
          if (eol < 0) {
            if (buf.length > 256) throw new MultipartError("malformed multipart boundary line");
            break;
          }
          if (buf.subarray(0, eol).toString("latin1").trim() !== "") throw new MultipartError("malformed multipart boundary line");
          buf = buf.subarray(eol + 2);
          state = "headers";
          progressed = true;
        } else if (state === "headers") {
          const end = buf.indexOf(HEADER_END);
          // A part without headers starts with the blank line directly.
          const empty = buf.length >= 2 && buf[0] === 0x0d && buf[1] === 0x0a;
          if (end < 0 && !empty) {
            if (buf.length > MAX_HEADER_BYTES) throw new MultipartError("multipart part headers too large");
            break;
          }
          const headerText = empty ? "" : buf.subarray(0, end).toString("utf8");
          buf = buf.subarray(empty ? 2 : end + 4);
          sink = await onPart(parsePartHeaders(headerText));
          state = "body";
          progressed = true;
        } else if (state === "body") {
          const i = buf.indexOf(delimiter);
          if (i >= 0) {
            if (sink && i > 0) await sink.write(buf.subarray(0, i));
            if (sink) await sink.end();
            sink = null;
            buf = buf.subarray(i + delimiter.length);
            state = "afterBoundary";
            progressed = true;
          } else {
            const safe = buf.length - (delimiter.length - 1);
            if (safe > 0) {
              if (sink) await sink.write(buf.subarray(0, safe));
              buf = buf.subarray(safe);
            }
          }
        }
      }
      if (finished()) break;
      if (ended) throw new MultipartError("multipart body ended early");
      const { done, value } = await reader.read();
      if (done) ended = true;
      else buf = buf.length ? Buffer.concat([buf, value]) : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  } finally {
    reader.releaseLock(); // the server reads the rest, if any, before it answers (http/request-body.ts)
  }
}

function parsePartHeaders(text: string): PartInfo {
  let name = "";
  let filename: string | null = null;
  let contentType: string | null = null;
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "content-type") contentType = value;
    if (key !== "content-disposition") continue;
    const params = dispositionParams(value);
    name = params.get("name") ?? "";
    filename = params.get("filename*") ?? params.get("filename") ?? null;
  }
  return { name, filename, contentType };
}

/** `form-data; name="a"; filename="b.txt"; filename*=UTF-8''b%C3%A9.txt` → Map. */
function dispositionParams(value: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const m of value.matchAll(re)) {
    const key = m[1]!.toLowerCase();
    let v = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3]!.trim();
    if (key === "filename*") {
      const ext = /^([\w-]+)'[^']*'(.*)$/.exec(v);
      if (ext) {
        try {
          v = decodeURIComponent(ext[2]!);
        } catch {
          continue;
        }
      }
    }
    out.set(key, v);
  }
  return out;
}
