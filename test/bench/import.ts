#!/usr/bin/env bun
// The import scenario of `npm run bench` (--only=import), or alone: `bun test/bench/import.ts`.
// Writes a Slack export of 100,000 messages (50 people, 20 channels, direct and group messages,
// threads, reactions, mentions and links, over 200 days), then times `parley import slack` as its
// own process: messages per second (of wall-clock and of CPU time) and the process's peak RSS
// (VmHWM, read while it runs).
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeSlackZip, type Json } from "../import/slack-export";

const ROOT = join(import.meta.dir, "../..");

export function makeExport(path: string, messages: number) {
  const people = 50;
  const users: Json[] = Array.from({ length: people }, (_, i) => ({
    id: `U${i}`,
    name: `person${i}`,
    real_name: `Person ${i}`,
    deleted: i === people - 1,
    tz: "Europe/Berlin",
    is_owner: i === 0,
    is_primary_owner: i === 0,
    is_admin: i === 1,
    profile: { email: `person${i}@example.com` },
  }));
  const channels: Json[] = Array.from({ length: 20 }, (_, c) => ({
    id: `C${c}`,
    name: c === 0 ? "general" : `channel-${c}`,
    created: 1700000000,
    is_archived: false,
    members: c === 0 ? users.map((u) => u.id) : Array.from({ length: 8 }, (_, k) => `U${(c * 3 + k) % people}`),
    purpose: { value: `Channel ${c}` },
  }));
  const dms = Array.from({ length: 10 }, (_, d) => ({ id: `D${d}`, members: [`U${d}`, `U${d + 10}`] }));
  const days = 200;
  const perDay = Math.ceil(messages / days);
  const dayFiles: Record<string, Json[]> = {};
  let n = 0;
  for (let day = 0; day < days && n < messages; day++) {
    const date = new Date(Date.UTC(2024, 0, 1) + day * 86400_000).toISOString().slice(0, 10);
    for (let k = 0; k < perDay && n < messages; k++, n++) {
      const ts = `${1704067200 + day * 86400 + k * 10}.${String(n % 1_000_000).padStart(6, "0")}`;
      const dm = n % 20 === 0;
      const conv = dm ? `D${n % 10}` : channels[n % 20]!.name as string;
      const members = dm ? dms[n % 10]!.members : (channels[n % 20]!.members as string[]);
      const user = members[n % members.length]!;
      const m: Json = { type: "message", user, ts, text: text(n, members) };
      if (!dm && n % 10 === 1) m.thread_ts = ts;
      if (n % 10 === 3) m.reactions = [{ name: n % 20 === 3 ? "+1" : "tada", users: [members[0], members[1 % members.length]], count: 2 }];
      (dayFiles[`${conv}/${date}.json`] ??= []).push(m);
    }
  }
  writeSlackZip(path, { users, channels, dms, days: dayFiles });
}

function text(n: number, members: string[]): string {
  switch (n % 5) {
    case 0:
      return `Status update ${n}: *done* with _part ${n % 7}_, see <https://example.com/t/${n}|ticket ${n}>`;
    case 1:
      return `<@${members[(n + 1) % members.length]}> could you look at this? \`code ${n}\``;
    case 2:
      return `Plain message number ${n} about the quarterly plan and the new office`;
    case 3:
      return "```\nconst answer = " + n + ";\n```";
    default:
      return `~old~ idea ${n} for <#C${n % 20}|${n % 20 === 0 ? "general" : `channel-${n % 20}`}>`;
  }
}

export async function importScenario(messages = 100_000): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-import-"));
  try {
    const zip = join(dir, "slack.zip");
    makeExport(zip, messages);
    const dataDir = join(dir, "data");
    const t0 = performance.now();
    const p = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), "import", "slack", zip, "--data-dir", dataDir], { stdout: "pipe", stderr: "pipe", env: { ...process.env, PARLEY_CONFIG: "" } });
    let peakKiB = 0;
    const watch = setInterval(() => {
      try {
        peakKiB = Math.max(peakKiB, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/status`, "utf8"))![1]));
      } catch {}
    }, 20);
    const code = await p.exited;
    clearInterval(watch);
    const seconds = (performance.now() - t0) / 1000;
    // the machine is shared: CPU time says what the import itself cost, whatever else ran
    const cpu = p.resourceUsage()?.cpuTime;
    const cpuSeconds = cpu ? Number(cpu.total) / 1e6 : NaN;
    if (code !== 0) throw new Error(`import failed (${code}): ${await new Response(p.stderr).text()}`);
    const out = await new Response(p.stdout).text();
    const imported = Number(/([\d,]+) messages/.exec(out)![1]!.replace(/,/g, ""));
    return {
      messages: imported,
      seconds: Math.round(seconds * 100) / 100,
      messages_per_second: Math.round(imported / seconds),
      cpu_seconds: Math.round(cpuSeconds * 100) / 100,
      messages_per_cpu_second: Math.round(imported / cpuSeconds),
      peak_rss_mib: Math.round(peakKiB / 102.4) / 10,
      zip_mib: Math.round(statSync(zip).size / 104857.6) / 10,
      database_mib: Math.round(statSync(join(dataDir, "parley.db")).size / 104857.6) / 10,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const n = Number(process.argv.find((a) => a.startsWith("--messages="))?.slice(11) ?? 100_000);
  console.log(JSON.stringify(await importScenario(n)));
}
