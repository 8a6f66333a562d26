import markdownIt, { type MarkdownIt } from "markdown-it";
import type { StateCore, StateInline } from "markdown-it";
import { channelLinksPlugin } from "./channel-links";
import { fenceLanguage, renderCodeBlock } from "./code";
import { emojiPlugin } from "./emoji";
import { escapeText } from "./escape";
import { fencedBlocksPlugin } from "./fenced-blocks";
import { attr, htmlTokenPlugin } from "./html-token";
import { linkifiersPlugin } from "./linkifiers";
import { linksPlugin } from "./links";
import { mentionsPlugin } from "./mentions";
import { previewsPlugin } from "./previews";
import { timePlugin } from "./time";

/** Zulip has no `_` emphasis: a run of underscores is plain text. */
function underscoreRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5f) return false;
  let end = state.pos;
  while (end < state.posMax && state.src.charCodeAt(end) === 0x5f) end++;
  if (!silent) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

/** Zulip's HTML details for standard syntax: its escaping, code blocks, table alignment, nested lists. */
function zulipFlavour(md: MarkdownIt): void {
  md.inline.ruler.before("emphasis", "zulip_no_underscore", underscoreRule);
  md.core.ruler.push("zulip_strong_em", strongOutside);
  const r = md.renderer.rules;
  r.text = (tokens, idx) => escapeText(tokens[idx]!.content);
  r.code_inline = (tokens, idx) => `<code>${escapeText(tokens[idx]!.content)}</code>`;
  r.fence = (tokens, idx) => renderCodeBlock(tokens[idx]!.content, fenceLanguage(tokens[idx]!.info));
  r.code_block = (tokens, idx) => renderCodeBlock(tokens[idx]!.content, "");
  for (const cell of ["th_open", "td_open"] as const) {
    r[cell] = (tokens, idx) => {
      const align = /text-align:(\w+)/.exec(attr(tokens[idx]!, "style"))?.[1];
      return `<${tokens[idx]!.tag}${align ? ` style="text-align: ${align};"` : ""}>`;
    };
  }
  r.s_open = () => "<del>";
  r.s_close = () => "</del>";
  // A nested list follows its item's text directly: `<li>A<ul>`, not `<li>A\n<ul>`.
  for (const list of ["bullet_list_open", "ordered_list_open"] as const) {
    r[list] = (tokens, idx, options, _env, self) => {
      const html = self.renderToken(tokens, idx, options);
      return idx > 0 && tokens[idx - 1]!.hidden ? html.replace(/^\n/, "") : html;
    };
  }
}

/** `***x***` nests as `<strong><em>` in Zulip, markdown-it makes `<em><strong>`: swap such pairs. */
function strongOutside(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children?.some((t) => t.type === "em_open")) continue;
    const c = (block.children = block.children.filter((t) => t.type !== "text" || t.content !== ""));
    for (let i = 0; i + 1 < c.length; i++) {
      if (c[i]!.type !== "em_open" || c[i + 1]!.type !== "strong_open") continue;
      let depth = 0;
      for (let j = i + 2; j + 1 < c.length; j++) {
        if (c[j]!.type === "strong_open") depth++;
        if (c[j]!.type !== "strong_close") continue;
        if (depth-- > 0) continue;
        if (c[j + 1]!.type === "em_close") {
          [c[i], c[i + 1]] = [c[i + 1]!, c[i]!];
          [c[j], c[j + 1]] = [c[j + 1]!, c[j]!];
        }
        break;
      }
    }
  }
}

function build(): MarkdownIt {
  const md = markdownIt("default", { html: false, linkify: true, breaks: true, typographer: false });
  // Zulip has no reference links, setext headings or raw HTML.
  md.disable(["reference", "lheading", "html_block", "html_inline", "replacements", "smartquotes"]);
  for (const plugin of [
    htmlTokenPlugin,
    zulipFlavour,
    fencedBlocksPlugin,
    mentionsPlugin,
    channelLinksPlugin,
    emojiPlugin,
    timePlugin,
    linksPlugin,
    linkifiersPlugin,
    previewsPlugin,
  ]) {
    md.use(plugin);
  }
  // markdown-it parses, punycodes and re-encodes every link's URL (≈ 8 µs each); an http(s) URL with a
  // lower-case ASCII host and only characters the encoder keeps comes back unchanged, so it is kept as is
  const normalizeLink = md.normalizeLink.bind(md);
  md.normalizeLink = (url) => (NORMAL_URL.test(url) ? url : normalizeLink(url));
  return md;
}

/** An http(s) URL markdown-it's normalizeLink returns unchanged (checked against it in test/domain/markdown.test.ts). */
export const NORMAL_URL = /^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?(?:[/?#](?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*)?$/;

/** The one configured markdown-it instance (it is stateless between renders). */
export const md = build();
