// Upgrades: a data dir written by an older Parley migrates on start with nothing lost.
//
// For every migration k in MIGRATIONS (so a new migration is covered without touching this file), a
// database is built at schema k (migrations 1..k applied) and filled with representative data through SQL
// valid at that stage: the rows of a server populated through the API (users, groups, channels,
// subscriptions, messages with reactions, edits, uploads and thumbnails, custom emoji, unread and starred
// state, topics muted, drafts, scheduled messages, statuses, alert words, snippets, profile fields ...),
// restricted to the tables and columns that exist at stage k. The seed takes the tables of the first
// migration: later migrations have so far only added indexes over them, which they build from those rows
// (a migration that moves data out of a base table will fail here until the seed takes its stage).
// Tables a later migration derives from the base rows (unread floors and ranges) are made by those
// migrations: the stage-1 database goes through every migration's conversion; a stage-k database shows
// that rows written at stage k survive the migrations after it (what an old Parley's own code kept in
// its derived tables cannot be written here without that code).
// Then it migrates to the newest schema, and:
//   * every seeded row is still there, column for column (for the columns that still exist);
//   * Parley opened on that data dir answers what the populated server answers: messages with their
//     flags and reactions, /register's state (unread counts included), files and thumbnails.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Database from "libsql";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeApp, openApp, type App } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { createServer } from "../../src/server";
import { openDb } from "../../src/store/db";
import { migrate } from "../../src/store/migrate";
import { MIGRATIONS } from "../../src/store/migrations";
import { raiseUnreadFloorsNow } from "../../src/actions/messages/unread-floors";
import { uploadsOf } from "../../src/uploads/runtime";
import { Client, startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { sendDm, sendStream } from "../helpers/messages";
import { makePng, upload } from "../helpers/uploads";

let s: TestServer;
const scratch = mkdtempSync(join(tmpdir(), "parley-upgrade-"));
const VERSIONS = MIGRATIONS.map((m) => m.version).sort((a, b) => a - b);
const LATEST = VERSIONS.at(-1)!;
const uploadUrls: string[] = [];

beforeAll(async () => {
  s = await startServer();
  const c = (n: CastName) => s.users[n].client;
  const general = await createChannel(s, "iago", "general", { subscribers: ["hamlet", "othello", "cordelia", "polonius"] });
  await createChannel(s, "hamlet", "castle", { subscribers: ["othello"], invite_only: true } as any);
  const png = await upload(s, "hamlet", "tower.png", await makePng(900, 600), "image/png");
  const txt = await upload(s, "hamlet", "notes.txt", "a handkerchief", "text/plain");
  uploadUrls.push(png.url, txt.url);
  (await c("iago").post("/realm/emoji/party_owl", { file: new File([(await makePng(64, 64, "#884400")) as BlobPart], "owl.png") })).success();
  const ids: number[] = [];
  for (let i = 0; i < 6; i++) ids.push(await sendStream(s, i % 2 ? "othello" : "hamlet", "general", i < 3 ? "plans" : "news", `message ${i} for @**Cordelia, Lear's daughter**`));
  ids.push(await sendStream(s, "hamlet", "general", "plans", `a picture [tower.png](${png.url}) and [notes](${txt.url})`));
  ids.push(await sendStream(s, "hamlet", "castle", "secrets", "only the subscribers see this"));
  ids.push(await sendDm(s, "othello", ["hamlet"], "a direct word"));
  ids.push(await sendDm(s, "cordelia", ["hamlet", "othello"], "a group word"));
  await uploadsOf(s.app).thumbnails.idle();
  // some floors raised (rows below them), then more rows in the tails, some read on each side
  await raiseUnreadFloorsNow(s.app, Object.values(s.users).map((u) => u.id));
  ids.push(await sendStream(s, "othello", "general", "news", "after the floors moved"));
  ids.push(await sendStream(s, "iago", "general", "plans", "one more"));
  (await c("hamlet").post("/messages/flags", { messages: [ids[1], ids[9]], op: "add", flag: "read" })).success();
  (await c("cordelia").post("/messages/flags", { messages: [ids[0], ids[10]], op: "add", flag: "read" })).success();
  (await c("hamlet").post("/messages/flags", { messages: [ids[2]], op: "add", flag: "starred" })).success();
  (await c("othello").post(`/messages/${ids[0]}/reactions`, { emoji_name: "heart" })).success();
  (await c("cordelia").post(`/messages/${ids[0]}/reactions`, { emoji_name: "party_owl", reaction_type: "realm_emoji" } as any)).success();
  (await c("hamlet").patch(`/messages/${ids[4]}`, { content: "message 4, edited" })).success();
  (await c("hamlet").post("/user_topics", { stream_id: general, topic: "news", visibility_policy: 1 })).success();
  (await c("hamlet").post("/drafts", { drafts: [{ type: "stream", to: [general], topic: "plans", content: "half a thought", timestamp: 1_767_000_000 }] })).success();
  (await c("hamlet").post("/scheduled_messages", { type: "stream", to: general, topic: "later", content: "tomorrow", scheduled_delivery_timestamp: s.clock.now() / 1000 + 86_400 } as any)).success();
  (await c("othello").post("/users/me/status", { status_text: "on the ship" })).success();
  (await c("hamlet").post("/users/me/alert_words", { alert_words: ["ghost"] })).success();
  (await c("hamlet").post(`/users/me/muted_users/${s.users.polonius.id}`)).success();
  (await c("hamlet").post("/saved_snippets", { title: "Greeting", content: "Well met" })).success();
  (await c("iago").post("/user_groups/create", { name: "Players", description: "the cast", members: [s.users.hamlet.id, s.users.othello.id] })).success();
  const field = (await c("iago").post("/realm/profile_fields", { name: "Pronouns", field_type: 1 })).success().id;
  (await c("hamlet").patch("/users/me/profile_data", { data: [{ id: field, value: "he/him" }] })).success();
  // a search indexes whatever is pending, so the copied index watermark covers every message
  (await c("hamlet").get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "search", operand: "word" }] })).success();
}, 60_000);

