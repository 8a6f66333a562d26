/**
 * What a file is, judged from its bytes (file-type) rather than the client's word, and how it may
 * be served. Only types a browser cannot turn into script are shown inline (Zulip's
 * INLINE_MIME_TYPES); everything else is a download, and HTML/SVG/XML/script types are never even
 * labelled as such.
 */

/** How many leading bytes sniffing needs (file-type's sample size). */
export const SNIFF_BYTES = 4100;

/** Zulip's INLINE_MIME_TYPES (plus Ogg): safe to display in the browser. */
export const INLINE_TYPES = new Set([
  "application/pdf",
  "audio/aac",
  "audio/flac",
  "audio/mp4",
  "audio/mpeg",
  "audio/ogg",
  "audio/wav",
  "audio/webm",
  "image/apng",
  "image/avif",
  "image/gif",
  "image/jpeg",
  "image/png",
  "image/webp",
  "text/plain",
  "video/mp4",
  "video/ogg",
  "video/webm",
]);

/** Images the server thumbnails (Zulip's THUMBNAIL_ACCEPT_IMAGE_TYPES). */
export const THUMBNAIL_TYPES = new Set(["image/avif", "image/gif", "image/heic", "image/jpeg", "image/png", "image/tiff", "image/webp"]);

/** Types that a browser could execute or render as a document: never served under their own name. */
const ACTIVE = /^(text\/(html|xml|javascript|ecmascript|xsl)|application\/(xhtml\+xml|xml|javascript|ecmascript|x-shockwave-flash|wasm)|image\/svg\+xml|multipart\/)/i;

/** Normalizes file-type's answers to the names browsers use. */
const ALIASES: Record<string, string> = { "audio/x-wav": "audio/wav", "audio/wave": "audio/wav", "audio/x-flac": "audio/flac", "audio/x-m4a": "audio/mp4", "video/quicktime": "video/quicktime" };

// file-type and its tokenizer stack (~3 MiB resident) load with the first upload.
let fileTypeFromBuffer: Promise<typeof import("file-type").fileTypeFromBuffer> | null = null;
const sniffer = () => (fileTypeFromBuffer ??= import("file-type").then((m) => m.fileTypeFromBuffer));

/** The MIME type of a file from its first bytes; text without a signature is text/plain. */
export async function sniffContentType(head: Uint8Array, fileName: string): Promise<string> {
  const found = head.length ? await sniffer().then((f) => f(head)).catch(() => undefined) : undefined;
  if (found) return ALIASES[found.mime] ?? found.mime;
  if (looksLikeText(head)) {
    const byName = Bun.file(fileName).type.split(";")[0]!.trim();
    return byName.startsWith("text/") || /^application\/(json|xml|javascript)/.test(byName) || byName === "image/svg+xml" ? byName : "text/plain";
  }
  return "application/octet-stream";
}

/** UTF-8 without NULs or (most) control characters. */
function looksLikeText(head: Uint8Array): boolean {
  if (!head.length) return true;
  for (const b of head) if (b < 9 || (b > 13 && b < 32 && b !== 27)) return false;
  try {
    // stream: a multi-byte sequence cut at the end of the sample is not an error.
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** How a stored type is served: the Content-Type header and whether it may be shown inline. */
export function servingType(stored: string | null): { contentType: string; inline: boolean } {
  const type = (stored ?? "application/octet-stream").toLowerCase();
  if (type === "text/plain") return { contentType: "text/plain; charset=utf-8", inline: true };
  if (INLINE_TYPES.has(type)) return { contentType: type, inline: true };
  if (ACTIVE.test(type)) return { contentType: "application/octet-stream", inline: false };
  return { contentType: type, inline: false };
}

/** `attachment; filename="..."; filename*=UTF-8''...` (RFC 6266), or the inline form. */
export function contentDisposition(inline: boolean, fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  return `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
