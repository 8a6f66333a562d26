/**
 * Suggestions as the person types in the search bar, in the spirit of Zulip's search_suggestion:
 * the word being typed is completed — an operator (`ch` → `channel:`), a channel, a topic of the
 * channel already named, a person (`sender:`, `dm:`), an `is:` or `has:` operand — and plain words
 * are offered as a text search, or as messages sent by or in what they name.
 */
import { activePeople } from "../state/people";
import type { State } from "../state/types";
import { canonicalOperator, channelId, decodeOperand, encodeOperand, HAS_OPERANDS, IS_OPERANDS, parseQuery } from "./terms";

export interface Suggestion {
  /** the whole query after choosing it */
  query: string;
  /** what the suggestion adds to what was typed before the word (shown in the list) */
  shown: string;
  /** what it finds, for people */
  description: string;
  /** false: the query is not finished yet (an operator waiting for its operand); choosing it keeps typing */
  complete: boolean;
}

const IS_DESCRIPTIONS: Record<(typeof IS_OPERANDS)[number], string> = {
  dm: "Direct messages",
  starred: "Starred messages",
  mentioned: "Messages that mention you",
  unread: "Unread messages",
  resolved: "Topics marked as resolved",
  followed: "Followed topics",
  alerted: "Alerted messages",
  muted: "Muted messages",
};

const HAS_DESCRIPTIONS: Record<(typeof HAS_OPERANDS)[number], string> = {
  link: "Messages with links",
  image: "Messages with images",
  attachment: "Messages with attachments",
  reaction: "Messages with reactions",
};

const OPERATOR_DESCRIPTIONS: [string, string][] = [
  ["channel", "Messages in a channel"],
  ["topic", "Messages in a topic"],
  ["sender", "Messages sent by someone"],
  ["dm", "Direct messages with someone"],
  ["is", "Starred, unread, mentions, resolved…"],
  ["has", "Links, images, attachments, reactions"],
  ["near", "Messages around a message id"],
  ["id", "One message by its id"],
];

/** Where the last word starts (a quoted operand counts as one word). */
function lastWordStart(text: string): number {
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') quoted = !quoted;
    else if (/\s/.test(ch) && !quoted) start = i + 1;
  }
  return start;
}

/** What one of whose names (or a word of it) starts with `needle`: names that start with it first. */
function ranked<T>(items: T[], needle: string, names: (x: T) => string[]): T[] {
  const n = needle.toLowerCase();
  const score = (x: T) => {
    let best = 2;
    for (const name of names(x).map((s) => s.toLowerCase())) {
      if (name.startsWith(n)) best = Math.min(best, 0);
      else if (name.split(/[\s._@(),-]+/).some((w) => w.startsWith(n))) best = Math.min(best, 1);
    }
    return best;
  };
  return items
    .map((x) => [x, score(x)] as const)
    .filter(([, s]) => s < 2)
    .sort((a, b) => a[1] - b[1])
    .map(([x]) => x);
}

/** The topics known in a channel (its fetched topic list, then those of messages in memory). */
function topicsOf(state: State, streamId: number): string[] {
  const names = new Map<string, string>();
  for (const t of state.topics[streamId] ?? []) names.set(t.name.toLowerCase(), t.name);
  for (const m of Object.values(state.messages)) if (m.type === "stream" && m.stream_id === streamId && !names.has(m.subject.toLowerCase())) names.set(m.subject.toLowerCase(), m.subject);
  return [...names.values()];
}

