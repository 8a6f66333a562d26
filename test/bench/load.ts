#!/usr/bin/env bun
// The load process: runs one scenario against a server on loopback and prints one JSON line.
// Usage: bun test/bench/load.ts '<scenario json>'
import { summarize } from "./stats";
import { RawHttp } from "./raw-http";

type Http = { method: string; path: string; headers?: Record<string, string>; body?: string | ((i: number) => string) };

interface Scenario {
  kind: "http" | "events-latency" | "held-polls" | "broadcast";
  base: string;
  concurrency?: number;
  durationMs?: number;
  /** http: requests run this long first without being counted (the server's JIT compiles the path meanwhile) */
  warmupMs?: number;
  requests?: Http[]; // round-robin per worker
  auths?: string[]; // Authorization headers, one per worker (round-robin)
  // events-latency
  sender?: { auth: string; body: string };
  watcher?: { auth: string };
  idle?: { auths: string[]; count: number };
  samples?: number;
  // broadcast: `perUser` queues for each of `auths`, each with a pending long-poll
  watchers?: { auths: string[]; perUser: number };
  // held-polls
  polls?: { auths: string[]; count: number };
  holdMs?: number;
  /** how the load process speaks HTTP (http and broadcast): fetch, or one lean keep-alive socket per worker or long-poll (raw-http.ts) */
  client?: "fetch" | "raw";
}

const scenario: Scenario = JSON.parse(process.argv[2]!);

async function request(base: string, r: Http, auth: string | undefined, i: number): Promise<Response> {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  if (auth) headers.authorization = auth;
  let body: string | undefined;
  if (r.body !== undefined) {
    body = typeof r.body === "function" ? r.body(i) : r.body;
    headers["content-type"] ??= "application/x-www-form-urlencoded";
  }
  return fetch(base + r.path, { method: r.method, headers, body });
}

function rawRequest(raw: RawHttp, r: Http, auth: string | undefined, i: number) {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  if (auth) headers.authorization = auth;
  const body = r.body === undefined ? undefined : typeof r.body === "function" ? r.body(i) : r.body;
  if (body !== undefined) headers["content-type"] ??= "application/x-www-form-urlencoded";
  return raw.request(r.method, r.path, headers, body);
}

async function httpScenario(s: Scenario) {
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now() + (s.warmupMs ?? 0);
  const until = start + (s.durationMs ?? 5000);
  let n = 0;
  await Promise.all(
    Array.from({ length: s.concurrency ?? 32 }, async (_, w) => {
      const auth = s.auths?.[w % s.auths.length];
      const raw = s.client === "raw" ? RawHttp.to(s.base) : null;
      while (performance.now() < until) {
        const r = s.requests![n % s.requests!.length]!;
        const i = n++;
        const t0 = performance.now();
        const counted = t0 >= start;
        try {
          let status: number;
          if (raw) status = (await rawRequest(raw, r, auth, i)).status;
          else {
            const res = await request(s.base, r, auth, i);
            await res.arrayBuffer();
            status = res.status;
          }
          if (status >= 400) errors++;
          else if (counted) latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
      raw?.close();
    }),
  );
  return { ...summarize(latencies, performance.now() - start), errors };
}

async function register(base: string, auth: string, eventTypes: string[]) {
  const res = await fetch(`${base}/api/v1/register`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ event_types: JSON.stringify(eventTypes), fetch_event_types: "[]" }),
  });
  const body = (await res.json()) as any;
  if (body.result !== "success") throw new Error(`register failed: ${JSON.stringify(body)}`);
  return body.queue_id as string;
}

/** Holds a long-poll open on a queue forever (re-polling after each answer) until stopped. */
function holdPoll(base: string, auth: string, queueId: string, stop: { done: boolean }, onEvents?: (events: any[]) => void, client: "fetch" | "raw" = "fetch") {
  let last = -1;
  const raw = client === "raw" ? RawHttp.to(base) : null;
  const headers = { authorization: auth };
  const loop = async () => {
    while (!stop.done) {
      try {
        const path = `/api/v1/events?queue_id=${queueId}&last_event_id=${last}`;
        const body = (raw ? JSON.parse((await raw.request("GET", path, headers)).body) : await (await fetch(base + path, { headers })).json()) as any;
        if (body.result !== "success") throw new Error(body.msg); // back off instead of spinning
        for (const e of body.events ?? []) last = Math.max(last, e.id);
        if (body.events?.length) onEvents?.(body.events);
        // the lean client's re-poll waits until the answers that came in together are read: 1,000
        // separate clients would not each wait for the others' re-polls to be written first
        if (raw) await new Promise((r) => setImmediate(r));
      } catch {
        await Bun.sleep(50);
      }
    }
  };
  return loop();
}

