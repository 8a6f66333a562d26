// The database snapshot a backup archives, on both code paths: the embedded file (VACUUM INTO on a
// thread) and a libSQL server (one read transaction, rows copied into a new file), each taken while
// messages are being sent.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { sendStream } from "../helpers/messages";
import { writeBackup } from "../../src/backup/create";
import { restoreBackup } from "../../src/backup/restore";

const scratch = mkdtempSync(join(tmpdir(), "parley-snapshot-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Backs `s` up while hamlet keeps sending; restores the archive and returns the restored database. */
async function backupUnderWrites(s: TestServer, name: string) {
  await createChannel(s, "iago", "Busy", { subscribers: ["hamlet", "othello"] });
  for (let i = 0; i < 20; i++) await sendStream(s, "hamlet", "Busy", "before", `early ${i}`);
  let sending = true;
  let duringBackup = 0;
  const sender = (async () => {
    for (let i = 0; sending; i++) {
      await sendStream(s, "hamlet", "Busy", "during", `late ${i}`);
      duringBackup++;
    }
  })();
  const archive = join(scratch, `${name}.tar`);
  const { manifest } = await writeBackup(s.app.config, archive, { db: s.app.db });
  sending = false;
  await sender;
  const dir = join(scratch, name);
  await restoreBackup(archive, dir);
  return { manifest, db: new Database(join(dir, "parley.db"), { readonly: true }), duringBackup };
}

/** Rows of a table as the live server has them, up to the newest message the copy holds. */
const messagesUpTo = (s: TestServer, id: number) => s.app.db.all("SELECT id, sender_id, topic, content FROM messages WHERE id <= ? ORDER BY id", [id]);

describe("the database snapshot of a backup", () => {
  for (const [path, viaClient] of [
    ["the embedded file", false],
    ["a libSQL server (through @libsql/client)", true],
  ] as const) {
    test(`from ${path} is consistent while messages are sent`, async () => {
      const s = await startServer({ viaClient });
      try {
        const { manifest, db, duringBackup } = await backupUnderWrites(s, viaClient ? "remote" : "local");
        expect(duringBackup).toBeGreaterThan(0);
        try {
          expect(manifest.database_source).toBe(viaClient ? "libsql-server" : "embedded");
          const copied = db.query("SELECT id, sender_id, topic, content FROM messages ORDER BY id").all() as any[];
          expect(copied.length).toBe(manifest.counts.messages);
          expect(copied.filter((m: any) => m.topic === "before")).toHaveLength(20);
          // every message up to the copy's newest, and no other: a snapshot at one moment
          expect(copied).toEqual(await messagesUpTo(s, copied.at(-1)!.id));
          // each copied message has its recipients' rows, and no recipient row lacks its message
          const orphans = db.query("SELECT count(*) AS n FROM messages m WHERE NOT EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id)").get();
          expect(orphans).toEqual({ n: 0 });
          const strays = db.query("SELECT count(*) AS n FROM user_messages um WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = um.message_id)").get();
          expect(strays).toEqual({ n: 0 });
          expect(db.query("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({ v: manifest.schema_version });
        } finally {
          db.close();
        }
      } finally {
        await s.close();
      }
    }, 60_000);
  }

  for (const [path, viaClient] of [
    ["embedded", false],
    ["remote", true],
  ] as const) {
    test(`readTransaction (${path}) reads one moment: a write committed meanwhile is not seen inside it, and is seen after`, async () => {
      const s = await startServer({ viaClient, seed: false });
      try {
        await s.app.db.run("CREATE TABLE t (x INTEGER)");
        await s.app.db.run("INSERT INTO t VALUES (1)");
        const count = "SELECT count(*) AS n FROM t";
        const seen = await s.app.db.readTransaction(async (sql) => {
          const first = (await sql.get<{ n: number }>(count))!.n;
          await s.app.db.run("INSERT INTO t VALUES (2)"); // another connection commits
          const second = (await sql.get<{ n: number }>(count))!.n;
          return [first, second];
        });
        expect(seen).toEqual([1, 1]);
        expect((await s.app.db.get<{ n: number }>(count))!.n).toBe(2);
      } finally {
        await s.close();
      }
    });
  }
});
