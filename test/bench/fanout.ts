#!/usr/bin/env bun
// The fan-out of one channel message to 1,000 parked long-polls (20 users × 50 queues, one form), in one
// process through EventHub (no HTTP): the 1,000 polls parked, publishEach as the send action calls it
// (each user's event with their flags, one message dict), then the 1,000 answers' JSON as GET /events
// writes it. Prints the
// median CPU per message and the part of it spent in JSON.stringify. Not part of npm test.
//   bun test/bench/fanout.ts [--rounds=N]
import { EventHub } from "../../src/events/hub";
import type { EventQueue } from "../../src/events/queue";
import { eventsAnswer } from "../../src/events/wire";

const ROUNDS = Number(process.argv.find((a) => a.startsWith("--rounds="))?.split("=")[1] ?? 200);
const hub = new EventHub(() => Date.now(), { idleSecs: 600, heartbeatMs: () => 600_000, emptyTopicName: () => "general chat" });
const queues: EventQueue[] = [];
for (let u = 1; u <= 20; u++) {
  for (let k = 0; k < 50; k++) {
    queues.push(hub.register({ userId: u, eventTypes: ["message"], applyMarkdown: false, clientGravatar: true, allPublicStreams: false, narrow: [], capabilities: {}, lifespanSecs: 0, clientName: "bench" }));
  }
}
const last = new Map(queues.map((q) => [q, -1]));

// time inside JSON.stringify (outermost calls only)
const stringify = JSON.stringify;
let inStringify = 0;
let depth = 0;
JSON.stringify = function (...args: Parameters<typeof JSON.stringify>) {
  if (depth++) return call(args);
  const t0 = performance.now();
  try {
    return call(args);
  } finally {
    inStringify += performance.now() - t0;
  }
} as typeof JSON.stringify;
function call(args: Parameters<typeof JSON.stringify>) {
  try {
    return stringify(...args);
  } finally {
    depth--;
  }
}

/** A message dict as messageDict makes it (both contents, the gravatar URL for clients that want it). */
const message = (i: number) => ({
  id: 1000 + i, sender_id: 3, recipient_id: 1004, timestamp: 1795948375, client: "website", subject: "broadcast", topic_links: [], is_me_message: false,
  reactions: [], submessages: [], sender_full_name: "Bench User 0", sender_email: "user0@bench.test", sender_realm_str: "", display_recipient: "bench",
  type: "stream", avatar_url: null, avatar_url_full: "https://secure.gravatar.com/avatar/0?d=identicon&version=1", stream_id: 2,
  rendered_content: `<p>broadcast ${i}, with the length of a chat line: how is it going?</p>`, raw_content: `broadcast ${i}, with the length of a chat line: how is it going?`,
});

async function round(i: number) {
  // parking the 1,000 polls is part of each message's cycle (a re-poll follows every answer)
  const c0 = process.cpuUsage();
  const s0 = inStringify;
  const polls = queues.map(async (q) => [q, await hub.poll(q, last.get(q)!, false)] as const);
  const m = message(i);
  hub.publishEach(Array.from({ length: 20 }, (_, u) => u + 1), (u) => ({ type: "message", message: m, flags: u === 1 ? ["read"] : [] }));
  let bytes = 0;
  for (const [q, batch] of await Promise.all(polls)) {
    bytes += eventsAnswer(batch, q.id, []).length;
    last.set(q, batch.firstId + batch.fragments.length - 1);
  }
  const c = process.cpuUsage(c0);
  return { cpuMs: (c.user + c.system) / 1000, stringifyMs: inStringify - s0, bytes };
}

for (let i = 0; i < 30; i++) await round(i); // warm-up
const runs: Awaited<ReturnType<typeof round>>[] = [];
for (let i = 0; i < ROUNDS; i++) runs.push(await round(100 + i));
const median = (k: "cpuMs" | "stringifyMs") => runs.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
const r3 = (n: number) => Math.round(n * 1000) / 1000;
console.log(
  JSON.stringify({ rounds: ROUNDS, cpu_ms_per_message: r3(median("cpuMs")), json_stringify_ms: r3(median("stringifyMs")), json_share: r3(median("stringifyMs") / median("cpuMs")), bytes_per_answer: runs[0]!.bytes / queues.length }),
);