function operandSuggestions(state: State, before: string, negated: boolean, operator: string, partial: string): Suggestion[] {
  const sign = negated ? "-" : "";
  const make = (value: string, description: string): Suggestion => {
    const shown = `${sign}${operator}:${encodeOperand(operator, value)}`;
    return { query: before + shown, shown, description, complete: true };
  };
  switch (operator) {
    case "channel": {
      const subscribed = (id: number) => (state.subscriptions[id] ? 0 : 1);
      const channels = Object.values(state.channels).sort((a, b) => subscribed(a.stream_id) - subscribed(b.stream_id) || a.name.localeCompare(b.name));
      return ranked(channels, partial, (c) => [c.name]).map((c) => make(c.name, `Messages in #${c.name}`));
    }
    case "topic": {
      const channel = parseQuery(before).find((t) => t.operator === "channel" && !t.negated);
      const id = channel ? channelId(state, channel.operand) : null;
      if (id === null) return [];
      return ranked(topicsOf(state, id), partial, (t) => [t]).map((t) => make(t, `Messages in #${state.channels[id]!.name} › ${t}`));
    }
    case "sender":
    case "dm":
    case "dm-including": {
      const people = ranked(activePeople(state.users), partial, (u) => [u.full_name, u.email]);
      const out = people.map((u) => make(u.email, operator === "sender" ? `Sent by ${u.full_name}` : `Direct messages with ${u.full_name}`));
      if (operator === "sender" && "me".startsWith(partial.toLowerCase())) out.unshift(make("me", "Sent by you"));
      return out;
    }
    case "is":
      return IS_OPERANDS.filter((o) => o.startsWith(partial.toLowerCase())).map((o) => make(o, IS_DESCRIPTIONS[o]));
    case "has":
      return HAS_OPERANDS.filter((o) => o.startsWith(partial.toLowerCase())).map((o) => make(o, HAS_DESCRIPTIONS[o]));
    default:
      return [];
  }
}

const DEFAULTS: [string, string][] = [
  ["is:starred", "Starred messages"],
  ["is:mentioned", "Messages that mention you"],
  ["is:dm", "Direct messages"],
  ["is:unread", "Unread messages"],
  ["sender:me", "Sent by you"],
  ["has:link", "Messages with links"],
  ["has:image", "Messages with images"],
  ["has:attachment", "Messages with attachments"],
];

export function suggest(state: State, text: string, limit = 8): Suggestion[] {
  const at = lastWordStart(text);
  const before = text.slice(0, at);
  const word = text.slice(at);
  if (!text.trim()) return DEFAULTS.map(([query, description]) => ({ query, shown: query, description, complete: true })).slice(0, limit);

  const op = /^(-?)([a-zA-Z-]+):(.*)$/.exec(word);
  if (op) {
    const operator = canonicalOperator(op[2]!);
    return operandSuggestions(state, before, op[1] === "-", operator, decodeOperand(operator, op[3]!)).slice(0, limit);
  }

  const out: Suggestion[] = [];
  const whole = text.trim();
  out.push({ query: whole, shown: whole, description: word ? `Search for “${whole}”` : "Search", complete: true });
  if (!word) return out;
  const lower = word.toLowerCase().replace(/^-/, "");
  const add = (shown: string, description: string, complete = true) => out.push({ query: before + shown, shown, description, complete });
  for (const [name, description] of OPERATOR_DESCRIPTIONS) {
    if (name.startsWith(lower)) add(`${word.startsWith("-") ? "-" : ""}${name}:`, description, false);
  }
  if (lower.length >= 2) {
    for (const u of ranked(activePeople(state.users), lower, (x) => [x.full_name, x.email]).slice(0, 2)) {
      add(`sender:${encodeOperand("sender", u.email)}`, `Sent by ${u.full_name}`);
      add(`dm:${encodeOperand("dm", u.email)}`, `Direct messages with ${u.full_name}`);
    }
    for (const c of ranked(Object.values(state.subscriptions), lower, (x) => [x.name]).slice(0, 2)) {
      add(`channel:${encodeOperand("channel", c.name)}`, `Messages in #${c.name}`);
    }
    for (const o of IS_OPERANDS.filter((x) => x.startsWith(lower))) add(`is:${o}`, IS_DESCRIPTIONS[o]);
  }
  return out.slice(0, limit);
}
