import type { MarkdownIt } from "markdown-it";
import type { StateInline } from "markdown-it";
import { escapeText } from "./escape";
import { envOf, pushHtml, startsAfterBoundary } from "./html-token";
import type { RenderEnv } from "./types";
import { own } from "../../lib/own";

const STREAM_WILDCARDS = new Set(["all", "everyone", "channel", "stream"]);

/** How Zulip shows system groups in mentions instead of their `role:…` names. */
const SYSTEM_GROUP_NAMES: Record<string, string> = {
  "role:nobody": "Nobody",
  "role:owners": "Owners",
  "role:administrators": "Administrators",
  "role:moderators": "Moderators",
  "role:fullmembers": "Full members",
  "role:members": "Members",
  "role:everyone": "Everyone",
  "role:internet": "Everyone on the internet",
};

function userMention(name: string, silent: boolean, env: RenderEnv, record: boolean): string | null {
  const s = silent ? " silent" : "";
  const at = silent ? "" : "@";
  const { ctx, result } = env;
  if (STREAM_WILDCARDS.has(name)) {
    if (record && !silent) result.wildcard.stream = true;
    return `<span class="user-mention channel-wildcard-mention${s}" data-user-id="*">${at}${name}</span>`;
  }
  if (name === "topic") {
    if (record && !silent) result.wildcard.topic = true;
    return `<span class="topic-mention${s}">${at}topic</span>`;
  }
  let user: { id: number; full_name: string } | undefined;
  const idSyntax = /^(.+)?\|(\d+)$/s.exec(name);
  if (idSyntax) {
    user = ctx.userById(Number(idSyntax[2]));
    if (user && idSyntax[1] !== undefined && user.full_name !== idSyntax[1]) return null;
  } else {
    user = ctx.usersByName(name)[0];
  }
  if (!user) return null;
  if (record) (silent ? result.silentlyMentionedUserIds : result.mentionedUserIds).add(user.id);
  return `<span class="user-mention${s}" data-user-id="${user.id}">${at}${escapeText(user.full_name)}</span>`;
}

function groupMention(name: string, silent: boolean, env: RenderEnv, record: boolean): string | null {
  const group = env.ctx.groupByName(name);
  if (!group) return null;
  if (record && !silent) env.result.mentionedGroupIds.add(group.id);
  const shown = own(SYSTEM_GROUP_NAMES, group.name) ?? group.name;
  const s = silent ? " silent" : "";
  return `<span class="user-group-mention${s}" data-user-group-id="${group.id}">${silent ? "" : "@"}${escapeText(shown)}</span>`;
}

/**
 * The mention starting at `start` (`@**Name**`, `@**Name|id**`, `@_**Name**`, `@*group*`, `@_*group*`
 * and the wildcards): its HTML and where it ends, or null when there is none (the `@` is then text).
 * `record` notes who is mentioned in the result. Shared by the inline rule and the one-line fast path.
 */
export function mentionAt(src: string, start: number, max: number, env: RenderEnv, record: boolean): { html: string; end: number } | null {
  if (src.charCodeAt(start) !== 0x40 /* @ */ || !startsAfterBoundary(src, start)) return null;
  let p = start + 1;
  const silentMention = src.charCodeAt(p) === 0x5f; /* _ */
  if (silentMention) p++;
  if (src.charCodeAt(p) !== 0x2a /* * */) return null;
  const isUser = src.charCodeAt(p + 1) === 0x2a;
  const nameStart = p + (isUser ? 2 : 1);
  const star = src.indexOf("*", nameStart);
  if (star <= nameStart) return null;
  if (isUser && src.charCodeAt(star + 1) !== 0x2a) return null;
  const end = star + (isUser ? 2 : 1);
  if (end > max) return null;
  const name = src.slice(nameStart, star);
  if (name.includes("\n")) return null;
  const html = isUser ? userMention(name, silentMention, env, record) : groupMention(name, silentMention, env, record);
  return html === null ? null : { html, end };
}

function mentionRule(state: StateInline, silent: boolean): boolean {
  const m = mentionAt(state.src, state.pos, state.posMax, envOf(state), !silent);
  if (!m) return false;
  if (!silent) pushHtml(state, m.html);
  state.pos = m.end;
  return true;
}

export function mentionsPlugin(md: MarkdownIt): void {
  md.inline.ruler.after("linkify", "zulip_mention", mentionRule);
}
