import type { MarkdownIt } from "markdown-it";
import type { StateInline, Token } from "markdown-it";
import type { RenderEnv } from "./types";

/**
 * Markup built by this renderer's own rules (already escaped) travels as a `zulip_html` token.
 * User input never reaches one unescaped: markdown-it runs with `html: false`.
 */
export function pushHtml(state: StateInline, html: string): Token {
  const token = state.push("zulip_html", "", 0);
  token.content = html;
  return token;
}

export function htmlTokenPlugin(md: MarkdownIt): void {
  md.renderer.rules.zulip_html = (tokens, idx) => tokens[idx]!.content;
}

export function envOf(state: { env: unknown }): RenderEnv {
  return state.env as RenderEnv;
}

/** Zulip's mention and channel-link patterns only start after whitespace, a quote, "(", ",", ":" or "<". */
export function startsAfterBoundary(src: string, pos: number): boolean {
  return pos === 0 || /[\s'"(,:<]/.test(src[pos - 1]!);
}

/** A token attribute as a string ("" when absent). */
export function attr(token: Token, name: string): string {
  const v = token.attrGet(name);
  return v === null ? "" : String(v);
}
