/**
 * A view's messages laid out as Zulip does: blocks of consecutive messages in one conversation on one
 * day (each under a recipient bar), and within a block, the sender's name and avatar only where the
 * sender changes.
 */
import { messageDmKey } from "../state/people";
import type { Message } from "../state/types";
import { sameDay } from "../lib/time";

export type Recipient = { kind: "channel"; stream_id: number; topic: string } | { kind: "dm"; key: string };

export interface Row {
  message: Message;
  showSender: boolean;
}

export interface Block {
  key: string;
  recipient: Recipient;
  timestamp: number;
  rows: Row[];
}

/** One object per conversation, so a recipient bar whose block did not change is not drawn again. */
const interned = new Map<string, Recipient>();

export function recipientOf(me: number, m: Message): Recipient {
  const r: Recipient = m.type === "stream" ? { kind: "channel", stream_id: m.stream_id!, topic: m.subject } : { kind: "dm", key: messageDmKey(me, m) };
  const key = r.kind === "channel" ? `${r.stream_id}\u0000${r.topic}` : r.key;
  const known = interned.get(key);
  if (known) return known;
  if (interned.size > 5000) interned.clear();
  interned.set(key, r);
  return r;
}

const sameRecipient = (a: Recipient, b: Recipient) =>
  a.kind === "channel" && b.kind === "channel" ? a.stream_id === b.stream_id && a.topic.toLowerCase() === b.topic.toLowerCase() : a.kind === "dm" && b.kind === "dm" && a.key === b.key;

export function layOut(me: number, messages: readonly Message[]): Block[] {
  const blocks: Block[] = [];
  let cur: Block | undefined;
  for (const m of messages) {
    const r = recipientOf(me, m);
    if (!cur || !sameRecipient(cur.recipient, r) || !sameDay(cur.timestamp, m.timestamp)) {
      cur = { key: `${m.local_id ?? m.id}`, recipient: r, timestamp: m.timestamp, rows: [] };
      blocks.push(cur);
    }
    const prev = cur.rows[cur.rows.length - 1]?.message;
    cur.rows.push({ message: m, showSender: !prev || prev.sender_id !== m.sender_id || m.is_me_message || prev.is_me_message });
  }
  return blocks;
}
