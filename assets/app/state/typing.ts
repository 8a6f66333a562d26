/**
 * Who is typing where, from `typing` events (Zulip's typing_events): a conversation's typists, each
 * until a stop event, their message, or the server's expiry period after their last start event.
 * Pure: the time is passed in. It lives beside the store, not in it: /register knows nothing of it.
 */
import { dmKey } from "./people";
import { placeKey } from "./user-topics";

/** conversation key (see typingKey) → sender id → when their notice expires (ms) */
export type Typing = Record<string, Record<number, number>>;

/** A topic's key is its place key; a direct-message conversation's is "dm:" and its dmKey. */
export const typingKey = (c: { kind: "topic"; stream_id: number; topic: string } | { kind: "dm"; key: string }) =>
  c.kind === "topic" ? placeKey(c.stream_id, c.topic) : `dm:${c.key}`;

/* eslint-disable @typescript-eslint/no-explicit-any */
function keyOfEvent(me: number, e: any): string | null {
  if (e.message_type === "stream") return typeof e.stream_id === "number" && typeof e.topic === "string" ? typingKey({ kind: "topic", stream_id: e.stream_id, topic: e.topic }) : null;
  if (!Array.isArray(e.recipients)) return null;
  return typingKey({ kind: "dm", key: dmKey(me, e.recipients.map((r: any) => r.user_id)) });
}

function without(t: Typing, key: string, sender: number): Typing {
  const cur = t[key];
  if (!cur || !(sender in cur)) return t;
  const rest = { ...cur };
  delete rest[sender];
  const out = { ...t };
  if (Object.keys(rest).length) out[key] = rest;
  else delete out[key];
  return out;
}

/** The typists after a `typing` event (the person's own typing, seen from another tab, is left out). */
export function onTypingEvent(t: Typing, e: any, me: number, now: number, expiryMs: number): Typing {
  const sender: number | undefined = e.sender?.user_id;
  if (sender === undefined || sender === me) return t;
  const key = keyOfEvent(me, e);
  if (key === null) return t;
  if (e.op === "stop") return without(t, key, sender);
  if (e.op !== "start") return t;
  return { ...t, [key]: { ...t[key], [sender]: now + expiryMs } };
}

/** A message from a typist ends their notice there. */
export function onMessageFrom(t: Typing, key: string, sender: number): Typing {
  return without(t, key, sender);
}

/** Those typing in a conversation now (by user id). */
export function typists(t: Typing, key: string, now: number): number[] {
  return Object.entries(t[key] ?? {})
    .filter(([, until]) => until > now)
    .map(([id]) => Number(id));
}

/** The earliest time a notice in the conversation expires (to redraw then), or null. */
export function nextExpiry(t: Typing, key: string, now: number): number | null {
  const times = Object.values(t[key] ?? {}).filter((until) => until > now);
  return times.length ? Math.min(...times) : null;
}

/** "Hamlet is typing…", "Hamlet and Othello are typing…", "Several people are typing…" (Zulip's words). */
export function typingText(names: readonly string[]): string {
  if (names.length === 0) return "";
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length > 3) return "Several people are typing…";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} are typing…`;
}
