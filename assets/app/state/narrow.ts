/**
 * Narrows: the message views the app shows, how each asks GET /messages for its messages, and whether
 * a message that arrives (or moves) belongs in it.
 */
import { messageDmKey } from "./people";
import { isTopicMuted } from "./user-topics";
import type { Message, State } from "./types";

export type Narrow =
  /** the combined feed: every message except muted channels and topics */
  | { kind: "feed" }
  /** every message, muted or not (the recent conversations view reads this one) */
  | { kind: "all" }
  | { kind: "mentioned" }
  | { kind: "starred" }
  | { kind: "dms" }
  | { kind: "channel"; stream_id: number }
  | { kind: "topic"; stream_id: number; topic: string }
  | { kind: "dm"; key: string };

export function narrowKey(n: Narrow): string {
  switch (n.kind) {
    case "channel":
      return `channel:${n.stream_id}`;
    case "topic":
      return `topic:${n.stream_id}:${n.topic.toLowerCase()}`;
    case "dm":
      return `dm:${n.key}`;
    default:
      return n.kind;
  }
}

type Term = { operator: string; operand: string | number | number[] };

/** The narrow GET /messages and POST /messages/flags/narrow take. */
export function apiNarrow(n: Narrow): Term[] {
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
  }
}

const MENTION_FLAGS = ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned"];
export const isMentioned = (flags: readonly string[]) => flags.some((f) => MENTION_FLAGS.includes(f));

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
  }
}

/** Conversation views: one channel, topic or direct-message conversation. */
export const isConversation = (n: Narrow) => n.kind === "channel" || n.kind === "topic" || n.kind === "dm";
