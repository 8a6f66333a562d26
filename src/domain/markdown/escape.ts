const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const replace = (c: string) => ENTITIES[c]!;

/** Element text, escaped like Zulip does it (quotes stay as they are). */
export function escapeText(s: string): string {
  return /[&<>]/.test(s) ? s.replace(/[&<>]/g, replace) : s;
}

/** A double-quoted attribute value. */
export function escapeAttr(s: string): string {
  return /[&<>"]/.test(s) ? s.replace(/[&<>"]/g, replace) : s;
}

/** Code block content, escaped like Pygments' HTML formatter. */
export function escapeCode(s: string): string {
  return s.replace(/[&<>"']/g, replace);
}
