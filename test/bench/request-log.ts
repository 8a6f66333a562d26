#!/usr/bin/env bun
// What the request log costs a request (not part of npm test; prints figures): the same trivial handler
// called in-process plain, and wrapped by http/request-log.ts with the log at info (lines written to
// /dev/null, as to a file or the journal) and at warn (no request lines). Usage: bun test/bench/request-log.ts [N]
import { closeSync, openSync, writeSync } from "node:fs";
import type { App } from "../../src/app";
import { withRequestLog } from "../../src/http/request-log";
import { noteUser } from "../../src/http/request-log";
import { createLog, type LogLevel } from "../../src/lib/log";

const N = Number(process.argv[2] ?? 300_000);
const devnull = openSync("/dev/null", "w");
const server = { requestIP: () => ({ address: "127.0.0.1" }) };
const handler = async (request: Request) => {
  noteUser(request, 42); // what authentication does
  return new Response("{}", { status: 200 });
};
const appWith = (level: LogLevel) =>
  ({ log: createLog({ level, write: (t) => void writeSync(devnull, t) }), config: { server: { trusted_proxies: [], tls_cert: "" } } }) as unknown as App;

async function run(name: string, fetch: (r: Request, s: typeof server) => Promise<Response>): Promise<number> {
  const headers = { authorization: "Basic eDp5", "content-type": "application/x-www-form-urlencoded" };
  for (let i = 0; i < 20_000; i++) await fetch(new Request("http://127.0.0.1:9991/api/v1/messages", { method: "POST", headers }), server); // warm-up
  await new Promise((r) => setImmediate(r));
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    await fetch(new Request("http://127.0.0.1:9991/api/v1/messages", { method: "POST", headers }), server);
    if (i % 64 === 63) await new Promise((r) => setImmediate(r)); // let gathered lines be written, as a server's turns do
  }
  const ns = ((performance.now() - t0) * 1e6) / N;
  console.log(`${name.padEnd(34)} ${ns.toFixed(0).padStart(6)} ns/request`);
  return ns;
}

const results: Record<string, number> = {};
for (let round = 0; round < 5; round++) {
  results.plain = Math.min(results.plain ?? Infinity, await run("plain handler", (r) => handler(r)));
  results.info = Math.min(results.info ?? Infinity, await run("request log at info (/dev/null)", withRequestLog(appWith("info"), (r) => handler(r))));
  results.warn = Math.min(results.warn ?? Infinity, await run("request log at warn (no lines)", withRequestLog(appWith("warn"), (r) => handler(r))));
}
closeSync(devnull);
console.log(
  `best of 5: plain ${results.plain!.toFixed(0)} ns, +${(results.info! - results.plain!).toFixed(0)} ns per request at info, +${(results.warn! - results.plain!).toFixed(0)} ns at warn`,
);
console.log(JSON.stringify({ n: N, ns_per_request: results }));
