/**
 * Recent direct-message conversations (each with its newest message id) kept by message and
 * delete_message events equal a fresh /register's recent_private_conversations (see
 * helpers/consistency.ts), after random one-to-one, group and self messages and deletions. The
 * organization starts with no direct messages, so a client has seen every message it must know of.
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { startServer, type CastName } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";

const PEOPLE = ["hamlet", "othello", "cordelia", "polonius"] as const;
type Person = (typeof PEOPLE)[number];

type Op = { kind: "dm"; from: Person; to: Person[] } | { kind: "delete"; who: Person; pick: number };

const person = fc.constantFrom(...PEOPLE);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("dm" as const), from: person, to: fc.uniqueArray(person, { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), who: person, pick: fc.nat() }) },
);

/** conversation (the other participants' ids) → the ids of its messages the client knows */
type Conversations = Map<string, Set<number>>;
const key = (ids: number[]) => [...ids].sort((a, b) => a - b).join(",");

const CONVERSATIONS: Slice<Conversations> = {
  register: { event_types: ["message", "delete_message", "recent_private_conversations"] },
  fromRegister: (r) => new Map(r.recent_private_conversations.map((c: any) => [key(c.user_ids), new Set([c.max_message_id])])),
  apply(st, e, me) {
    if (e.type === "message" && e.message.type === "private") {
      const others = e.message.display_recipient.map((u: any) => u.id).filter((id: number) => id !== me);
      const k = key(others);
      st.set(k, (st.get(k) ?? new Set()).add(e.message.id));
    }
    if (e.type === "delete_message" && e.message_type === "private") {
      for (const [k, ids] of st) {
        for (const id of e.message_ids) ids.delete(id);
        if (!ids.size) st.delete(k);
      }
    }
  },
  summary: (st) => [...st].map(([k, ids]) => `[${k}] newest ${Math.max(...ids)}`).sort(),
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const id = (p: Person) => s.users[p as CastName].id;
    const client = (p: Person) => s.users[p as CastName].client;
    const clients = await follow(s, PEOPLE, CONVERSATIONS);
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      if (o.kind === "dm") {
        (await client(o.from).post("/messages", { type: "direct", to: o.to.map(id), content: "psst" })).success();
      } else {
        // people may delete their own messages (the default policy): pick one of theirs
        const mine = await s.app.db.all<{ id: number }>("SELECT id FROM messages WHERE sender_id = ? AND dm_key IS NOT NULL ORDER BY id", [id(o.who)]);
        if (mine.length) (await client(o.who).delete(`/messages/${mine[o.pick % mine.length]!.id}`)).success();
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("recent direct-message conversations: register once and follow the events, or register again", () => {
  test("agree after random direct messages and deletions", () => checkSequences(op, run), 120_000);
});
