/**
 * Zulip's search language: `channel:general topic:lunch sender:hamlet@example.com is:starred pizza`.
 * Text is read into terms (operator, operand, negated), the names in it are resolved against the
 * state (a channel by name → its id, a person by email or name → their id), and a list of terms
 * becomes a view: a plain narrow when it is one (a channel, a topic, a conversation, starred…), a
 * search otherwise. The reverse gives the text the search bar shows for a view.
 */
import { dmKey, keyIds } from "../state/people";
import type { Narrow, Term } from "../state/narrow";
import type { State } from "../state/types";

/** A term as typed, names not yet resolved. */
export interface RawTerm {
  operator: string;
  operand: string;
  negated: boolean;
}

/** Older names Zulip still accepts for its operators. */
const SYNONYMS: Record<string, string> = { stream: "channel", subject: "topic", from: "sender", "pm-with": "dm", "group-pm-with": "dm-including", private: "dm" };

export const OPERATORS = ["channel", "topic", "sender", "dm", "dm-including", "is", "has", "id", "near", "with", "in"] as const;
export const IS_OPERANDS = ["dm", "starred", "mentioned", "unread", "resolved", "followed", "alerted", "muted"] as const;
export const HAS_OPERANDS = ["link", "image", "attachment", "reaction"] as const;

/** Operators whose operand names people (emails may hold "+", so it is not a space there). */
const PEOPLE_OPERATORS = new Set(["sender", "dm", "dm-including"]);

export const canonicalOperator = (op: string) => SYNONYMS[op.toLowerCase()] ?? op.toLowerCase();

