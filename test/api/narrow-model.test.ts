/**
 * GET /messages against a model: after random sends (channel and direct, with mentions), stars and
 * reads, every answer to a random narrow and anchor must be what a plain filter over the stored
 * messages and the user's rows gives (fast-check). The model follows Zulip's rules: without a
 * channel it searches the user's own messages; a channel whose history the user may read is searched
 * whole (messages they never received come as read and historical); personal flags (starred,
 * unread, mentioned) search only their own; anchors count num_before/num_after around the anchor.
 * CONSISTENCY_RUNS and CONSISTENCY_SEED search longer or elsewhere.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CAST, startServer, type CastName } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { checkSequences } from "../helpers/consistency";
import { raiseUnreadFloorsNow } from "../../src/actions/messages/unread-floors";

const PEOPLE = ["hamlet", "othello", "cordelia", "polonius"] as const;
type Person = (typeof PEOPLE)[number];
/** Hall: public, everyone in; Vault: private with shared history; Garden: public, cordelia and polonius out. */
const CHANNELS = { Hall: ["hamlet", "othello", "cordelia", "polonius"], Vault: ["hamlet", "othello"], Garden: ["hamlet", "othello"] } as const;
type Channel = keyof typeof CHANNELS;
const TOPICS = ["ghost", "Ghost", "play"] as const;

type Term =
  | { operator: "channel"; channel: Channel; negated: boolean }
  | { operator: "topic"; topic: string; negated: boolean }
  | { operator: "sender"; who: Person; negated: boolean }
  | { operator: "dm"; who: Person }
  | { operator: "is"; operand: "dm" | "starred" | "unread" | "mentioned"; negated: boolean };
type Query = { who: Person; terms: Term[]; anchor: "newest" | "oldest" | number; before: number; after: number };
type Op =
  | { kind: "stream"; who: Person; channel: Channel; topic: string; mention: Person | null }
  | { kind: "dm"; who: Person; to: Person }
  | { kind: "flag"; who: Person; flag: "starred" | "read"; pick: number; add: boolean }
  | { kind: "query"; q: Query }
  | { kind: "raiseFloors" };

const person = fc.constantFrom(...PEOPLE);
const channel = fc.constantFrom<Channel>("Hall", "Vault", "Garden");
const term: fc.Arbitrary<Term> = fc.oneof(
  fc.record({ operator: fc.constant("channel" as const), channel, negated: fc.boolean() }),
  fc.record({ operator: fc.constant("topic" as const), topic: fc.constantFrom(...TOPICS), negated: fc.boolean() }),
  fc.record({ operator: fc.constant("sender" as const), who: person, negated: fc.boolean() }),
  fc.record({ operator: fc.constant("dm" as const), who: person }),
  fc.record({ operator: fc.constant("is" as const), operand: fc.constantFrom<"dm" | "starred" | "unread" | "mentioned">("dm", "starred", "unread", "mentioned"), negated: fc.boolean() }),
);
const query: fc.Arbitrary<Query> = fc.record({
  who: person,
  terms: fc.array(term, { maxLength: 2 }),
  anchor: fc.oneof(fc.constantFrom<"newest" | "oldest">("newest", "oldest"), fc.nat({ max: 40 })),
  before: fc.integer({ min: 1, max: 6 }),
  after: fc.integer({ min: 1, max: 6 }),
});
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("stream" as const), who: person, channel, topic: fc.constantFrom(...TOPICS), mention: fc.option(person, { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("dm" as const), who: person, to: person }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("flag" as const), who: person, flag: fc.constantFrom<"starred" | "read">("starred", "read"), pick: fc.nat(), add: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("query" as const), q: query }) },
  // the background step that moves everyone's unread floor past their newest rows (is:unread reads both parts)
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("raiseFloors" as const) }) },
  // people outside a public channel reading its history (historical messages), or failing to (the guest)
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("query" as const),
      q: fc.record({
        who: fc.constantFrom<Person>("cordelia", "polonius"),
        terms: fc.constantFrom<Term[]>([{ operator: "channel", channel: "Garden", negated: false }], [{ operator: "channel", channel: "Garden", negated: false }, { operator: "topic", topic: "ghost", negated: false }]),
        anchor: fc.constantFrom<"newest" | "oldest">("newest", "oldest"),
        before: fc.integer({ min: 1, max: 6 }),
        after: fc.integer({ min: 1, max: 6 }),
      }),
    }),
  },
);

