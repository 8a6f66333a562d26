import { md } from "./md";
import type { RenderContext, RenderEnv, RenderResult } from "./types";

/**
 * Content → Zulip's `rendered_content`, with what the send path needs to know: mentions, wildcards,
 * `/me`, links, images and the uploaded files referenced.
 */
export function renderMarkdown(content: string, ctx: RenderContext): RenderResult {
  const result: RenderResult = {
    html: "",
    mentionedUserIds: new Set(),
    silentlyMentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    wildcard: { stream: false, topic: false },
    isMeMessage: content.startsWith("/me "),
    hasLink: false,
    hasImage: false,
    hasAttachment: false,
    uploadPaths: [],
  };
  if (isPlainLine(content) && !ctx.linkifiers?.length) {
    result.html = `<p>${content}</p>`;
    return result;
  }
  const env: RenderEnv = { ctx, result };
  result.html = md.render(content, env).replace(/\n+$/, "");
  return result;
}

/**
 * One line of letters, digits, spaces and the punctuation no rule reads (no markup, mention, emoji,
 * link, entity or character to escape), starting and ending with a non-space: markdown-it would make
 * it one paragraph of the text as it is, after a few microseconds of parsing. Most chat lines are like
 * that. (The realm's linkifiers may match any text: with some, every message takes the full path.)
 */
const PLAIN_LINE = /^[A-Za-z0-9,?;'"%]([A-Za-z0-9 ,?;'"%]*[A-Za-z0-9,?;'"%])?$/;
export const isPlainLine = (content: string) => content.length <= 1000 && PLAIN_LINE.test(content);
