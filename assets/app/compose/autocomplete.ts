/**
 * The compose box's autocomplete, as Zulip's composebox_typeahead: what is being typed at the cursor
 * (`@` a person, group or everyone, `@_` silently, `#` a channel, then `>` its topic, `:` an emoji),
 * the suggestions for it, and the text once one is picked. Pure: the people, channels, topics and
 * emoji are passed in.
 */
import type { User, UserGroup } from "../state/types";
import type { EmojiEntry } from "../lib/emoji-match";
import type { Token } from "./token";

import { matchRank } from "./match";

export { tokenAt, type Token } from "./token";
export { matchRank } from "./match";

export const MAX_SUGGESTIONS = 8;

export type Suggestion =
  | { kind: "user"; user: User; silent: boolean }
  | { kind: "group"; group: UserGroup; silent: boolean }
  | { kind: "wildcard"; name: string; description: string }
  | { kind: "channel"; stream_id: number; name: string; subscribed: boolean }
  | { kind: "topic"; channel: string; topic: string; isNew: boolean }
  | { kind: "channel-link"; channel: string }
  | ({ kind: "emoji" } & EmojiEntry);

export interface MentionContext {
  users: readonly User[];
  groups: readonly UserGroup[];
  muted: readonly number[];
  /** people to prefer (who spoke in this conversation lately, most recent first) */
  preferred: readonly number[];
  /** where the message goes: wildcards differ */
  to: "stream" | "direct";
}

/** Zulip's broadcast mentions: everyone in a direct message; the channel's subscribers or the topic's participants in a channel. */
function wildcards(to: "stream" | "direct"): { name: string; description: string }[] {
  if (to === "direct") return ["all", "everyone"].map((name) => ({ name, description: "Notify recipients" }));
  return [
    ...["all", "everyone", "channel", "stream"].map((name) => ({ name, description: "Notify all channel subscribers" })),
    { name: "topic", description: "Notify participants in this conversation" },
  ];
}

export function mentionSuggestions(query: string, silent: boolean, ctx: MentionContext): Suggestion[] {
  const q = query.trim();
  // within a rank: wildcards, then people (those who spoke here first), then groups, as Zulip sorts them
  const ranked: { s: Suggestion; rank: number; order: number; kind: number; name: string }[] = [];
  const preferred = new Map(ctx.preferred.map((id, i) => [id, i]));
  const muted = new Set(ctx.muted);
  for (const u of ctx.users) {
    if (!u.is_active || muted.has(u.user_id)) continue;
    let rank = q ? matchRank(u.full_name, q) : 1;
    if (rank < 0 && q && u.email.toLowerCase().startsWith(q.toLowerCase())) rank = 3;
    if (rank < 0) continue;
    ranked.push({ s: { kind: "user", user: u, silent }, rank, order: preferred.get(u.user_id) ?? Infinity, kind: 1, name: u.full_name });
  }
  for (const g of ctx.groups) {
    if (g.is_system_group) continue;
    const rank = q ? matchRank(g.name, q) : 1;
    if (rank >= 0) ranked.push({ s: { kind: "group", group: g, silent }, rank, order: Infinity, kind: 2, name: g.name });
  }
  // a silent mention notifies no one: wildcards make no sense there
  if (!silent) {
    for (const w of wildcards(ctx.to)) {
      const rank = q ? matchRank(w.name, q) : 1;
      if (rank >= 0) ranked.push({ s: { kind: "wildcard", ...w }, rank, order: -1, kind: 0, name: w.name });
    }
  }
  ranked.sort((a, b) => a.rank - b.rank || a.kind - b.kind || a.order - b.order || a.name.localeCompare(b.name));
  return ranked.slice(0, MAX_SUGGESTIONS).map((r) => r.s);
}

export function channelSuggestions(query: string, channels: readonly { stream_id: number; name: string; subscribed: boolean; is_archived: boolean }[]): Suggestion[] {
  return channels
    .filter((c) => !c.is_archived)
    .map((c) => ({ c, rank: matchRank(c.name, query, " -_") }))
    .filter((x) => x.rank >= 0)
    .sort((a, b) => a.rank - b.rank || Number(b.c.subscribed) - Number(a.c.subscribed) || a.c.name.localeCompare(b.c.name))
    .slice(0, MAX_SUGGESTIONS)
    .map(({ c }) => ({ kind: "channel" as const, stream_id: c.stream_id, name: c.name, subscribed: c.subscribed }));
}

/**
 * A channel's topics matching what is typed (newest first), a new topic when none is spelled so, and a
 * link to the channel itself while nothing is typed (Zulip's topic_list typeahead).
 */
export function topicSuggestions(channel: string, query: string, topics: readonly string[]): Suggestion[] {
  const found = topics.filter((t) => !query || matchRank(t, query, " -_/") >= 0);
  const ranked = query ? [...found].sort((a, b) => matchRank(a, query, " -_/") - matchRank(b, query, " -_/")) : found;
  const out: Suggestion[] = ranked.map((topic) => ({ kind: "topic", channel, topic, isNew: false }));
  if (query && !topics.some((t) => t.toLowerCase() === query.toLowerCase())) out.unshift({ kind: "topic", channel, topic: query, isNew: true });
  if (!query) out.unshift({ kind: "channel-link", channel });
  return out.slice(0, MAX_SUGGESTIONS);
}

/** `@**Full Name**`, with the id when two people share the name (Zulip's get_mention_syntax). */
export function mentionSyntax(u: User, silent: boolean, users: readonly User[]): string {
  const twin = users.some((o) => o.user_id !== u.user_id && o.is_active && o.full_name.toLowerCase() === u.full_name.toLowerCase());
  return `${silent ? "@_" : "@"}**${u.full_name}${twin ? `|${u.user_id}` : ""}**`;
}

/** The text and the cursor after `picked` replaces the token (`escape`: the topic list was left with Esc). */
export function applySuggestion(text: string, cursor: number, token: Token, picked: Suggestion, users: readonly User[]): { text: string; cursor: number } {
  const before = text.slice(0, token.start);
  const after = text.slice(cursor);
  let insert: string;
  switch (picked.kind) {
    case "user":
      insert = `${mentionSyntax(picked.user, picked.silent, users)} `;
      break;
    case "group":
      insert = `${picked.silent ? "@_" : "@"}*${picked.group.name}* `;
      break;
    case "wildcard":
      insert = `@**${picked.name}** `;
      break;
    case "channel":
      // the topic list comes next
      insert = `#**${picked.name}>`;
      break;
    case "channel-link":
      insert = `#**${picked.channel}** `;
      break;
    case "topic":
      insert = `#**${picked.channel}>${picked.topic}** `;
      break;
    case "emoji": {
      const spaced = token.start === 0 || /\s/.test(text[token.start - 1]!);
      insert = `${spaced ? "" : " "}:${picked.name}: `;
      break;
    }
  }
  return { text: before + insert + after, cursor: before.length + insert.length };
}

/** Leaving the topic list with Esc keeps what was typed as text after a link to the channel (as Zulip does). */
export function closeTopicToken(text: string, cursor: number, token: Token & { kind: "topic" }): { text: string; cursor: number } {
  const before = `${text.slice(0, token.start)}#**${token.channel}** ${token.query}`;
  return { text: before + text.slice(cursor), cursor: before.length };
}
