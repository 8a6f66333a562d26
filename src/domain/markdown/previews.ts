import type { MarkdownIt } from "markdown-it";
import type { StateCore, Token } from "markdown-it";
import { escapeAttr } from "./escape";
import { attr, envOf } from "./html-token";
import type { LinkMeta } from "./links";
import type { RenderContext } from "./types";

export const SPINNER_URL = "/static/images/loading/loader-black.svg";

function imgHtml(href: string, pathId: string, ctx: RenderContext): string {
  const info = ctx.uploadedImage?.(pathId);
  if (!info) return `<img src="${escapeAttr(href)}">`;
  let attrs = info.thumbnailUrl ? "" : ` class="image-loading-placeholder"`;
  if (info.animated) attrs += ` data-animated="true"`;
  if (info.originalDimensions) attrs += ` data-original-dimensions="${escapeAttr(info.originalDimensions)}"`;
  if (info.contentType) attrs += ` data-original-content-type="${escapeAttr(info.contentType)}"`;
  const src = info.thumbnailUrl ?? info.placeholderUrl ?? SPINNER_URL;
  return `<img${attrs} src="${escapeAttr(src)}">`;
}

type Preview = { href: string; pathId: string; title: string | null };

/** Uploaded images linked from one inline token, in order; `alone` when the link is all the paragraph holds. */
function previewsIn(children: Token[], seen: Set<string>, ctx: RenderContext): { previews: Preview[]; alone: boolean } {
  const previews: Preview[] = [];
  for (let i = 0; i < children.length; i++) {
    const t = children[i]!;
    const meta = t.meta as LinkMeta | null;
    if (t.type !== "link_open" || !meta?.isImage) continue;
    // Zulip keeps this organization's upload links relative ("user_uploads/…"); the preview is site-absolute.
    const raw = attr(t, "href");
    const href = raw.startsWith("user_uploads/") ? `/${raw}` : raw;
    let text = "";
    for (let j = i + 1; j < children.length && children[j]!.type !== "link_close"; j++) text += children[j]!.content;
    // With the organization's upload facts, an upload they do not know as an image (not an image, thumbnailing
    // failed, another organization's) gets no preview, as in Zulip.
    if (seen.has(href) || (ctx.uploadedImage && !ctx.uploadedImage(meta.uploadPath!))) continue;
    seen.add(href);
    previews.push({ href, pathId: meta.uploadPath!, title: meta.autolink || text === raw ? null : text });
  }
  const alone =
    previews.length === 1 &&
    children.length === 3 &&
    children[0]!.type === "link_open" &&
    children[2]!.type === "link_close" &&
    previews[0]!.title === null;
  return { previews, alone };
}

function previewToken(state: StateCore, previews: Preview[], inline: boolean): Token {
  const ctx = envOf(state).ctx;
  const token = new state.Token("zulip_html", "", 0);
  token.block = true;
  token.content =
    previews
      .map((p) => {
        const title = p.title === null ? "" : ` title="${escapeAttr(p.title)}"`;
        return `<div class="message_inline_image"><a href="${escapeAttr(p.href)}"${title}>${imgHtml(p.href, p.pathId, ctx)}</a></div>`;
      })
      .join("") + (inline ? "" : "\n");
  return token;
}

/**
 * Zulip's image previews for links to uploaded images: a `message_inline_image` block after the paragraph
 * (inside the list item for tight lists), replacing the paragraph when it is nothing but the bare link.
 * Links inside quotes get no preview; each image is previewed once.
 */
function previewsRule(state: StateCore): void {
  if (!envOf(state).result.hasImage) return;
  const seen = new Set<string>();
  const out: Token[] = [];
  let quoteDepth = 0;
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === "blockquote_open") quoteDepth++;
    else if (t.type === "blockquote_close") quoteDepth--;
    const open = tokens[i - 1];
    const close = tokens[i + 1];
    if (t.type !== "inline" || quoteDepth > 0 || open?.type !== "paragraph_open" || close?.type !== "paragraph_close") {
      out.push(t);
      continue;
    }
    const { previews, alone } = previewsIn(t.children ?? [], seen, envOf(state).ctx);
    if (previews.length === 0) {
      out.push(t);
      continue;
    }
    if (alone && !open.hidden) {
      out.pop(); // the paragraph_open
      out.push(previewToken(state, previews, false));
    } else {
      out.push(t, close, previewToken(state, previews, close.hidden));
    }
    i++; // the paragraph_close is handled
  }
  state.tokens = out;
}

export function previewsPlugin(md: MarkdownIt): void {
  md.core.ruler.push("zulip_previews", previewsRule);
}
