import type { MarkdownIt } from "markdown-it";
import type { StateCore, Token } from "markdown-it";
import { linkify } from "./linkify";
import { escapeAttr } from "./escape";
import { attr, envOf } from "./html-token";
import { isImagePath, isSafeHref, preSanitizeUrl, rewriteLocalLink, uploadPathId } from "./urls";

/** Meta this plugin leaves on each link_open token. */
export type LinkMeta = { uploadPath?: string; isImage?: boolean; autolink: boolean };

/** Country-code TLDs that are far more often file extensions in chat ("readme.md", "views.py"). */
const NOT_A_TLD = new Set(["md", "py", "sh", "rs", "pl"]);

function isFileNameLookalike(link: Token, text: Token | undefined): boolean {
  if (link.info !== "auto" || !text || /^[a-z][a-z0-9+.-]*:/i.test(text.content)) return false;
  const host = /^([^/?#:]+)/.exec(text.content)?.[1] ?? "";
  if (host.includes("@")) return false;
  return NOT_A_TLD.has(host.slice(host.lastIndexOf(".") + 1).toLowerCase());
}

/** `![alt](src)` becomes a plain link, as in Zulip (images are previewed from links). */
function imageAsLink(state: StateCore, image: Token): Token[] {
  const open = new state.Token("link_open", "a", 1);
  open.attrs = [["href", attr(image, "src")]];
  const close = new state.Token("link_close", "a", -1);
  return [open, ...(image.children ?? []), close];
}

function textToken(state: StateCore, content: string): Token {
  const t = new state.Token("text", "", 0);
  t.content = content;
  return t;
}

function linksRule(state: StateCore): void {
  const env = envOf(state);
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children) continue;
    if (!block.children.some((t) => t.type === "link_open" || t.type === "image")) continue;
    const out: Token[] = [];
    const children = block.children.flatMap((t) => (t.type === "image" ? imageAsLink(state, t) : [t]));
    for (let i = 0; i < children.length; i++) {
      const t = children[i]!;
      if (t.type !== "link_open") {
        out.push(t);
        continue;
      }
      if (isFileNameLookalike(t, children[i + 1])) {
        out.push(children[i + 1]!);
        i += 2; // skip text and link_close
        continue;
      }
      const href = rewriteLocalLink(attr(t, "href"), env.ctx);
      if (href === "") {
        // `[text]()`: no destination, so no link; the source stays as it was typed
        const close = children.findIndex((c, j) => j > i && c.type === "link_close");
        out.push(textToken(state, "["), ...children.slice(i + 1, close), textToken(state, "]()"));
        i = close;
        continue;
      }
      t.attrs = [["href", href]];
      const meta: LinkMeta = { autolink: t.info === "auto" };
      const path = uploadPathId(href, env.ctx);
      if (path !== null) {
        meta.uploadPath = path;
        meta.isImage = isImagePath(path);
        env.result.hasAttachment = true;
        if (meta.isImage) env.result.hasImage = true;
        if (!env.result.uploadPaths.includes(path)) env.result.uploadPaths.push(path);
      }
      t.meta = meta;
      env.result.hasLink = true;
      out.push(t);
      // Zulip shows the URL for a link without text.
      const next = children[i + 1];
      const blank = next?.type === "text" && next.content.trim() === "" && children[i + 2]?.type === "link_close";
      if (next?.type === "link_close" || blank) {
        const text = new state.Token("text", "", 0);
        text.content = href;
        out.push(text);
        if (blank) i++;
      }
    }
    block.children = out;
  }
}

export function linksPlugin(md: MarkdownIt): void {
  const normalize = md.normalizeLink.bind(md);
  md.normalizeLink = (url: string) => normalize(preSanitizeUrl(url));
  md.validateLink = isSafeHref;
  md.linkify = linkify;
  md.core.ruler.push("zulip_links", linksRule);
  md.renderer.rules.link_open = (tokens, idx) => `<a href="${escapeAttr(attr(tokens[idx]!, "href"))}">`;
  md.renderer.rules.link_close = () => "</a>";
}
