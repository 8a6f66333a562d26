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

const rowKey = (m: Message) => `${m.local_id ?? m.id}`;

/**
 * The blocks of `messages`. A block that shares a message with one of `previous` (the last layout of the
 * same list) keeps that block's key, so rows arriving above or below a block do not make Preact draw
 * the whole block and its rows afresh (and a row in the page stays the same element).
 */
export function layOut(me: number, messages: readonly Message[], previous: readonly Block[] = []): Block[] {
  const keyWas = new Map<string, string>();
  for (const b of previous) for (const row of b.rows) keyWas.set(rowKey(row.message), b.key);
  const used = new Set<string>();
  const blocks: Block[] = [];
  let cur: Block | undefined;
  const close = () => {
    if (!cur || cur.key) return;
    // a new block: named for its first row (made unique, in case a block that kept its key has that name)
    let key = rowKey(cur.rows[0]!.message);
    for (let n = 1; used.has(key); n++) key = `${rowKey(cur.rows[0]!.message)}~${n}`;
    cur.key = key;
    used.add(key);
  };
  for (const m of messages) {
    const r = recipientOf(me, m);
    if (!cur || !sameRecipient(cur.recipient, r) || !sameDay(cur.timestamp, m.timestamp)) {
      close();
      cur = { key: "", recipient: r, timestamp: m.timestamp, rows: [] };
      blocks.push(cur);
    }
    if (!cur.key) {
      const was = keyWas.get(rowKey(m));
      if (was !== undefined && !used.has(was)) {
        cur.key = was;
        used.add(was);
      }
    }
    const prev = cur.rows[cur.rows.length - 1]?.message;
    cur.rows.push({ message: m, showSender: !prev || prev.sender_id !== m.sender_id || m.is_me_message || prev.is_me_message });
  }
  close();
  return blocks;
}

/**
 * Lower bounds of the heights (px) messages.css gives a message's row, the sender's name above it, and a
 * recipient bar with its block's margin and border.
 */
const MIN_ROW = 32;
const MIN_SENDER = 20;
const MIN_BAR = 40;

/**
 * How many rows cover `height` pixels at the least, when they are laid out like `sample` (the rows about
 * where a view opens, in order): from their average lower-bound height, one more for good measure, at most
 * all of `sample`. A view's first frame draws that many (MessageList adds more in that same frame if they
 * fall short): a list where every message has its own bar needs a third of the rows a run of one sender's
 * messages does.
 */
export function rowsCovering(me: number, sample: readonly Message[], height: number): number {
  if (!sample.length) return 0;
  let total = 0;
  for (const b of layOut(me, sample)) {
    total += MIN_BAR;
    for (const row of b.rows) total += MIN_ROW + (row.showSender ? MIN_SENDER : 0);
  }
  return Math.min(sample.length, Math.ceil(height / (total / sample.length)) + 1);
}
