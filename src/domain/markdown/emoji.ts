import type { MarkdownIt } from "markdown-it";
import type { StateCore, StateInline, Token } from "markdown-it";
import { emojiNameToCode, codeToName, matchEmojiAt, mayContainEmoji } from "../emoji";
import { escapeAttr, escapeText } from "./escape";
import { envOf, pushHtml } from "./html-token";
import type { RenderContext } from "./types";

export const ZULIP_EMOJI_URL = "/static/generated/emoji/images/emoji/unicode/zulip.png";

/** Zulip's span for a Unicode emoji; `name` is the name as written (or the canonical one). */
export function unicodeEmojiHtml(code: string, name: string): string {
  const title = escapeAttr(name.replace(/_/g, " "));
  return `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">:${escapeText(name)}:</span>`;
}

function imageEmojiHtml(name: string, src: string): string {
  const n = escapeAttr(name);
  return `<img alt=":${n}:" class="emoji" src="${escapeAttr(src)}" title="${escapeAttr(name.replace(/_/g, " "))}">`;
}

/** `:name:` as a custom emoji (which wins, as in Zulip), `:zulip:`, or a Unicode emoji; null when unknown. */
export function namedEmojiHtml(name: string, ctx: RenderContext): string | null {
  const custom = ctx.realmEmoji(name);
  if (custom) return imageEmojiHtml(name, custom.source_url);
  if (name === "zulip") return imageEmojiHtml(name, ZULIP_EMOJI_URL);
  const code = emojiNameToCode(name);
  return code ? unicodeEmojiHtml(code, name) : null;
}

/** Zulip's EMOJI_REGEX `:[\w\-\+]+:` (Python's \w is Unicode: names like `flag_åland_islands` or `ココ`). */
const NAME_RE = /:([\p{L}\p{N}_+-]+):/uy;

/** The `:name:` emoji starting at `pos`: its HTML and where it ends, or null (the `:` is then text). */
export function colonEmojiAt(src: string, pos: number, max: number, ctx: RenderContext): { html: string; end: number } | null {
  if (src.charCodeAt(pos) !== 0x3a /* : */) return null;
  NAME_RE.lastIndex = pos;
  const m = NAME_RE.exec(src);
  if (!m || pos + m[0].length > max) return null;
  const html = namedEmojiHtml(m[1]!, ctx);
  return html === null ? null : { html, end: pos + m[0].length };
}

function colonEmojiRule(state: StateInline, silent: boolean): boolean {
  const e = colonEmojiAt(state.src, state.pos, state.posMax, envOf(state).ctx);
  if (!e) return false;
  if (!silent) pushHtml(state, e.html);
  state.pos = e.end;
  return true;
}

const ZWJ = 0x200d;
/** "#", "*" or a digit followed by FE0F or the combining keycap U+20E3. */
const isKeycapStart = (text: string, i: number) => /[#*0-9]/.test(text[i]!) && /[\ufe0f\u20e3]/.test(text[i + 1] ?? "");
const isModifier = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff;

/** Splits a text token at Unicode emoji. Unknown ZWJ / skin-tone sequences stay text, as in Zulip. */
function splitText(token: Token, state: StateCore): Token[] | null {
  const text = token.content;
  const out: Token[] = [];
  let last = 0;
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (cp < 0xa9 && !isKeycapStart(text, i)) {
      i += width;
      continue;
    }
    const m = matchEmojiAt(text, i);
    if (!m) {
      i += width;
      continue;
    }
    const next = text.codePointAt(m.end);
    if (next !== undefined && (next === ZWJ || isModifier(next))) {
      // Part of a sequence we do not know: leave the whole cluster as text.
      let j = m.end;
      for (let c = text.codePointAt(j); c !== undefined; c = text.codePointAt(j)) {
        if (c === ZWJ) {
          const joined = text.codePointAt(j + 1);
          j += 1 + (joined === undefined ? 0 : joined > 0xffff ? 2 : 1);
        } else if (c === 0xfe0f || isModifier(c)) j += c > 0xffff ? 2 : 1;
        else break;
      }
      i = j;
      continue;
    }
    if (i > last) out.push(textToken(state, text.slice(last, i)));
    const html = new state.Token("zulip_html", "", 0);
    html.content = unicodeEmojiHtml(m.code, codeToName(m.code)!);
    out.push(html);
    i = last = m.end;
  }
  if (out.length === 0) return null;
  if (last < text.length) out.push(textToken(state, text.slice(last)));
  return out;
}

function textToken(state: StateCore, content: string): Token {
  const t = new state.Token("text", "", 0);
  t.content = content;
  return t;
}

function unicodeEmojiRule(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children || !mayContainEmoji(block.content)) continue;
    const children: Token[] = [];
    let inAutolink = false;
    for (const child of block.children) {
      if (child.type === "link_open") inAutolink = child.info === "auto";
      else if (child.type === "link_close") inAutolink = false;
      const parts = child.type === "text" && !inAutolink && mayContainEmoji(child.content) ? splitText(child, state) : null;
      if (parts) children.push(...parts);
      else children.push(child);
    }
    block.children = children;
  }
}

export function emojiPlugin(md: MarkdownIt): void {
  md.inline.ruler.after("linkify", "zulip_emoji", colonEmojiRule);
  md.core.ruler.push("zulip_unicode_emoji", unicodeEmojiRule);
}
