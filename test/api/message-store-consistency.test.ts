/**
 * A client's message store: the messages it fetched, kept by message, update_message (content,
 * topic, channel), delete_message and reaction events, must equal what GET /messages returns now
 * (rendered content, channel, topic, reactions), for every user, after random sends, edits, topic
 * and channel moves, deletions and reactions (fast-check; CONSISTENCY_RUNS and CONSISTENCY_SEED
 * search longer or elsewhere).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { MODERN_CAPABILITIES, startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { checkSequences } from "../helpers/consistency";

const PEOPLE = ["hamlet", "othello", "cordelia"] as const;
type Person = (typeof PEOPLE)[number];

type Op =
  | { kind: "send"; who: Person; channel: number; topic: string; n: number }
  | { kind: "dm"; who: Person; to: Person }
  | { kind: "edit"; pick: number; n: number }
  | { kind: "move"; pick: number; topic: string; channel: number; mode: "change_one" | "change_later" | "change_all" }
  | { kind: "delete"; pick: number }
  | { kind: "react"; who: Person; pick: number; emoji: "heart" | "smile"; add: boolean };

const person = fc.constantFrom(...PEOPLE);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("send" as const), who: person, channel: fc.nat({ max: 1 }), topic: fc.constantFrom("ghost", "play", ""), n: fc.nat({ max: 9 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("dm" as const), who: person, to: person }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("edit" as const), pick: fc.nat(), n: fc.nat({ max: 9 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("move" as const),
      pick: fc.nat(),
      topic: fc.constantFrom("ghost", "play", "moved", ""),
      channel: fc.nat({ max: 1 }),
      mode: fc.constantFrom<"change_one" | "change_later" | "change_all">("change_one", "change_later", "change_all"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("react" as const), who: person, pick: fc.nat(), emoji: fc.constantFrom<"heart" | "smile">("heart", "smile"), add: fc.boolean() }) },
);

interface Stored {
  content: string;
  place: string;
  reactions: Map<string, Set<number>>;
}

const placeOf = (m: any) => (m.type === "stream" ? `channel ${m.stream_id} / ${m.subject}` : "direct");
const storedOf = (m: any): Stored => {
  const reactions = new Map<string, Set<number>>();
  for (const r of m.reactions) reactions.set(r.emoji_name, (reactions.get(r.emoji_name) ?? new Set()).add(r.user_id));
  return { content: m.content, place: placeOf(m), reactions };
};

/** What the client declared: a current one, or one without bulk_message_deletion and empty_topic_name that fetches raw Markdown. */
interface Client {
  capabilities: Record<string, boolean>;
  markdown: boolean;
}
const CURRENT: Client = { capabilities: { ...MODERN_CAPABILITIES, empty_topic_name: true }, markdown: true };
// without empty_topic_name, "" is the organization's empty_topic_display_name in events and fetches
const OLDER: Client = { capabilities: { ...MODERN_CAPABILITIES, bulk_message_deletion: false }, markdown: false };

function apply(store: Map<number, Stored>, e: any, c: Client): void {
  switch (e.type) {
    case "message":
      store.set(e.message.id, storedOf(e.message));
      return;
    case "delete_message":
      // without bulk_message_deletion: one event per message, with message_id
      for (const id of c.capabilities.bulk_message_deletion ? e.message_ids : [e.message_id]) store.delete(id);
      return;
    case "update_message": {
      const content = c.markdown ? e.rendered_content : e.content;
      if (content !== undefined && store.has(e.message_id)) store.get(e.message_id)!.content = content;
      if (e.new_stream_id !== undefined || e.subject !== undefined) {
        for (const id of e.message_ids) {
          const m = store.get(id);
          if (m) m.place = `channel ${e.new_stream_id ?? e.stream_id} / ${e.subject ?? e.orig_subject}`;
        }
      }
      return;
    }
    case "reaction": {
      const m = store.get(e.message_id);
      if (!m) return;
      const users = m.reactions.get(e.emoji_name) ?? new Set<number>();
      if (e.op === "add") users.add(e.user_id);
      else users.delete(e.user_id);
      if (users.size) m.reactions.set(e.emoji_name, users);
      else m.reactions.delete(e.emoji_name);
      return;
    }
  }
}

