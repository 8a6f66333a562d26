import type { MarkdownIt } from "markdown-it";
import type { StateInline } from "markdown-it";
import { escapeAttr, escapeText } from "./escape";
import { pushHtml } from "./html-token";

/** Seconds since the epoch for a `<time:…>` value: a Unix timestamp or a date JS can parse (UTC unless zoned). */
export function parseGlobalTime(value: string): number | null {
  const v = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(v)) return Math.floor(Number(v));
  if (v === "" || /[<>]/.test(v)) return null;
  const tidy = v.replace(/(\d)(?:st|nd|rd|th)\b/gi, "$1").replace(/(\d)(am|pm)\b/gi, "$1 $2").replace(/,/g, "");
  const zoned = /(?:Z|[+-]\d\d:?\d\d|\b(?:UTC|GMT))$/i.test(v);
  const iso = /^\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?)?/.test(v);
  let ms = Date.parse(zoned ? tidy : iso ? (v.length > 10 ? `${v.replace(" ", "T")}Z` : v) : `${tidy} UTC`);
  if (Number.isNaN(ms)) ms = Date.parse(tidy);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

/** Zulip's global time: `<time datetime="2017-06-05T22:30:00Z">as written</time>`, or its error span. */
export function globalTimeHtml(value: string): string {
  const secs = parseGlobalTime(value);
  if (secs === null || !Number.isFinite(secs) || Math.abs(secs) > 8.64e12) {
    return `<span class="timestamp-error">Invalid time format: ${escapeText(value)}</span>`;
  }
  const iso = new Date(secs * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  return `<time datetime="${escapeAttr(iso)}">${escapeText(value)}</time>`;
}

const TIME_RE = /<time:([^>]{0,200})>/y;

function timeRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3c /* < */) return false;
  TIME_RE.lastIndex = state.pos;
  const m = TIME_RE.exec(state.src);
  if (!m || state.pos + m[0].length > state.posMax) return false;
  if (!silent) pushHtml(state, globalTimeHtml(m[1]!));
  state.pos += m[0].length;
  return true;
}

export function timePlugin(md: MarkdownIt): void {
  md.inline.ruler.before("autolink", "zulip_time", timeRule);
}
