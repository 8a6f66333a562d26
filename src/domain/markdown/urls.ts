import type { RenderContext } from "./types";

const ALLOWED_SCHEMES = new Set(["http", "https", "ftp", "mailto", "tel", "sms"]);
const SCHEME_RE = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * Zulip's `sanitize_url` before markdown-it's encoding: a path with "@" and no scheme is an email, "/…" and
 * "#…" stay relative, any other scheme-less URL gets "http://". Spaces become %20.
 */
export function preSanitizeUrl(url: string): string {
  const u = url.replace(/ /g, "%20");
  if (SCHEME_RE.test(u)) return u;
  if (u.startsWith("/") || u.startsWith("#")) return u;
  if (!u.includes("/") && u.includes("@")) return `mailto:${u}`;
  return `http://${u}`;
}

/** Whether a normalized href may become an anchor: an allowed scheme or a relative URL. */
export function isSafeHref(href: string): boolean {
  if (href === "") return false;
  const m = SCHEME_RE.exec(href);
  if (m) return ALLOWED_SCHEMES.has(m[1]!.toLowerCase());
  return href.startsWith("/") || href.startsWith("#");
}

/** Zulip's `rewrite_local_links_to_relative`: this organization's narrow and upload links lose their origin. */
export function rewriteLocalLink(href: string, ctx: RenderContext): string {
  const prefix = `${ctx.realmUrl}/`;
  if (!href.startsWith(prefix)) return href;
  const rest = href.slice(prefix.length);
  const uploads = ctx.uploadsPathPrefix.replace(/^\//, "");
  return rest.startsWith("#") || rest.startsWith(uploads) ? rest : href;
}

/** The path id ("2/ab/file.png") of a link to an uploaded file, or null. */
export function uploadPathId(href: string, ctx: RenderContext): string | null {
  const abs = ctx.uploadsPathPrefix.startsWith("/") ? ctx.uploadsPathPrefix : `/${ctx.uploadsPathPrefix}`;
  let path: string;
  if (href.startsWith(abs)) path = href.slice(abs.length);
  else if (href.startsWith(abs.slice(1))) path = href.slice(abs.length - 1);
  else return null;
  path = path.replace(/[?#].*$/, "");
  if (path === "" || path.startsWith("thumbnail/")) return null;
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep it encoded
  }
  return path.includes("..") ? null : path;
}

const IMAGE_RE = /\.(?:png|jpe?g|gif|webp)$/i;
export function isImagePath(pathId: string): boolean {
  return IMAGE_RE.test(pathId);
}

/** Zulip's `encode_hash_component`: Python's quote(safe="") with "." as "%2E", then "%" as ".". */
export function encodeHashComponent(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, "%2E")
    .replace(/%/g, ".");
}

/** "9-announce" for channel 9 named "announce" (spaces as dashes, then hash-encoded). */
export function encodeChannel(id: number, name: string): string {
  return `${id}-${encodeHashComponent(name.replace(/ /g, "-"))}`;
}

export function channelNarrowUrl(id: number, name: string): string {
  return `/#narrow/channel/${encodeChannel(id, name)}`;
}

export function topicNarrowUrl(id: number, name: string, topic: string): string {
  return `${channelNarrowUrl(id, name)}/topic/${encodeHashComponent(topic)}`;
}
