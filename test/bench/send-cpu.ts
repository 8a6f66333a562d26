#!/usr/bin/env bun
// The server's CPU per channel message (20 subscribers, 16 senders at once), read from /proc/PID/stat:
// steadier than messages per second on a shared machine, where throughput moves with the other jobs.
// Alternates two environments for the server, to compare JavaScriptCore options (BUN_JSC_*) or the like.
//   bun test/bench/send-cpu.ts [--exe=PATH] [--rounds=N] [--messages=N] -- 'A=' 'B=BUN_JSC_x=1 BUN_JSC_y=2'
// Each variant is NAME=space-separated VAR=VALUE pairs (empty: the environment as it is). Linux only.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { closeApp, openApp } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { seedUsers } from "./seed";
import { basic } from "./http-api";

const ROOT = join(import.meta.dir, "../..");
const opt = (name: string, d: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=").slice(1).join("=") ?? d;
const exe = resolve(opt("exe", join(ROOT, "build/parley")));
const ROUNDS = Number(opt("rounds", "3"));
const MESSAGES = Number(opt("messages", "3000"));
const variants = process.argv.slice(process.argv.indexOf("--") + 1).map((v) => {
  const [name, ...rest] = v.split("=");
  const pairs = rest.join("=").trim();
  return { name: name!, env: Object.fromEntries(pairs ? pairs.split(/\s+/).map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]) : []) };
});
const ticks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(f[11]) + Number(f[12]); // utime + stime, clock ticks (1/100 s)
};

async function once(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "parley-send-cpu-"));
  const cfg = join(dir, "c.toml");
  writeFileSync(cfg, "[rate_limit]\nrequests_per_minute = 0\nunauthenticated_per_minute = 0\n");
  const penv = { ...process.env, ...env, PARLEY_CONFIG: cfg };
  const init = Bun.spawnSync([exe, "init", "--data-dir", dir, "--org-name", "B", "--email", "o@b.test", "--full-name", "O"], { env: penv });
  const owner = JSON.parse(init.stdout.toString());
  const app = await openApp(loadConfig({ dataDir: dir }, {}), { quiet: true });
  const users = await seedUsers(app, 20);
  await closeApp(app);
  const server = Bun.spawn([exe, "serve", "--data-dir", dir, "--port", "0"], { env: penv, stdout: "pipe", stderr: "ignore" });
  const reader = server.stdout.getReader();
  let out = "";
  while (!out.includes("listening on")) out += new TextDecoder().decode((await reader.read()).value);
  const base = `http://127.0.0.1:${out.match(/listening on 127\.0\.0\.1:(\d+)/)![1]}/api/v1`;
  const post = (auth: string, path: string, body: Record<string, string>) => fetch(base + path, { method: "POST", headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body) }).then((r) => r.json() as Promise<any>);
  const ownerAuth = basic(owner.email, owner.api_key);
  await post(ownerAuth, "/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "general" }]), principals: JSON.stringify(users.map((u) => u.id)) });
  const auths = users.map((u) => basic(u.email, u.key));
  let n = 0;
  const sender = async (i: number) => {
    while (n < MESSAGES) {
      const k = n++;
      const r = await post(auths[(i + k) % auths.length]!, "/messages", { type: "stream", to: "general", topic: `t${k % 10}`, content: `message ${k} with **bold** and :smile:` });
      if (r.result !== "success") throw new Error(JSON.stringify(r));
    }
  };
  await Promise.all(Array.from({ length: 16 }, (_, i) => sender(i))); // warm-up: the same again after
  n = 0;
  const t0 = ticks(server.pid);
  await Promise.all(Array.from({ length: 16 }, (_, i) => sender(i)));
  const cpuMs = (ticks(server.pid) - t0) * 10;
  const rss = Number(readFileSync(`/proc/${server.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1]) / 1024;
  server.kill("SIGTERM");
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
  return { usPerMessage: (cpuMs * 1000) / MESSAGES, rss };
}

const results: Record<string, number[]> = {};
for (let r = 0; r < ROUNDS; r++) {
  for (const v of variants) {
    const x = await once(v.env);
    (results[v.name] ??= []).push(x.usPerMessage);
    console.log(`${v.name} round ${r + 1}: ${x.usPerMessage.toFixed(0)} µs server CPU per message, RSS ${x.rss.toFixed(1)} MiB (load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})`);
  }
}
for (const [name, xs] of Object.entries(results)) {
  const s = [...xs].sort((a, b) => a - b);
  console.log(`${name}: median ${s[s.length >> 1]!.toFixed(0)} µs (${s.map((x) => x.toFixed(0)).join(", ")})`);
}
