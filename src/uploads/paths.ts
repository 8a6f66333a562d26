/**
 * Where uploaded files live and how their names are made safe. Pure string functions; the disk
 * layout under uploads_dir is:
 *   {realm_id}/{xx}/{random}/{sanitized name}   uploaded files (the attachment's path_id)
 *   thumbnail/{path_id}/{format}                 generated thumbnails
 *   avatars/{realm_id}/emoji/images/{file}       custom emoji (served at /user_avatars/...)
 *   avatars/{realm_id}/{user_id}[-medium].png    uploaded avatars (likewise)
 *   avatars/{realm_id}/realm/{icon,logo,night_logo}.png   the organization's icon and logos
 *   tmp/                                         files being written (emptied at start)
 *   tus/                                         resumable uploads in progress
 */
import { randomBytes } from "node:crypto";

/** Zulip's sanitize_name: Unicode letters and digits, `_ . -`; runs of spaces and dashes become one dash. */
export function sanitizeFilename(name: string): string {
  let value = baseName(name).normalize("NFKC");
  value = value.replace(/[^\p{L}\p{N}_\s.-]/gu, "").trim();
  value = value.replace(/[-\s]+/g, "-");
  if (value === "" || value === "." || value === "..") return "uploaded-file";
  // Never a hidden file or a name that reads as a relative path.
  if (value.startsWith(".")) value = "uploaded-file" + value;
  return value.slice(-200);
}

/** The last component of a client-supplied name (browsers on Windows may send C:\dir\file). */
export function baseName(name: string): string {
  const parts = name.split(/[\\/]/);
  return (parts[parts.length - 1] ?? "").replace(/\0/g, "").trim();
}

/** A new path id: `{realm_id}/{2 hex}/{24 url-safe random}/{sanitized name}`, like Zulip's. */
export function newPathId(realmId: number, fileName: string): string {
  const shard = randomBytes(1).toString("hex");
  const random = randomBytes(18).toString("base64url");
  return `${realmId}/${shard}/${random}/${sanitizeFilename(fileName)}`;
}

/** The `/user_uploads/...` URL of a path id (each segment percent-encoded). */
export function uploadUrl(pathId: string): string {
  return "/user_uploads/" + pathId.split("/").map(encodeURIComponent).join("/");
}

/**
 * Decodes URL path segments into a path id, or null when any segment is unsafe: empty, `.`/`..`,
 * an encoded slash or backslash, a NUL, or bad percent-encoding. Callers look the result up in the
 * attachments table, so only names Parley generated can ever be served.
 */
export function pathIdFromSegments(segments: string[]): string | null {
  if (!segments.length) return null;
  const out: string[] = [];
  for (const raw of segments) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (!seg || seg === "." || seg === ".." || /[\\/\0]/.test(seg) || seg.length > 255) return null;
    out.push(seg);
  }
  return out.join("/");
}

/** Splits a URL pathname after `prefix` into raw segments (null when it does not start with it). */
export function segmentsAfter(pathname: string, prefix: string): string[] | null {
  if (!pathname.startsWith(prefix)) return null;
  const rest = pathname.slice(prefix.length);
  if (!rest) return [];
  return rest.split("/");
}

/** Whether a path id has the shape Parley generates (realm id first, no traversal). */
export function isWellFormedPathId(pathId: string): boolean {
  const parts = pathId.split("/");
  return parts.length === 4 && /^\d+$/.test(parts[0]!) && parts.every((p) => p && p !== "." && p !== ".." && !/[\\\0]/.test(p));
}

const UPLOAD_LINK = /user_uploads\/(\d+\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/[^\s)"'<>\]?#]+)/g;

/**
 * The path ids of every upload a message's content links to (`/user_uploads/...`, relative or
 * absolute), decoded and de-duplicated. Thumbnail and temporary links are not uploads.
 */
export function uploadPathsIn(content: string): string[] {
  const out = new Set<string>();
  for (const m of content.matchAll(UPLOAD_LINK)) {
    const id = pathIdFromSegments(m[1]!.split("/"));
    if (id) out.add(id);
  }
  return [...out];
}
