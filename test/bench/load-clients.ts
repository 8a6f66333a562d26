#!/usr/bin/env bun
// What the load process's HTTP client costs a server (not part of npm test; prints figures): a Bun.serve
// hello world in its own process answers 1,000 connections 20 times over, as a broadcast's re-polls
// come, through fetch and through the lean client (raw-http.ts), alternated. Prints how many TCP
// connections each opened, and the server's and the client's CPU per request. Under 1,000 concurrent
// requests fetch reuses only some of its connections, so the server pays for an accept and a close on
// most requests, which 1,000 real clients holding their keep-alive connections would not cost it.
//   BUN_CONFIG_MAX_HTTP_REQUESTS=20000 bun test/bench/load-clients.ts   (as run.ts runs its load processes)
import { readdirSync, readFileSync } from "node:fs";
import { RawHttp } from "./raw-http";

if (process.argv[2] === "serve") {
  const ports = new Set<number>();
  let n = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request, srv) {
      if (request.url.endsWith("/count")) {
        const counted = { requests: n, connections: ports.size };
        ports.clear();
        n = 0;
        return Response.json(counted);
      }
      n++;
      ports.add(srv.requestIP(request)!.port);
      return new Response('{"result":"success","msg":"","events":[]}', { headers: { "content-type": "application/json" } });
    },
  });
  console.log(server.port);
} else {
  const child = Bun.spawn([process.execPath, import.meta.path, "serve"], { stdout: "pipe" });
  const port = Number(new TextDecoder().decode((await child.stdout.getReader().read()).value).trim());
  const base = `http://127.0.0.1:${port}`;
  const serverCpuMs = () => readdirSync(`/proc/${child.pid}/task`).reduce((n, t) => n + Number(readFileSync(`/proc/${child.pid}/task/${t}/schedstat`, "utf8").split(" ")[0]), 0) / 1e6;
  const headers = { authorization: "Basic dXNlcjprZXk=" };
  const path = "/api/v1/events?queue_id=x&last_event_id=1";
  const ROUNDS = 20;
  for (const mode of ["fetch", "lean", "fetch", "lean"] as const) {
    const clients = Array.from({ length: 1000 }, () => RawHttp.to(base));
    const one = (i: number) => (mode === "lean" ? clients[i]!.request("GET", path, headers).then((r) => r.body) : fetch(base + path, { headers }).then((r) => r.text()));
    await Promise.all(clients.map((_, i) => one(i))); // the connections opened
    await fetch(base + "/count");
    const s0 = serverCpuMs();
    const c0 = process.cpuUsage();
    for (let round = 0; round < ROUNDS; round++) await Promise.all(clients.map((_, i) => one(i)));
    const c = process.cpuUsage(c0);
    const server = serverCpuMs() - s0;
    const counted = (await (await fetch(base + "/count")).json()) as { requests: number; connections: number };
    const perRequest = (ms: number) => Math.round((ms * 1000 * 10) / counted.requests) / 10;
    console.log(JSON.stringify({ client: mode, requests: counted.requests, connections: counted.connections, server_us_per_request: perRequest(server), client_us_per_request: perRequest((c.user + c.system) / 1000) }));
    for (const client of clients) client.close();
  }
  child.kill();
  await child.exited;
}