afterAll(async () => {
  await s.close();
  rmSync(scratch, { recursive: true, force: true });
});

type TableInfo = { name: string; columns: string[] };
const FTS_SHADOW = /_(data|idx|content|docsize|config)$/;

/** Ordinary tables of a database (no SQLite internals, no full-text tables or their storage, no migration log). */
function tablesOf(db: any): TableInfo[] {
  const rows = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid").all() as { name: string; sql: string }[];
  const virtual = rows.filter((r) => /^CREATE\s+VIRTUAL/i.test(r.sql)).map((r) => r.name);
  return rows
    .filter((r) => !r.name.startsWith("sqlite_") && r.name !== "schema_migrations" && !virtual.includes(r.name) && !virtual.some((v) => r.name.startsWith(`${v}_`) && FTS_SHADOW.test(r.name)))
    .map((r) => ({ name: r.name, columns: (db.prepare(`SELECT name FROM pragma_table_info('${r.name}')`).all() as { name: string }[]).map((c) => c.name) }));
}

/** Every row of a table as an object over the given columns, as sorted JSON text (a multiset). */
function rowsOf(db: any, table: string, columns: string[]): string[] {
  const list = columns.map((c) => `"${c}"`).join(", ");
  return (db.prepare(`SELECT ${list} FROM "${table}"`).all() as object[]).map((r) => JSON.stringify(r)).sort();
}

/** The same rows over fewer columns (a later migration dropped some). */
const project = (rows: string[], kept: string[]) => rows.map((r) => JSON.stringify(Object.fromEntries(kept.map((c) => [c, JSON.parse(r)[c]])))).sort();

/** Tables created by the first migration: what the seed fills at every stage. */
async function baseTables(): Promise<string[]> {
  const path = join(scratch, "base.db");
  const db = await openDb(`file:${path}`);
  await migrate(db, MIGRATIONS.filter((m) => m.version === VERSIONS[0]));
  db.close();
  const raw = new Database(path);
  try {
    return tablesOf(raw).map((t) => t.name);
  } finally {
    raw.close();
  }
}

/**
 * Fills a database at some stage with the populated server's rows: each seed table that exists there,
 * over the columns that exist there. Triggers are set aside while loading (the rows already hold what
 * they would add), id counters carried over, full-text indexes rebuilt from their content.
 */
async function seed(path: string, seedTables: string[]): Promise<Map<string, string[]>> {
  const source = new Database(join(s.dataDir, "parley.db"));
  const target = new Database(path);
  const seeded = new Map<string, string[]>();
  try {
    const sourceTables = new Map(tablesOf(source).map((t) => [t.name, t.columns]));
    const triggers = target.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger'").all() as { sql: string }[];
    target.exec("PRAGMA foreign_keys = OFF");
    target.exec("BEGIN");
    for (const t of target.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as { name: string }[]) target.exec(`DROP TRIGGER "${t.name}"`);
    for (const table of tablesOf(target)) {
      const from = sourceTables.get(table.name);
      if (!seedTables.includes(table.name) || !from) continue;
      const columns = table.columns.filter((c) => from.includes(c));
      const list = columns.map((c) => `"${c}"`).join(", ");
      // OR REPLACE: rows a migration put in itself (a counter, a watermark) give way to the server's
      const insert = target.prepare(`INSERT OR REPLACE INTO "${table.name}" (${list}) VALUES (${columns.map(() => "?").join(", ")})`);
      for (const row of source.prepare(`SELECT ${list} FROM "${table.name}"`).raw(true).all() as unknown[][]) insert.run(row);
      seeded.set(table.name, columns);
    }
    for (const { name, seq } of source.prepare("SELECT name, seq FROM sqlite_sequence").all() as { name: string; seq: number }[]) {
      if (seeded.has(name)) target.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?").run([seq, name]);
    }
    for (const { name } of target.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").all() as { name: string }[]) {
      target.exec(`INSERT INTO "${name}" ("${name}") VALUES ('rebuild')`);
    }
    for (const { sql } of triggers) target.exec(sql);
    target.exec("COMMIT");
    target.exec("PRAGMA foreign_keys = ON");
    const problems = target.prepare("PRAGMA foreign_key_check").all();
    expect(problems).toEqual([]);
  } finally {
    source.close();
    target.close();
  }
  return seeded;
}

