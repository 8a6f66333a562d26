import type { MarkdownIt } from "markdown-it";
import type { StateCore, Token } from "markdown-it";
import { envOf } from "./html-token";
import type { Linkifier } from "./types";
import { isSafeHref } from "./urls";

export type CompiledLinkifier = { re: RegExp; template: string };

const cache = new WeakMap<Linkifier[], CompiledLinkifier[]>();

/**
 * A linkifier's Python-style pattern as a JS RegExp, wrapped like Zulip's: it must start after whitespace,
 * a quote, "(", ",", ":" or "<" and must not run into a word character. Null if JS cannot compile it.
 */
function compile(l: Linkifier): CompiledLinkifier | null {
  const source = l.pattern.replace(/\(\?P</g, "(?<").replace(/\(\?P=(\w+)\)/g, "\\k<$1>");
  try {
    return { re: new RegExp(`(?<![^\\s'"(,:<])(?:${source})(?!\\w)`, "g"), template: l.url_template };
  } catch {
    return null;
  }
}

export function compileLinkifiers(list: Linkifier[] | undefined): CompiledLinkifier[] {
  if (!list || list.length === 0) return [];
  let compiled = cache.get(list);
  if (!compiled) cache.set(list, (compiled = list.map(compile).filter((c): c is CompiledLinkifier => c !== null)));
  return compiled;
}

const encodeValue = (v: string) =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
/** Reserved expansion: reserved characters and existing %XX escapes stay as they are. */
const encodeReserved = (v: string) => encodeURI(v).replace(/%25([0-9A-Fa-f]{2})/g, "%$1");

/** RFC 6570 level-2 expansion: `{var}` (fully encoded), `{+var}` (reserved kept) and `{#var}` (fragment). */
export function expandTemplate(template: string, groups: Record<string, string | undefined>): string {
  return template.replace(/\{([+#]?)(\w+)\}/g, (_, op: string, name: string) => {
    const value = groups[name] ?? "";
    if (op === "") return encodeValue(value);
    return (op === "#" ? "#" : "") + encodeReserved(value);
  });
}

export type LinkifierMatch = { index: number; end: number; text: string; url: string; precedence: number };

/** Every linkifier match in `text`, leftmost first; among overlapping ones the earlier linkifier wins. */
export function linkifierMatches(text: string, linkifiers: CompiledLinkifier[]): LinkifierMatch[] {
  const all: LinkifierMatch[] = [];
  linkifiers.forEach((l, precedence) => {
    l.re.lastIndex = 0;
    for (let m = l.re.exec(text); m; m = l.re.exec(text)) {
      if (m[0] === "") {
        l.re.lastIndex++;
        continue;
      }
      const url = expandTemplate(l.template, m.groups ?? {});
      if (isSafeHref(url)) all.push({ index: m.index, end: m.index + m[0].length, text: m[0], url, precedence });
    }
  });
  all.sort((a, b) => a.index - b.index || a.precedence - b.precedence);
  const kept: LinkifierMatch[] = [];
  for (const m of all) if (kept.length === 0 || m.index >= kept[kept.length - 1]!.end) kept.push(m);
  return kept;
}

function linkifiersRule(state: StateCore): void {
  const env = envOf(state);
  const linkifiers = compileLinkifiers(env.ctx.linkifiers);
  if (linkifiers.length === 0) return;
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children) continue;
    const out: Token[] = [];
    let linkDepth = 0;
    for (const t of block.children) {
      if (t.type === "link_open") linkDepth++;
      if (t.type === "link_close") linkDepth--;
      const matches = t.type === "text" && linkDepth === 0 ? linkifierMatches(t.content, linkifiers) : [];
      if (matches.length === 0) {
        out.push(t);
        continue;
      }
      let last = 0;
      for (const m of matches) {
        if (m.index > last) out.push(text(state, t.content.slice(last, m.index)));
        const open = new state.Token("link_open", "a", 1);
        open.attrs = [["href", m.url]];
        out.push(open, text(state, m.text), new state.Token("link_close", "a", -1));
        last = m.end;
      }
      if (last < t.content.length) out.push(text(state, t.content.slice(last)));
      env.result.hasLink = true;
    }
    block.children = out;
  }
}

function text(state: StateCore, content: string): Token {
  const t = new state.Token("text", "", 0);
  t.content = content;
  return t;
}

export function linkifiersPlugin(md: MarkdownIt): void {
  md.core.ruler.push("zulip_linkifiers", linkifiersRule);
}
