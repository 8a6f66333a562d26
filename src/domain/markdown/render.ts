import { colonEmojiAt } from "./emoji";
import { md } from "./md";
import { mentionAt } from "./mentions";
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
  const env: RenderEnv = { ctx, result };
  if (!ctx.linkifiers?.length) {
    if (isPlainLine(content)) {
      result.html = `<p>${content}</p>`;
      return result;
    }
    const line = mentionLine(content, env);
    if (line !== null) {
      result.html = line;
      return result;
    }
    // what a line given up on recorded is the full render's to say
    result.mentionedUserIds.clear();
    result.silentlyMentionedUserIds.clear();
    result.mentionedGroupIds.clear();
    result.wildcard.stream = result.wildcard.topic = false;
  }
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

/** The characters of PLAIN_LINE, by code. */
const PLAIN = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ,?;'\"%") PLAIN[c.charCodeAt(0)] = 1;

/**
 * A plain line with mentions and `:emoji:` in it ("Hello @**Ann**, how is it going? :smile:"), as
 * markdown-it with Parley's rules renders it: the text as it is, each mention and emoji through the
 * rules' own code. Null as soon as anything else shows (another character, an `@` or `:` that is not
 * a known mention or emoji, an edge space): markdown-it decides those. Mentions found are recorded in
 * env.result, as the rule does.
 */
function mentionLine(content: string, env: RenderEnv): string | null {
  const n = content.length;
  if (n === 0 || n > 1000 || content.charCodeAt(0) === 0x20 || content.charCodeAt(n - 1) === 0x20) return null;
  let html = "<p>";
  let text = 0;
  let i = 0;
  while (i < n) {
    const c = content.charCodeAt(i);
    if (c < 128 && PLAIN[c] === 1) {
      i++;
      continue;
    }
    const piece = c === 0x40 ? mentionAt(content, i, n, env, true) : c === 0x3a ? colonEmojiAt(content, i, n, env.ctx) : null;
    if (piece === null) return null;
    html += content.slice(text, i) + piece.html;
    i = text = piece.end;
  }
  return html + content.slice(text) + "</p>";
}
