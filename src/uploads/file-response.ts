/**
 * The HTTP response for a stored file: conditional requests (ETag / If-None-Match → 304), single
 * byte ranges (206, or 416 when unsatisfiable; If-Range honoured), private caching, and headers
 * that stop browsers from second-guessing the type.
 */
import { contentDisposition, servingType } from "./content-type";

export interface StoredFile {
  path: string;
  size: number;
  /** a stable identity of the content (files are immutable: the path id is enough) */
  identity: string;
  fileName: string;
  contentType: string | null;
  /** force a download even for inline-safe types */
  download?: boolean;
}

export function etagOf(identity: string, size: number): string {
  return `"${new Bun.CryptoHasher("sha256").update(identity).digest("base64url").slice(0, 22)}-${size.toString(36)}"`;
}

function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

/** `bytes=a-b` / `bytes=a-` / `bytes=-n` → [start, end] inclusive; "invalid" → ignore; null → unsatisfiable. */
export function parseRange(header: string, size: number): [number, number] | null | "ignore" {
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === "" && m[2] === "")) return "ignore"; // multiple ranges or junk: serve it all
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return null;
    return [Math.max(0, size - n), size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || start > end) return null;
  return [start, end];
}

export function fileResponse(request: Request, file: StoredFile, extraHeaders: Record<string, string> = {}): Response {
  const etag = etagOf(file.identity, file.size);
  const { contentType, inline } = servingType(file.contentType);
  const headers: Record<string, string> = {
    etag,
    "cache-control": "private, max-age=86400",
    "x-content-type-options": "nosniff",
    "accept-ranges": "bytes",
    // No scripts, frames or connections from a served file; PDFs and media still display.
    "content-security-policy": "default-src 'none'; img-src 'self'; media-src 'self'; object-src 'self'; style-src 'unsafe-inline'",
    ...extraHeaders,
  };
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  headers["content-type"] = contentType;
  headers["content-disposition"] = contentDisposition(inline && !file.download, file.fileName);
  const range = request.headers.get("range");
  const ifRange = request.headers.get("if-range");
  if (range && (!ifRange || ifRange.trim() === etag)) {
    const r = parseRange(range, file.size);
    if (r === null) return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${file.size}` } });
    if (r !== "ignore") {
      const [start, end] = r;
      headers["content-range"] = `bytes ${start}-${end}/${file.size}`;
      headers["content-length"] = String(end - start + 1);
      return new Response(Bun.file(file.path).slice(start, end + 1), { status: 206, headers });
    }
  }
  headers["content-length"] = String(file.size);
  return new Response(file.size ? Bun.file(file.path) : "", { status: 200, headers });
}