const MENTION = 8 | 16 | 32;

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const ids: Record<Channel, number> = {
      Hall: await createChannel(s, "iago", "Hall", { subscribers: [...CHANNELS.Hall] }),
      Vault: await createChannel(s, "iago", "Vault", { subscribers: [...CHANNELS.Vault], invite_only: true, history_public_to_subscribers: true }),
      Garden: await createChannel(s, "iago", "Garden", { subscribers: [...CHANNELS.Garden] }),
    };
    const id = (p: Person) => s.users[p as CastName].id;
    const client = (p: Person) => s.users[p as CastName].client;
    /** Whether the user may read the channel's whole history (Zulip: a public channel for members, a subscribed one otherwise). */
    const readsHistory = (p: Person, c: Channel) => (CHANNELS[c] as readonly string[]).includes(p) || (c !== "Vault" && p !== "polonius");

    async function expected(q: Query): Promise<{ id: number; flags: string[] }[]> {
      const me = id(q.who);
      const messages = await s.app.db.all<{ id: number; stream_id: number | null; topic: string; sender_id: number; dm_key: string | null }>("SELECT id, stream_id, topic, sender_id, dm_key FROM messages ORDER BY id");
      const rows = new Map((await s.app.db.all<{ message_id: number; flags: number }>("SELECT message_id, flags FROM user_messages WHERE user_id = ?", [me])).map((r) => [r.message_id, r.flags]));
      const positiveChannel = q.terms.find((t) => t.operator === "channel" && !t.negated) as Extract<Term, { operator: "channel" }> | undefined;
      const personal = q.terms.some((t) => t.operator === "is" && t.operand !== "dm");
      const whole = positiveChannel && !personal && readsHistory(q.who, positiveChannel.channel) ? ids[positiveChannel.channel] : null;
      const out: { id: number; flags: number }[] = [];
      for (const m of messages) {
        const own = rows.get(m.id);
        if (own === undefined && !(whole !== null && m.stream_id === whole)) continue;
        const flags = own ?? (1 | 128);
        const ok = q.terms.every((t) => {
          let hit: boolean;
          switch (t.operator) {
            case "channel":
              hit = m.stream_id === ids[t.channel];
              break;
            case "topic":
              hit = m.stream_id !== null && m.topic.toLowerCase() === t.topic.toLowerCase();
              break;
            case "sender":
              hit = m.sender_id === id(t.who);
              break;
            case "dm":
              return m.dm_key === [...new Set([me, id(t.who)])].sort((a, b) => a - b).join(",");
            case "is":
              hit = t.operand === "dm" ? m.dm_key !== null : t.operand === "starred" ? (flags & 2) !== 0 : t.operand === "unread" ? (flags & 1) === 0 : (flags & MENTION) !== 0;
              break;
          }
          return t.negated ? !hit : hit;
        });
        if (ok) out.push({ id: m.id, flags });
      }
      let picked: typeof out;
      if (q.anchor === "newest") picked = out.slice(-q.before);
      else if (q.anchor === "oldest") picked = out.slice(0, q.after);
      else {
        const a = q.anchor;
        picked = [...out.filter((m) => m.id < a).slice(-q.before), ...out.filter((m) => m.id === a), ...out.filter((m) => m.id > a).slice(0, q.after)];
      }
      const names: [number, string][] = [[1, "read"], [2, "starred"], [8, "mentioned"], [128, "historical"]];
      return picked.map((m) => ({ id: m.id, flags: names.filter(([bit]) => m.flags & bit).map(([, n]) => n) }));
    }

    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "stream": {
          if (!(CHANNELS[o.channel] as readonly string[]).includes(o.who)) break;
          const mention = o.mention ? ` @**${CAST[o.mention].fullName}**` : "";
          (await client(o.who).post("/messages", { type: "stream", to: o.channel, topic: o.topic, content: `line${mention}` })).success();
          break;
        }
        case "dm":
          (await client(o.who).post("/messages", { type: "direct", to: [id(o.to)], content: "psst" })).success();
          break;
        case "flag": {
          const mine = (await s.app.db.all<{ message_id: number }>("SELECT message_id FROM user_messages WHERE user_id = ? ORDER BY message_id", [id(o.who)])).map((r) => r.message_id);
          const chosen = mine.filter((_, i) => (i + o.pick) % 2 === 0);
          if (chosen.length) (await client(o.who).post("/messages/flags", { messages: chosen, op: o.add ? "add" : "remove", flag: o.flag })).success();
          break;
        }
        case "raiseFloors":
          await raiseUnreadFloorsNow(s.app, PEOPLE.map(id));
          break;
        case "query": {
          const { q } = o;
          const narrow = q.terms.map((t) => {
            switch (t.operator) {
              case "channel":
                return { operator: "channel", operand: ids[t.channel], negated: t.negated };
              case "topic":
                return { operator: "topic", operand: t.topic, negated: t.negated };
              case "sender":
                return { operator: "sender", operand: id(t.who), negated: t.negated };
              case "dm":
                return { operator: "dm", operand: [id(t.who)] };
              case "is":
                return { operator: "is", operand: t.operand, negated: t.negated };
            }
          });
          const r = await client(q.who).get("/messages", { anchor: String(q.anchor), num_before: q.before, num_after: q.after, narrow, apply_markdown: false });
          const got = r.success().messages.map((m: any) => ({ id: m.id, flags: m.flags.filter((f: string) => ["read", "starred", "mentioned", "historical"].includes(f)).sort() }));
          expect({ got, log }).toEqual({ got: (await expected(q)).map((m) => ({ ...m, flags: m.flags.sort() })), log });
          break;
        }
      }
    }
  } finally {
    await s.close();
  }
}

describe("GET /messages against a model of narrows and anchors", () => {
  test("every answer is the plain filter over stored messages and the user's rows", () => checkSequences(op, run, { min: 5, max: 30 }), 120_000);
});
