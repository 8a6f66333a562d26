import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/main";
import { closeApp, openApp } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { createServer } from "../../src/server";
import { openDb, type Db } from "../../src/store/db";
import { copyDatabase } from "../../src/store/copy";
import { startServer, type TestServer, Client } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { sendDm, sendStream } from "../helpers/messages";

let s: TestServer;
const out = mkdtempSync(join(tmpdir(), "parley-copy-"));
let newestKept = 0;
let deletedNewest = 0;
beforeAll(async () => {
  s = await startServer();
  await createChannel(s, "iago", "Moving day", { subscribers: ["hamlet", "othello"] });
  const first = await sendStream(s, "hamlet", "Moving day", "boxes", "the **needle** is packed");
  await s.users.othello.client.post("/messages/1/reactions".replace("1", String(first)), { emoji_name: "heart" }).then((r) => r.success());
  await sendDm(s, "othello", ["hamlet"], "see you at the new place");
  newestKept = await sendStream(s, "othello", "Moving day", "boxes", "last one before the move");
  await s.users.hamlet.client.post("/messages/flags", { messages: [first], op: "add", flag: "starred" }).then((r) => r.success());
  // the newest message is deleted: its id must never be given again, also after the move
  deletedNewest = await sendStream(s, "hamlet", "Moving day", "boxes", "oops");
  await s.users.iago.client.delete(`/messages/${deletedNewest}`).then((r) => r.success());
});
afterAll(async () => {
  await s.close();
  rmSync(out, { recursive: true, force: true });
});

/** Every row of every table except the full-text index's own storage, in key order. */
async function contents(db: Db): Promise<Record<string, unknown[]>> {
  const tables = await db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'messages_fts%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
  );
  const outByTable: Record<string, unknown[]> = {};
  for (const { name } of tables) outByTable[name] = await db.all(`SELECT * FROM "${name}" ORDER BY 1, 2`);
  return outByTable;
}

describe("copying the embedded database to a libSQL database", () => {
  test("through @libsql/client copies every row, the id counters and the schema, and the copy serves", async () => {
    const target = await openDb(`file:${join(out, "remote.db")}`, undefined, { viaClient: true });
    const progress: string[] = [];
    // three rows a transaction: every table of more than three rows is read and written in pages
    await copyDatabase(s.app.db, target, { onProgress: (p) => progress.push(`${p.table} ${p.rows}`), rowsPerTransaction: 3 });
    expect(progress).toContain("user_messages 12");
    expect(await contents(target)).toEqual(await contents(s.app.db));
    const schema = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name";
    expect(await target.all(schema)).toEqual(await s.app.db.all(schema));
    target.close();

    // Parley on the copy, through the remote code path: search, history, and the next id
    const config = loadConfig({ dataDir: join(out, "data") }, {});
    config.storage.database = `file:${join(out, "remote.db")}`;
    const app = await openApp(config, { quiet: true, viaClient: true });
    try {
      const server = createServer(app);
      const hamlet = new Client(server, { email: s.users.hamlet.email, apiKey: s.users.hamlet.apiKey });
      const found = (await hamlet.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "search", operand: "needle" }] })).success();
      expect(found.messages.map((m: any) => m.content)).toEqual(["<p>the <strong>needle</strong> is packed</p>"]);
      expect(found.messages[0].reactions.map((r: any) => r.emoji_name)).toEqual(["heart"]);
      expect(found.messages[0].flags).toContain("starred");
      const dms = (await hamlet.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "dm", operand: [s.users.othello.id] }] })).success();
      expect(dms.messages.map((m: any) => m.content)).toEqual(["<p>see you at the new place</p>"]);
      const next = (await hamlet.post("/messages", { type: "stream", to: "Moving day", topic: "boxes", content: "unpacked" })).success().id;
      expect(next).toBeGreaterThan(deletedNewest);
      expect(deletedNewest).toBeGreaterThan(newestKept);
    } finally {
      await closeApp(app);
    }
  });

  test("parley copy-db copies from a snapshot while Parley serves, and refuses a target that is not empty", async () => {
    const to = `file:${join(out, "cli.db")}`;
    expect(await main(["copy-db", "--data-dir", s.dataDir, "--to", to])).toBe(0);
    // the snapshot it copied from is gone
    expect(readdirSync(s.dataDir).filter((f) => f.startsWith("copy-snapshot"))).toEqual([]);
    const copy = await openDb(to);
    expect(await copy.get("SELECT count(*) AS n FROM messages")).toEqual(await s.app.db.get("SELECT count(*) AS n FROM messages"));
    copy.close();
    expect(await main(["copy-db", "--data-dir", s.dataDir, "--to", to])).toBe(2);
    expect(await main(["copy-db", "--data-dir", s.dataDir])).toBe(2);
  });
});