async function eventsLatency(s: Scenario) {
  const stop = { done: false };
  const idleQueues = await Promise.all(Array.from({ length: s.idle!.count }, (_, i) => register(s.base, s.idle!.auths[i % s.idle!.auths.length]!, ["message"])));
  const idleLoops = idleQueues.map((q, i) => holdPoll(s.base, s.idle!.auths[i % s.idle!.auths.length]!, q, stop));
  const watchQueue = await register(s.base, s.watcher!.auth, ["message"]);
  let waiting: ((t: number) => void) | null = null;
  const watchLoop = holdPoll(s.base, s.watcher!.auth, watchQueue, stop, () => waiting?.(performance.now()));
  await Bun.sleep(500);
  const latencies: number[] = [];
  const start = performance.now();
  for (let i = 0; i < (s.samples ?? 200); i++) {
    await Bun.sleep(5); // let the watcher re-park its long-poll
    const got = new Promise<number>((r) => (waiting = r));
    const t0 = performance.now();
    const res = await fetch(`${s.base}/api/v1/messages`, {
      method: "POST",
      headers: { authorization: s.sender!.auth, "content-type": "application/x-www-form-urlencoded" },
      body: s.sender!.body.replace("{i}", String(i)),
    });
    await res.arrayBuffer();
    const t1 = await Promise.race([got, Bun.sleep(2000).then(() => NaN)]);
    if (!Number.isNaN(t1)) latencies.push(t1 - t0);
  }
  stop.done = true;
  void idleLoops;
  void watchLoop;
  return { ...summarize(latencies, performance.now() - start), idle_queues: s.idle!.count };
}

/**
 * One channel message to every pending long-poll of its subscribers (20 users × 50 queues): for each
 * send, the time from its start until each queue's long-poll answered with it, every queue a sample.
 */
async function broadcast(s: Scenario) {
  const stop = { done: false };
  const { auths, perUser } = s.watchers!;
  const owners = auths.flatMap((a) => Array.from({ length: perUser }, () => a));
  const queues: string[] = [];
  for (let i = 0; i < owners.length; i += 200) queues.push(...(await Promise.all(owners.slice(i, i + 200).map((a) => register(s.base, a, ["message"])))));
  const sentAt: number[] = [];
  const latencies: number[] = [];
  let got = 0;
  let allGot: (() => void) | null = null;
  /** per send, when its last queue had its answer: p99 over all answers is the few slowest sends' tail */
  const lastAnswer: number[] = [];
  queues.forEach((q, i) =>
    void holdPoll(s.base, owners[i]!, q, stop, (events) => {
      const now = performance.now();
      for (const e of events) {
        const n = Number(/broadcast (\d+)/.exec(e.message?.content ?? "")?.[1]);
        if (e.type !== "message" || !(sentAt[n]! > 0)) continue;
        latencies.push(now - sentAt[n]!);
        if (++got === queues.length) {
          lastAnswer.push(now - sentAt[n]!);
          allGot?.();
        }
      }
    }, s.client ?? "raw"),
  );
  await Bun.sleep(1000);
  console.log(JSON.stringify({ phase: "sampling" })); // the orchestrator reads the server's CPU time here and at the end
  const start = performance.now();
  // the load process's own CPU: it parses the 1,000 answers and sends the 1,000 re-polls on the same
  // cores as the server, inside the measured latency
  const cpu0 = process.cpuUsage();
  let lost = 0;
  for (let i = 0; i < (s.samples ?? 20); i++) {
    await Bun.sleep(100); // every long-poll re-parks after the previous answer
    got = 0;
    const all = new Promise<void>((r) => (allGot = r));
    sentAt[i] = performance.now();
    const res = await fetch(`${s.base}/api/v1/messages`, {
      method: "POST",
      headers: { authorization: s.sender!.auth, "content-type": "application/x-www-form-urlencoded" },
      body: s.sender!.body.replace(/\{i\}|%7Bi%7D/, String(i)), // (form-encoded: the braces are escaped)
    });
    const sent = (await res.json()) as any;
    if (sent.result !== "success") throw new Error(`send failed: ${JSON.stringify(sent)}`);
    await Promise.race([all, Bun.sleep(3000)]);
    lost += queues.length - got;
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ phase: "sampled" }));
  stop.done = true;
  const sends = s.samples ?? 20;
  return { ...summarize(latencies, performance.now() - start), queues: queues.length, lost, sends, client: s.client ?? "raw", last_answer: summarize(lastAnswer, 1), load_cpu_ms_per_send: Math.round((cpu.user + cpu.system) / sends / 100) / 10 };
}

async function heldPolls(s: Scenario) {
  const stop = { done: false };
  const queues: string[] = [];
  const batch = 200;
  for (let i = 0; i < s.polls!.count; i += batch) {
    const n = Math.min(batch, s.polls!.count - i);
    queues.push(...(await Promise.all(Array.from({ length: n }, (_, j) => register(s.base, s.polls!.auths[(i + j) % s.polls!.auths.length]!, ["message"])))));
  }
  // tell the orchestrator the queues exist (it reads RSS before polls connect)
  console.log(JSON.stringify({ phase: "registered", queues: queues.length }));
  queues.forEach((q, i) => void holdPoll(s.base, s.polls!.auths[i % s.polls!.auths.length]!, q, stop));
  await Bun.sleep(s.holdMs ?? 5000);
  console.log(JSON.stringify({ phase: "held", polls: queues.length }));
  await Bun.sleep(2000);
  stop.done = true;
  return { held: queues.length };
}

const kinds = { http: httpScenario, "events-latency": eventsLatency, "held-polls": heldPolls, broadcast };
const result = await kinds[scenario.kind](scenario);
console.log(JSON.stringify({ phase: "result", ...result }));
process.exit(0);