/** How an operand is written in the search bar (Zulip's Filter.encodeOperand): spaces as "+". */
export function encodeOperand(operator: string, operand: string): string {
  if (PEOPLE_OPERATORS.has(operator)) return operand.replace(/[\s"%]/g, (c) => encodeURIComponent(c));
  return operand.replace(/[\s"%+]/g, (c) => (c === " " ? "+" : encodeURIComponent(c)));
}

export function decodeOperand(operator: string, encoded: string): string {
  let s = encoded.replace(/"/g, "");
  if (!PEOPLE_OPERATORS.has(operator)) s = s.replace(/\+/g, " ");
  try {
    s = decodeURIComponent(s);
  } catch {
    // a stray "%" is taken as it is
  }
  return s.trim();
}

/** Splits on spaces, except inside double quotes (`topic:"lunch plans"`). */
function tokens(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (/\s/.test(ch) && !quoted) {
      if (cur) out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

/** The terms of a typed query; the words that are not operators make one free-text term, in order. */
export function parseQuery(text: string): RawTerm[] {
  const terms: RawTerm[] = [];
  let words: string[] = [];
  const flushWords = () => {
    if (words.length) terms.push({ operator: "search", operand: words.join(" "), negated: false });
    words = [];
  };
  for (const token of tokens(text)) {
    const m = /^(-?)([a-zA-Z-]+):(.*)$/.exec(token);
    const operator = m ? canonicalOperator(m[2]!) : "";
    if (m && (OPERATORS as readonly string[]).includes(operator)) {
      const operand = decodeOperand(operator, m[3]!);
      // "channel:" with nothing after it yet is not a term (the person is still typing)
      if (operand === "" && operator !== "topic") continue;
      flushWords();
      terms.push({ operator, operand, negated: m[1] === "-" });
    } else {
      words.push(token.replace(/"/g, ""));
    }
  }
  flushWords();
  return terms;
}

const byEmail = (state: State, email: string) => Object.values(state.users).find((u) => u.email.toLowerCase() === email.toLowerCase());
const byName = (state: State, name: string) => Object.values(state.users).find((u) => u.full_name.toLowerCase() === name.toLowerCase());

/** A person named by id, email, full name or "me". */
export function personId(state: State, operand: string): number | null {
  const s = operand.trim();
  if (s.toLowerCase() === "me") return state.me;
  if (/^\d+$/.test(s)) return state.users[Number(s)] ? Number(s) : null;
  return (byEmail(state, s) ?? byName(state, s))?.user_id ?? null;
}

/** A channel named by id (with or without Zulip's "12-name" slug) or by name. */
export function channelId(state: State, operand: string): number | null {
  const byName = Object.values(state.channels).find((c) => c.name.toLowerCase() === operand.trim().toLowerCase());
  if (byName) return byName.stream_id;
  const id = /^(\d+)(?:-|$)/.exec(operand)?.[1];
  return id !== undefined && state.channels[Number(id)] ? Number(id) : null;
}

export type Resolved = { terms: Term[]; near?: number } | { error: string };

/** Terms with their names resolved to ids, or why they cannot be. `near:`/`with:` become the anchor. */
export function resolveTerms(state: State, raw: readonly RawTerm[]): Resolved {
  const terms: Term[] = [];
  let near: number | undefined;
  for (const t of raw) {
    const negated = t.negated || undefined;
    const add = (operand: string) => terms.push(negated ? { operator: t.operator, operand, negated } : { operator: t.operator, operand });
    switch (t.operator) {
      case "channel": {
        const id = channelId(state, t.operand);
        if (id === null) return { error: `There is no channel named “${t.operand}”.` };
        add(String(id));
        break;
      }
      case "sender":
      case "dm-including": {
        const id = personId(state, t.operand);
        if (id === null) return { error: `No one here is known as “${t.operand}”.` };
        add(String(id));
        break;
      }
      case "dm": {
        const ids: number[] = [];
        for (const part of t.operand.split(",").filter((p) => p.trim())) {
          const id = personId(state, part);
          if (id === null) return { error: `No one here is known as “${part.trim()}”.` };
          ids.push(id);
        }
        if (!ids.length) return { error: "Name who the direct messages are with." };
        add(dmKey(state.me, ids));
        break;
      }
      case "is":
      case "has":
        add(t.operand.toLowerCase() === "private" ? "dm" : t.operand.toLowerCase());
        break;
      case "id":
        if (!/^\d+$/.test(t.operand)) return { error: "A message id is a number." };
        add(t.operand);
        break;
      case "near":
      case "with":
        if (!/^\d+$/.test(t.operand)) return { error: "A message id is a number." };
        near = Number(t.operand);
        break;
      case "in":
        if (t.operand.toLowerCase() !== "home" || t.negated) return { error: `“in:${t.operand}” is not something Parley searches.` };
        add("home");
        break;
      default:
        add(t.operand);
    }
  }
  return near === undefined ? { terms } : { terms, near };
}

/** Operators that may appear once in a view (two channels at once find nothing). */
const SINGLE = new Set(["channel", "topic", "dm", "id"]);

/**
 * The view for resolved terms: a plain narrow when the terms are exactly one (the channel, a topic of
 * it, a conversation, starred, mentions, direct messages, the combined feed), a search otherwise; null
 * when they cannot all hold at once.
 */
export function narrowForTerms(terms: readonly Term[]): Narrow | null {
  const seen = new Set<string>();
  for (const t of terms) {
    if (t.negated) continue;
    if (SINGLE.has(t.operator) && seen.has(t.operator)) return null;
    seen.add(t.operator);
  }
  const plain = terms.every((t) => !t.negated);
  const get = (op: string) => terms.find((t) => t.operator === op);
  if (plain) {
    const channel = get("channel");
    const topic = get("topic");
    if (terms.length === 1 && channel) return { kind: "channel", stream_id: Number(channel.operand) };
    if (terms.length === 2 && channel && topic) return { kind: "topic", stream_id: Number(channel.operand), topic: topic.operand };
    if (terms.length === 1 && get("dm")) return { kind: "dm", key: get("dm")!.operand };
    if (terms.length === 1 && get("in")) return { kind: "feed" };
    if (terms.length === 1 && get("is")) {
      const is = get("is")!.operand;
      if (is === "starred" || is === "mentioned") return { kind: is };
      if (is === "dm") return { kind: "dms" };
    }
  }
  if (terms.length === 0) return { kind: "feed" };
  // "in:home" only names the combined feed; among other terms it adds nothing
  const rest = terms.filter((t) => t.operator !== "in");
  return { kind: "search", terms: rest.length ? rest : [...terms] };
}

/** The terms a view stands for (a channel view is `channel:12`), to show in the search bar. */
export function termsOfNarrow(n: Narrow): Term[] {
  switch (n.kind) {
    case "channel":
      return [{ operator: "channel", operand: String(n.stream_id) }];
    case "topic":
      return [
        { operator: "channel", operand: String(n.stream_id) },
        { operator: "topic", operand: n.topic },
      ];
    case "dm":
      return [{ operator: "dm", operand: n.key }];
    case "starred":
    case "mentioned":
      return [{ operator: "is", operand: n.kind }];
    case "dms":
      return [{ operator: "is", operand: "dm" }];
    case "search":
      return n.terms;
    default:
      return [];
  }
}

/** One term as the search bar writes it: names for ids, spaces as "+". */
export function termText(state: State, t: Term): string {
  if (t.operator === "search") return t.operand;
  let operand = t.operand;
  if (t.operator === "channel") operand = state.channels[Number(t.operand)]?.name ?? t.operand;
  else if (t.operator === "sender" || t.operator === "dm-including") operand = state.users[Number(t.operand)]?.email ?? t.operand;
  else if (t.operator === "dm") operand = keyIds(t.operand).map((id) => state.users[id]?.email ?? String(id)).join(",");
  return `${t.negated ? "-" : ""}${t.operator}:${encodeOperand(t.operator, operand)}`;
}

export const termsText = (state: State, terms: readonly Term[]) => terms.map((t) => termText(state, t)).join(" ");

/** A query typed in the search bar as a view (with the message to open at, when it names one). */
export function viewForQuery(state: State, text: string): { narrow: Narrow; near?: number } | { error: string } | null {
  const raw = parseQuery(text);
  if (!raw.length) return null;
  const r = resolveTerms(state, raw);
  if ("error" in r) return r;
  const narrow = narrowForTerms(r.terms);
  if (!narrow) return { error: "Those terms cannot all hold at once: a message is in one channel, one topic and one conversation." };
  return r.near === undefined ? { narrow } : { narrow, near: r.near };
}
