/**
 * A channel's topic list (each topic with its newest message) as a client builds it from message,
 * update_message (moves) and delete_message events equals GET /users/me/{stream_id}/topics now,
 * after random sends, moves of one, later or all messages (within and between channels) and
 * deletions. The organization starts with no messages in these channels, so the client has seen
 * every message it must know of (fast-check; CONSISTENCY_RUNS and CONSISTENCY_SEED search longer).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { MODERN_CAPABILITIES, startServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { checkSequences } from "../helpers/consistency";

type Op =
  | { kind: "send"; channel: number; topic: string }
  | { kind: "move"; pick: number; channel: number; topic: string; mode: "change_one" | "change_later" | "change_all" }
  | { kind: "delete"; pick: number };

const topic = fc.constantFrom("ghost", "Ghost", "play", "crown");
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("send" as const), channel: fc.nat({ max: 1 }), topic }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("move" as const),
      pick: fc.nat(),
      channel: fc.nat({ max: 1 }),
      topic,
      mode: fc.constantFrom<"change_one" | "change_later" | "change_all">("change_one", "change_later", "change_all"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
);

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const channels = [
      await createChannel(s, "iago", "Stage", { subscribers: ["hamlet"] }),
      await createChannel(s, "iago", "Wings", { subscribers: ["hamlet"] }),
    ];
    const hamlet = s.users.hamlet.client;
    // the client's messages: id → where it is now (channel and topic as last seen)
    const known = new Map<number, { channel: number; topic: string }>();
    for (const c of channels) {
      for (const t of (await hamlet.get(`/users/me/${c}/topics`)).success().topics) {
        for (const m of (await hamlet.get("/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow: [{ operator: "channel", operand: c }, { operator: "topic", operand: t.name }] })).success().messages) {
          known.set(m.id, { channel: c, topic: m.subject });
        }
      }
    }
    const queue = (await hamlet.post("/register", { event_types: ["message", "update_message", "delete_message"], client_capabilities: MODERN_CAPABILITIES })).success().queue_id;
    const channelMessages = async () => (await s.app.db.all<{ id: number }>("SELECT id FROM messages WHERE stream_id IS NOT NULL ORDER BY id")).map((r) => r.id);
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      if (o.kind === "send") (await hamlet.post("/messages", { type: "stream", to: channels[o.channel]!, topic: o.topic, content: "line" })).success();
      else if (o.kind === "move") {
        const all = await channelMessages();
        if (!all.length) continue;
        const r = await s.users.iago.client.patch(`/messages/${all[o.pick % all.length]}`, { stream_id: channels[o.channel]!, topic: o.topic, propagate_mode: o.mode });
        if (r.status !== 200) expect(r.json.msg).toBe("Nothing to change");
      } else {
        const all = await channelMessages();
        if (all.length) (await s.users.iago.client.delete(`/messages/${all[o.pick % all.length]}`)).success();
      }
    }
    for (const e of (await hamlet.get("/events", { queue_id: queue, last_event_id: -1, dont_block: true })).success().events) {
      if (e.type === "message" && e.message.type === "stream") known.set(e.message.id, { channel: e.message.stream_id, topic: e.message.subject });
      if (e.type === "delete_message") for (const id of e.message_ids) known.delete(id);
      if (e.type === "update_message" && (e.new_stream_id !== undefined || e.subject !== undefined)) {
        for (const id of e.message_ids) if (known.has(id)) known.set(id, { channel: e.new_stream_id ?? e.stream_id, topic: e.subject ?? e.orig_subject });
      }
    }
    for (const c of channels) {
      // a topic is named by its newest message's spelling (topics match case-insensitively)
      const newest = new Map<string, { name: string; max: number }>();
      for (const [id, m] of known) {
        if (m.channel !== c) continue;
        const k = m.topic.toLowerCase();
        if ((newest.get(k)?.max ?? -1) < id) newest.set(k, { name: m.topic, max: id });
      }
      const model = [...newest.values()].map((t) => `${t.name} ${t.max}`).sort();
      const fresh = (await hamlet.get(`/users/me/${c}/topics`)).success().topics.map((t: any) => `${t.name} ${t.max_id}`).sort();
      expect({ channel: c, topics: model, ops: log }).toEqual({ channel: c, topics: fresh, ops: log });
    }
  } finally {
    await s.close();
  }
}

describe("a channel's topics: follow the events, or list them again", () => {
  test("agree after random sends, moves and deletions", () => checkSequences(op, run), 120_000);
});
