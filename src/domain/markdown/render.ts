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
  const env: RenderEnv = { ctx, result };
  result.html = md.render(content, env).replace(/\n+$/, "");
  return result;
}
