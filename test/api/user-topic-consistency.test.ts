/**
 * Topic visibility (muted, unmuted, followed topics) kept by user_topic events equals a fresh
 * /register's user_topics (see helpers/consistency.ts), after random policy changes, sends (which
 * follow topics automatically by the users' settings), moves of one, later or all messages of a
 * topic, within a channel or to another (which carry policies along when a whole topic moves), and
 * deletions.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CAST, startServer, type CastName } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";
import { createChannel } from "../helpers/channels";
import { VISIBILITY } from "../../src/domain/user-topics";

const PEOPLE = ["hamlet", "othello", "iago"] as const;
type Person = (typeof PEOPLE)[number];
const TOPICS = ["ghost", "play", "Ghost", "moved", ""] as const;

type Op =
  | { kind: "policy"; who: Person; channel: number; topic: string; policy: number }
  | { kind: "send"; who: Person; channel: number; topic: string; mention: Person | null }
  | { kind: "move"; pick: number; topic: string; channel: number; mode: "change_one" | "change_later" | "change_all" }
  | { kind: "delete"; pick: number };

const person = fc.constantFrom(...PEOPLE);
const topic = fc.constantFrom(...TOPICS);
const ch = fc.nat({ max: 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("policy" as const), who: person, channel: ch, topic, policy: fc.constantFrom(VISIBILITY.inherit, VISIBILITY.muted, VISIBILITY.unmuted, VISIBILITY.followed) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("send" as const), who: person, channel: ch, topic, mention: fc.option(person, { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), topic, channel: ch, mode: fc.constantFrom<"change_one" | "change_later" | "change_all">("change_one", "change_later", "change_all") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
);

type Topics = Map<string, number>;
const key = (streamId: number, name: string) => `${streamId} / ${name.toLowerCase()}`;

const TOPIC_POLICIES: Slice<Topics> = {
  register: { event_types: ["user_topic"] },
  fromRegister: (r) => new Map(r.user_topics.map((t: any) => [key(t.stream_id, t.topic_name), t.visibility_policy])),
  apply(state, e) {
    if (e.type !== "user_topic") return;
    if (e.visibility_policy === VISIBILITY.inherit) state.delete(key(e.stream_id, e.topic_name));
    else state.set(key(e.stream_id, e.topic_name), e.visibility_policy);
  },
  summary: (t) => [...t].map(([k, v]) => `${k}: ${v}`).sort(),
};

/** A client older than user_topic (Zulip < 6.0): the muted_topics list, replaced whole by each muted_topics event. */
const LEGACY_MUTED_TOPICS: Slice<{ list: string[] }> = {
  register: { event_types: ["muted_topics"] },
  fromRegister: (r) => ({ list: r.muted_topics.map((m: [string, string, number]) => m.join(" / ")) }),
  apply(state, e) {
    if (e.type === "muted_topics") state.list = e.muted_topics.map((m: [string, string, number]) => m.join(" / "));
  },
  summary: (st) => [...st.list].sort(),
};

async function run<S>(ops: Op[], slice: Slice<S>) {
  const s = await startServer();
  try {
    const client = (p: Person) => s.users[p as CastName].client;
    const channels = [
      await createChannel(s, "iago", "Stage", { subscribers: ["hamlet", "othello"] }),
      await createChannel(s, "iago", "Wings", { subscribers: ["hamlet", "othello"] }),
    ];
    const clients = await follow(s, PEOPLE, slice);
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "policy":
          (await client(o.who).post("/user_topics", { stream_id: channels[o.channel]!, topic: o.topic, visibility_policy: o.policy })).success();
          break;
        case "send": {
          const mention = o.mention ? ` @**${CAST[o.mention].fullName}**` : "";
          (await client(o.who).post("/messages", { type: "stream", to: channels[o.channel]!, topic: o.topic, content: `line${mention}` })).success();
          break;
        }
        case "move": {
          const msgs = await s.app.db.all<{ id: number; stream_id: number; topic: string }>("SELECT id, stream_id, topic FROM messages WHERE stream_id IS NOT NULL ORDER BY id");
          const target = msgs.length ? msgs[o.pick % msgs.length]! : undefined;
          if (!target) break;
          const toStream = channels[o.channel]!;
          const params: Record<string, unknown> = { topic: o.topic, propagate_mode: o.mode };
          if (toStream !== target.stream_id) params.stream_id = toStream;
          const r = await client("iago").patch(`/messages/${target.id}`, params as any);
          if (r.status !== 200) expect(r.json.msg).toBe("Nothing to change");
          break;
        }
        case "delete": {
          const msgs = await s.app.db.all<{ id: number }>("SELECT id FROM messages WHERE stream_id IS NOT NULL ORDER BY id");
          const target = msgs.length ? msgs[o.pick % msgs.length]! : undefined;
          if (target) (await client("iago").delete(`/messages/${target.id}`)).success();
          break;
        }
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("topic visibility: register once and follow the events, or register again", () => {
  test("agree after random policy changes, sends, moves and deletions", () => checkSequences(op, (ops) => run(ops, TOPIC_POLICIES)), 120_000);
  test("agree for a client that follows the legacy muted_topics events instead", () => checkSequences(op, (ops) => run(ops, LEGACY_MUTED_TOPICS)), 120_000);
});
