#!/usr/bin/env bun
// The JavaScript heap's size under the soak's request mix, in one process (no sockets, no second
// process): the app in-process, a fixed number of requests (sends, fetches of 50 rendered messages,
// presence, edits, reactions, mark-as-read, registers, and five users' queues polled), sampling
// RSS and heapStats() every 100 requests. Prints the samples' median and max and the CPU per request,
// so JavaScriptCore's heap options (BUN_JSC_* in the environment) can be compared run against run.
// From source the heap also holds every module's source and parse; compiled, it is closer to the
// executable's (the checkpoint then runs in the writer: its worker is not an entry point there):
//   bun build --compile test/bench/heap-probe.ts --outfile /tmp/heap-probe && /tmp/heap-probe [REQUESTS] [--types] [--snapshot=FILE]
// Not part of npm test.
//   bun test/bench/heap-probe.ts [REQUESTS] [--types] [--snapshot=FILE] [--kind=NAME]
import { heapStats } from "bun:jsc";
import { startServer } from "../helpers/server";

const N = Number(process.argv[2] ?? 12_000);
const s = await startServer({ realClock: true });
const cast = [s.users.iago, s.users.hamlet, s.users.othello, s.users.cordelia, s.users.desdemona];
const channels: number[] = [];
for (const name of ["general", "random", "files"]) {
  (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: cast.map((u) => u.id) })).success();
  channels.push((await s.users.iago.client.get("/get_stream_id", { stream: name })).success().stream_id);
}
const queues = await Promise.all(cast.map(async (u) => ({ u, id: (await u.client.post("/register", { apply_markdown: true })).success().queue_id as string, last: -1 })));
const sent: number[] = [];
let k = 0;
const pick = <T>(xs: readonly T[]) => xs[k % xs.length]!;
// --kind=NAME: that kind of request alone (with BUN_JSC_logGC=1, the "bytes allocated this cycle" lines
// summed over the run give what one request of it allocates)
const KINDS: Record<string, number> = { send: 0, fetch: 6, presence: 10, edit: 13, reaction: 15, read: 16, register: 17, poll: 18 };
const only = process.argv.find((a) => a.startsWith("--kind="))?.slice(7);
let warm = false; // the warm-up is the whole mix (the channels fill up)
if (only !== undefined && !(only in KINDS)) throw new Error(`--kind: one of ${Object.keys(KINDS).join(", ")}`);
async function one(i: number) {
  const u = cast[i % cast.length]!;
  const r = only !== undefined && warm ? KINDS[only]! : i % 20;
  if (r < 6) sent.push((await u.client.post("/messages", { type: "stream", to: pick(channels), topic: `topic ${i % 12}`, content: `probe ${i}: hello @**${pick(cast).email}** :smile: **bold** \`code\`` })).success().id);
  else if (r < 10) (await u.client.get("/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow: [{ operator: "channel", operand: pick(channels) }], apply_markdown: true })).success();
  else if (r < 13) (await u.client.post("/users/me/presence", { status: "active", new_user_input: true, ping_only: false, slim_presence: true })).success();
  else if (r < 15 && sent.length) (await u.client.patch(`/messages/${sent.at(-1)}`, { content: `edited ${i}` })).status;
  else if (r < 16 && sent.length) await u.client.post(`/messages/${sent[i % sent.length]}/reactions`, { emoji_name: pick(["smile", "heart", "tada", "octopus"]) });
  else if (r < 17) (await u.client.post("/mark_all_as_read")).success();
  else if (r < 18) {
    const q = (await u.client.post("/register", { event_types: ["message"], fetch_event_types: ["realm_user", "subscription", "message"] })).success();
    (await u.client.delete("/events", { queue_id: q.queue_id })).success();
  } else
    for (const q of queues) {
      const got = (await q.u.client.get("/events", { queue_id: q.id, last_event_id: q.last, dont_block: true })).success();
      for (const e of got.events) q.last = Math.max(q.last, e.id);
    }
  k++;
  if (sent.length > 200) sent.splice(0, 100);
}
Bun.gc(true);
const before = heapStats();
for (let i = 0; i < 1000; i++) await one(i); // warm-up
warm = true;
const rss: number[] = [];
const heap: number[] = [];
const cpu0 = process.cpuUsage();
for (let i = 0; i < N; i++) {
  await one(i);
  if (i % 100 === 0) {
    const h = heapStats();
    rss.push(process.memoryUsage.rss() / 1048576);
    heap.push((h.heapCapacity + h.extraMemorySize) / 1048576);
  }
}
const cpu = process.cpuUsage(cpu0);
const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[s.length >> 1]!.toFixed(1)}, max ${s.at(-1)!.toFixed(1)}`;
};
const env = Object.entries(process.env).filter(([k]) => k.startsWith("BUN_JSC_")).map(([k, v]) => `${k}=${v}`).join(" ") || "(defaults)";
console.log(`${env}: RSS MiB ${stat(rss)}; heap capacity + extra MiB ${stat(heap)}; ${(((cpu.user + cpu.system) / N) | 0)} µs CPU per request (${N})`);
// --types: what the requests left alive (after a full collection), beside what start-up had
if (process.argv.includes("--types")) {
  Bun.gc(true);
  const h = heapStats();
  const grown = Object.entries(h.objectTypeCounts).map(([t, n]) => [t, n - (before.objectTypeCounts[t] ?? 0)] as const).sort((a, b) => b[1] - a[1]);
  console.log(`live after a full collection: ${(before.heapSize / 1048576).toFixed(1)} -> ${(h.heapSize / 1048576).toFixed(1)} MiB, outside the heap ${(before.extraMemorySize / 1048576).toFixed(1)} -> ${(h.extraMemorySize / 1048576).toFixed(1)} MiB; most grown: ${grown.slice(0, 12).map(([t, n]) => `${t} +${n}`).join(", ")}`);
}
// --snapshot=FILE: a V8-format heap snapshot of what is left (open it in Chrome's DevTools, Memory tab)
const snap = process.argv.find((a) => a.startsWith("--snapshot="))?.slice(11);
if (snap) await Bun.write(snap, Bun.generateHeapSnapshot("v8"));
await s.close();