const summary = (store: Map<number, Stored>) =>
  [...store]
    .sort((a, b) => a[0] - b[0])
    .map(([id, m]) => `${id} ${m.place} ${m.content} ${[...m.reactions].sort().map(([k, v]) => `${k}:${[...v].sort((a, b) => a - b)}`).join(" ")}`);

async function fetchAll(s: TestServer, p: Person, c: Client): Promise<Map<number, Stored>> {
  const r = (await s.users[p as CastName].client.get("/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow: [], apply_markdown: c.markdown, allow_empty_topic_name: Boolean(c.capabilities.empty_topic_name) })).success();
  return new Map(r.messages.map((m: any) => [m.id, storedOf(m)]));
}

async function run(ops: Op[], c: Client) {
  const s = await startServer();
  try {
    const channels = [
      await createChannel(s, "iago", "Stage", { subscribers: ["hamlet", "othello", "cordelia"] }),
      await createChannel(s, "iago", "Wings", { subscribers: ["hamlet", "othello", "cordelia"] }),
    ];
    const id = (p: Person) => s.users[p as CastName].id;
    const client = (p: Person) => s.users[p as CastName].client;
    const clients = new Map<Person, { queue: string; store: Map<number, Stored> }>();
    for (const p of PEOPLE) {
      const queue = (await client(p).post("/register", { event_types: ["message", "update_message", "delete_message", "reaction"], client_capabilities: c.capabilities, apply_markdown: c.markdown })).success().queue_id;
      clients.set(p, { queue, store: await fetchAll(s, p, c) });
    }
    const channelMessages = async () => s.app.db.all<{ id: number; sender_id: number }>("SELECT id, sender_id FROM messages WHERE stream_id IS NOT NULL ORDER BY id");
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "send":
          (await client(o.who).post("/messages", { type: "stream", to: channels[o.channel]!, topic: o.topic, content: `**line** ${o.n}` })).success();
          break;
        case "dm":
          (await client(o.who).post("/messages", { type: "direct", to: [id(o.to)], content: "psst" })).success();
          break;
        case "edit": {
          // a sender edits one of their own channel messages
          const mine = (await channelMessages()).filter((m) => PEOPLE.some((p) => id(p) === m.sender_id));
          const target = mine.length ? mine[o.pick % mine.length]! : undefined;
          if (!target) break;
          const editor = PEOPLE.find((p) => id(p) === target.sender_id)!;
          const r = await client(editor).patch(`/messages/${target.id}`, { content: `_edited_ ${o.n}` });
          if (r.status !== 200) expect(r.json.msg).toBe("Nothing to change");
          break;
        }
        case "move": {
          const all = await channelMessages();
          const target = all.length ? all[o.pick % all.length]! : undefined;
          if (!target) break;
          const r = await s.users.iago.client.patch(`/messages/${target.id}`, { topic: o.topic, stream_id: channels[o.channel]!, propagate_mode: o.mode });
          if (r.status !== 200) expect(r.json.msg).toBe("Nothing to change");
          break;
        }
        case "delete": {
          const all = await channelMessages();
          if (all.length) (await s.users.iago.client.delete(`/messages/${all[o.pick % all.length]!.id}`)).success();
          break;
        }
        case "react": {
          const all = await channelMessages();
          if (!all.length) break;
          const target = all[o.pick % all.length]!.id;
          const r = o.add
            ? await client(o.who).post(`/messages/${target}/reactions`, { emoji_name: o.emoji })
            : await client(o.who).delete(`/messages/${target}/reactions`, { emoji_name: o.emoji });
          if (r.status !== 200) expect(r.json.msg).toMatch(/^Reaction already exists|^Reaction doesn't exist/);
          break;
        }
      }
    }
    for (const p of PEOPLE) {
      const mine = clients.get(p)!;
      for (const e of (await client(p).get("/events", { queue_id: mine.queue, last_event_id: -1, dont_block: true })).success().events) apply(mine.store, e, c);
      expect({ who: p, store: summary(mine.store), ops: log }).toEqual({ who: p, store: summary(await fetchAll(s, p, c)), ops: log });
    }
  } finally {
    await s.close();
  }
}

describe("a client's message store: fetch once and follow the events, or fetch again", () => {
  test("agree after random sends, edits, moves, deletions and reactions", () => checkSequences(op, (ops) => run(ops, CURRENT)), 120_000);
  test("agree for a client without bulk_message_deletion and empty_topic_name that reads raw Markdown", () => checkSequences(op, (ops) => run(ops, OLDER)), 120_000);
});
