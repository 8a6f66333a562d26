/**
 * Search highlighting for match_content / match_subject: wraps whole-word, case-insensitive
 * matches of the search words in `<span class="highlight">`, in text only (never inside tags).
 */
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

function wordsRegex(words: string[]): RegExp | null {
  const parts = words.map((w) => w.trim()).filter(Boolean).map((w) => escapeRe(escapeHtml(w)).replace(/\s+/g, "\\s+"));
  if (!parts.length) return null;
  parts.sort((a, b) => b.length - a.length);
  return new RegExp(`(?<![\\p{L}\\p{N}_])(${parts.join("|")})(?![\\p{L}\\p{N}_])`, "giu");
}

/** Highlights in an HTML fragment (text between tags only). */
export function highlightHtml(html: string, words: string[]): string {
  const re = wordsRegex(words);
  if (!re) return html;
  return html.replace(/(<[^>]*>)|([^<]+)/g, (_m, tag: string | undefined, text: string | undefined) =>
    tag !== undefined ? tag : text!.replace(re, '<span class="highlight">$1</span>'),
  );
}

/** An HTML-escaped topic with highlights. */
export const highlightTopic = (topic: string, words: string[]) => highlightHtml(escapeHtml(topic), words);

/** A search operand as an SQLite FTS5 query: every word or "quoted phrase" must appear (null: nothing searchable). */
export function ftsQuery(terms: string[]): string | null {
  const parts = terms
    .map((t) => t.replace(/"/g, " ").trim())
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .map((t) => `"${t}"`);
  return parts.length ? parts.join(" ") : null;
}
