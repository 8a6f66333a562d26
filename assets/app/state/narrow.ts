/**
 * Narrows: the message views the app shows, how each asks GET /messages for its messages, and whether
 * a message that arrives (or moves) belongs in it.
 */
import { dmKey, messageDmKey } from "./people";
import { isTopicMuted, POLICY, topicPolicy } from "./user-topics";
import type { Message, Narrow, State, Term } from "./types";

export type { Narrow, Term } from "./types";

export function narrowKey(n: Narrow): string {
  switch (n.kind) {
    case "channel":
      return `channel:${n.stream_id}`;
    case "topic":
      return `topic:${n.stream_id}:${n.topic.toLowerCase()}`;
    case "dm":
      return `dm:${n.key}`;
    case "search":
      return `search:${n.terms.map((t) => `${t.negated ? "-" : ""}${t.operator}:${t.operator === "topic" ? t.operand.toLowerCase() : t.operand}`).join("\u0000")}`;
    default:
      return n.kind;
  }
}

type ApiTerm = { operator: string; operand: string | number | number[]; negated?: boolean };

const ID_OPERATORS = new Set(["channel", "sender", "id"]);
const IDS_OPERATORS = new Set(["dm", "dm-including"]);

function apiTerm(t: Term): ApiTerm {
  let operand: ApiTerm["operand"] = t.operand;
  if (ID_OPERATORS.has(t.operator) && /^\d+$/.test(t.operand)) operand = Number(t.operand);
  else if (IDS_OPERATORS.has(t.operator) && /^\d+(,\d+)*$/.test(t.operand)) operand = t.operand.split(",").map(Number);
  return t.negated ? { operator: t.operator, operand, negated: true } : { operator: t.operator, operand };
}

/** The narrow GET /messages and POST /messages/flags/narrow take. */
export function apiNarrow(n: Narrow): ApiTerm[] {
  switch (n.kind) {
    case "feed":
      return [{ operator: "in", operand: "home" }];
    case "all":
      return [];
    case "mentioned":
      return [{ operator: "is", operand: "mentioned" }];
    case "starred":
      return [{ operator: "is", operand: "starred" }];
    case "dms":
      return [{ operator: "is", operand: "dm" }];
    case "channel":
      return [{ operator: "channel", operand: n.stream_id }];
    case "topic":
      return [
        { operator: "channel", operand: n.stream_id },
        { operator: "topic", operand: n.topic },
      ];
    case "dm":
      return [{ operator: "dm", operand: n.key.split(",").map(Number) }];
    case "search":
      return n.terms.map(apiTerm);
  }
}

const MENTION_FLAGS = ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned"];
export const isMentioned = (flags: readonly string[]) => flags.some((f) => MENTION_FLAGS.includes(f));

/** Zulip marks a resolved topic with this prefix. */
export const RESOLVED_PREFIX = "✔ ";

/** `is:` operands the app can check by itself. */
const LOCAL_IS = new Set(["dm", "private", "starred", "mentioned", "unread", "resolved", "followed"]);
const LOCAL_OPERATORS = new Set(["channel", "topic", "sender", "dm", "dm-including", "id"]);

const isLocalTerm = (t: Term) => LOCAL_OPERATORS.has(t.operator) || (t.operator === "is" && LOCAL_IS.has(t.operand));

/**
 * Whether the app can tell by itself which messages belong in the narrow (so a message that arrives or
 * changes joins or leaves it). Free text, `has:` and the like are the server's to judge: such a view
 * keeps what the server found.
 */
export const isLocal = (n: Narrow) => n.kind !== "search" || n.terms.every(isLocalTerm);

function termHolds(state: State, t: Term, m: Message): boolean {
  switch (t.operator) {
    case "channel":
      return m.type === "stream" && String(m.stream_id) === t.operand;
    case "topic":
      return m.type === "stream" && m.subject.toLowerCase() === t.operand.toLowerCase();
    case "sender":
      return String(m.sender_id) === t.operand;
    case "id":
      return String(m.id) === t.operand;
    case "dm":
      return m.type === "private" && messageDmKey(state.me, m) === dmKey(state.me, t.operand.split(",").map(Number));
    case "dm-including":
      return m.type === "private" && (m.display_recipient as { id: number }[]).some((r) => String(r.id) === t.operand);
    case "is":
      switch (t.operand) {
        case "dm":
        case "private":
          return m.type === "private";
        case "starred":
          return m.flags.includes("starred");
        case "mentioned":
          return isMentioned(m.flags);
        case "unread":
          return !m.flags.includes("read");
        case "resolved":
          return m.type === "stream" && m.subject.startsWith(RESOLVED_PREFIX);
        case "followed":
          return m.type === "stream" && topicPolicy(state, m.stream_id!, m.subject) === POLICY.followed;
      }
  }
  return false;
}

/** Whether a message belongs in the narrow, by what the state knows now. */
export function matches(state: State, n: Narrow, m: Message): boolean {
  switch (n.kind) {
    case "all":
      return true;
    case "feed":
      return m.type === "private" || !isTopicMuted(state, m.stream_id!, m.subject);
    case "mentioned":
      return isMentioned(m.flags);
    case "starred":
      return m.flags.includes("starred");
    case "dms":
      return m.type === "private";
    case "channel":
      return m.type === "stream" && m.stream_id === n.stream_id;
    case "topic":
      return m.type === "stream" && m.stream_id === n.stream_id && m.subject.toLowerCase() === n.topic.toLowerCase();
    case "dm":
      return m.type === "private" && messageDmKey(state.me, m) === n.key;
    case "search":
      return isLocal(n) && n.terms.every((t) => termHolds(state, t, m) !== !!t.negated);
  }
}

/** Conversation views: one channel, topic or direct-message conversation. */
export const isConversation = (n: Narrow) => n.kind === "channel" || n.kind === "topic" || n.kind === "dm";
