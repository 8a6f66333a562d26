#!/usr/bin/env bun
// What the HTTP layer costs one GET /events re-poll (not part of npm test; prints figures): the whole
// server (Elysia app, authentication, parameters, the answer) called in-process with the request log
// at info (lines to /dev/null, as `parley serve` writes them), on a queue with one event waiting and
// dont_block, so every call is a full answer. No socket: Bun's HTTP parsing is outside the figure.
//   bun test/bench/request-path.ts [N]
import { closeSync, openSync, writeSync } from "node:fs";
import { startServer } from "../helpers/server";
import { withRequestLog } from "../../src/http/request-log";
import { createLog } from "../../src/lib/log";

const N = Number(process.argv[2] ?? 20_000);
const s = await startServer();
const devnull = openSync("/dev/null", "w");
(s.app as { log: unknown }).log = createLog({ level: "info", write: (t) => void writeSync(devnull, t) });
const peer = { requestIP: () => ({ address: "127.0.0.1" }) };
const fetch = withRequestLog(s.app, (request) => s.server.handle(request));
const u = s.users.hamlet;
const { queue_id } = (await u.client.post("/register", { event_types: ["message"] })).success();
(await u.client.post("/messages", { type: "direct", to: [s.users.othello.id], content: "one waiting event" })).success();
const url = `http://parley.test/api/v1/events?queue_id=${queue_id}&last_event_id=-1&dont_block=true`;
const headers = { authorization: "Basic " + btoa(`${u.email}:${u.apiKey}`) };
const once = async () => {
  const r = await fetch(new Request(url, { headers }), peer);
  if (r.status !== 200) throw new Error(`status ${r.status}: ${await r.text()}`);
  await r.text();
};
for (let i = 0; i < 3000; i++) await once(); // warm-up
const runs: number[] = [];
for (let round = 0; round < 7; round++) {
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await once();
  const cpu = process.cpuUsage(cpu0);
  runs.push(((cpu.user + cpu.system) * 1000) / N);
}
runs.sort((a, b) => a - b);
console.log(`GET /events re-poll, in-process with the request log at info: median ${runs[3]!.toFixed(0)} ns CPU per request (min ${runs[0]!.toFixed(0)}, max ${runs[6]!.toFixed(0)}; ${N} x 7)`);
await s.close();
(s.app.log as { flush(): void }).flush();
closeSync(devnull);
