import type { MarkdownIt } from "markdown-it";
import type { StateInline } from "markdown-it";
import { escapeAttr, escapeText } from "./escape";
import { envOf, pushHtml, startsAfterBoundary } from "./html-token";
import type { RenderEnv } from "./types";
import { channelNarrowUrl, topicNarrowUrl } from "./urls";

function topicText(topic: string, env: RenderEnv): string {
  return topic === "" ? `<em>${escapeText(env.ctx.emptyTopicDisplayName ?? "general chat")}</em>` : escapeText(topic);
}

/** The anchor for `#**channel**`, `#**channel>topic**` or `#**channel>topic@id**`, or null for an unknown channel. */
function channelLink(inner: string, env: RenderEnv): string | null {
  const gt = inner.indexOf(">");
  const stream = env.ctx.streamByName(gt === -1 ? inner : inner.slice(0, gt));
  if (!stream) return null;
  const label = `#${escapeText(stream.name)}`;
  if (gt === -1) {
    const href = channelNarrowUrl(stream.id, stream.name);
    return `<a class="stream" data-stream-id="${stream.id}" href="${escapeAttr(href)}">${label}</a>`;
  }
  const rest = inner.slice(gt + 1);
  const messageLink = /^(.*)@(\d+)$/s.exec(rest);
  if (messageLink) {
    const topic = messageLink[1]!;
    const href = `${topicNarrowUrl(stream.id, stream.name, topic)}/near/${messageLink[2]}`;
    return `<a class="message-link" href="${escapeAttr(href)}">${label} &gt; ${topicText(topic, env)} @ 💬</a>`;
  }
  let href = topicNarrowUrl(stream.id, stream.name, rest);
  const withId = env.ctx.topicLinkMessageId?.(stream.id, rest);
  if (withId !== undefined) href += `/with/${withId}`;
  return `<a class="stream-topic" data-stream-id="${stream.id}" href="${escapeAttr(href)}">${label} &gt; ${topicText(rest, env)}</a>`;
}

function channelLinkRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src.charCodeAt(start) !== 0x23 /* # */ || !startsAfterBoundary(src, start)) return false;
  if (src.charCodeAt(start + 1) !== 0x2a || src.charCodeAt(start + 2) !== 0x2a) return false;
  const star = src.indexOf("*", start + 3);
  if (star <= start + 3 || src.charCodeAt(star + 1) !== 0x2a || star + 2 > state.posMax) return false;
  const inner = src.slice(start + 3, star);
  if (inner.includes("\n") || inner.startsWith(">")) return false;
  const html = channelLink(inner, envOf(state));
  if (html === null) return false;
  if (!silent) pushHtml(state, html);
  state.pos = star + 2;
  return true;
}

export function channelLinksPlugin(md: MarkdownIt): void {
  md.inline.ruler.after("linkify", "zulip_channel_link", channelLinkRule);
}
