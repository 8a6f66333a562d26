#!/usr/bin/env bun
// Baseline servers measured in the same run: `bun baselines.ts hello PORT` or `bun baselines.ts elysia-insert PORT DIR`.
import { Elysia } from "elysia";
import { createClient } from "@libsql/client";

const [kind, portText, dir] = process.argv.slice(2);
const port = Number(portText);

if (kind === "hello") {
  Bun.serve({ port, hostname: "127.0.0.1", reusePort: false, fetch: () => new Response("hello") });
} else {
  const db = createClient({ url: `file:${dir}/baseline.db`, concurrency: 1 });
  for (const p of ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"]) await db.execute(p);
  await db.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  new Elysia()
    .post("/insert", async ({ body }) => {
      const r = await db.execute({ sql: "INSERT INTO t (body) VALUES (?)", args: [String((body as any)?.content ?? "")] });
      return { id: Number(r.lastInsertRowid) };
    })
    .listen({ port, hostname: "127.0.0.1", reusePort: false });
}
console.log("ready");