/** What clients see: the answers compared between the populated server and an upgraded copy. */
async function observe(app: App): Promise<Record<string, unknown>> {
  const server = createServer(app);
  const out: Record<string, unknown> = {};
  for (const name of ["hamlet", "othello", "cordelia", "polonius", "iago"] as CastName[]) {
    const c = new Client(server, { email: s.users[name].email, apiKey: s.users[name].apiKey });
    out[`${name} messages`] = (await c.get("/messages", { anchor: "newest", num_before: 1000, num_after: 0 })).success().messages;
    const state = (await c.post("/register", {})).success();
    for (const volatile of ["queue_id", "last_event_id", "server_timestamp", "presences", "presence_last_update_id"]) delete state[volatile];
    out[`${name} register`] = state;
    out[`${name} attachments`] = (await c.get("/attachments")).success();
    out[`${name} search`] = (await c.get("/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow: [{ operator: "search", operand: "message" }] })).success().messages.map((m: any) => m.id);
  }
  for (const url of uploadUrls) {
    const file = await server.handle(new Request(`http://parley.test${url}`, { headers: { authorization: "Basic " + btoa(`${s.users.hamlet.email}:${s.users.hamlet.apiKey}`) } }));
    out[url] = [file.status, Buffer.from(await file.arrayBuffer()).toString("base64")];
  }
  const thumb = uploadUrls[0]!.replace("/user_uploads/", "/user_uploads/thumbnail/") + "/840x560.webp";
  const t = await server.handle(new Request(`http://parley.test${thumb}`, { headers: { authorization: "Basic " + btoa(`${s.users.hamlet.email}:${s.users.hamlet.apiKey}`) } }));
  out[thumb] = [t.status, Buffer.from(await t.arrayBuffer()).toString("base64")];
  return out;
}

describe("upgrading a data dir written at each earlier schema", () => {
  let expected: Record<string, unknown>;
  let seedTables: string[];
  beforeAll(async () => {
    seedTables = await baseTables();
    expected = await observe(s.app);
    // the populated server's answers are worth comparing: files served, unread and starred state present
    const files = Object.entries(expected).filter(([k]) => k.startsWith("/user_uploads/"));
    expect(files.map(([, v]) => (v as unknown[])[0])).toEqual([200, 200, 200]);
    const hamlet = expected["hamlet register"] as any;
    expect(hamlet.unread_msgs.count).toBeGreaterThan(3);
    expect(hamlet.starred_messages).toHaveLength(1);
    expect((expected["hamlet messages"] as any[]).some((m) => m.reactions.length === 2)).toBe(true);
  });

  for (const k of VERSIONS) {
    test(`a database at schema ${k} (of ${LATEST}) with data in it migrates to the newest with nothing lost`, async () => {
      const dir = join(scratch, `stage-${k}`);
      mkdirSync(dir);
      const path = join(dir, "parley.db");
      const db = await openDb(`file:${path}`);
      expect(await migrate(db, MIGRATIONS.filter((m) => m.version <= k))).toEqual(VERSIONS.filter((v) => v <= k));
      db.close();
      const seeded = await seed(path, seedTables);
      expect([...seeded.keys()]).toEqual(expect.arrayContaining(["users", "streams", "subscriptions", "messages", "user_messages", "reactions", "attachments", "realm_emoji", "drafts"]));
      const raw = new Database(path);
      const before = new Map([...seeded].map(([table, columns]) => [table, rowsOf(raw, table, columns)]));
      raw.close();
      expect(before.get("user_messages")!.length).toBeGreaterThan(20);
      cpSync(join(s.dataDir, "uploads"), join(dir, "uploads"), { recursive: true });
      // the data dir's Web Push keys come along with it (server_settings reports the public one)
      cpSync(join(s.dataDir, "vapid.json"), join(dir, "vapid.json"));

      // the start of a newer Parley: openApp migrates
      const config = loadConfig({ dataDir: dir }, {});
      config.rate_limit.requests_per_minute = 0;
      config.server.external_url = s.app.config.server.external_url;
      const app = await openApp(config, { quiet: true, clock: s.clock });
      try {
        const applied = await app.db.all<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
        expect(applied.map((r) => r.version)).toEqual(VERSIONS);
        // every seeded row, column for column
        const after = new Database(path);
        try {
          const now = new Map(tablesOf(after).map((t) => [t.name, t.columns]));
          for (const [table, columns] of seeded) {
            const kept = columns.filter((c) => now.get(table)?.includes(c));
            expect({ table, rows: rowsOf(after, table, kept) }).toEqual({ table, rows: project(before.get(table)!, kept) });
          }
        } finally {
          after.close();
        }
        // and what clients see
        expect(await observe(app)).toEqual(expected);
      } finally {
        await closeApp(app);
      }
    }, 60_000);
  }
});
