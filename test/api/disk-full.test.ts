/**
 * A full disk: the data dir on a small tmpfs, filled up. The sender gets a clear error (Zulip's
 * envelope, a 4xx so that the apps show its msg) and the log says why; nothing acknowledged is lost
 * and nothing is half-stored; once space is freed Parley carries on. Skips with a notice where a
 * tmpfs cannot be mounted.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import Database from "libsql";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { sendStream } from "../helpers/messages";
import { reopenApp } from "../helpers/reopen";
import { fillDisk, mountTmpfs, type Tmpfs } from "../helpers/tmpfs";
import { closeApp } from "../../src/app";

setDefaultTimeout(60_000);
const disk: Tmpfs | null = mountTmpfs(32, "the full-disk tests (test/api/disk-full.test.ts)");
const DISK_FULL = "The server's disk is full, so this could not be saved. Please tell the server's administrator.";

describe.skipIf(!disk)("a full disk", () => {
  let s: TestServer;
  let channel = 0;
  const acknowledged: number[] = [];
  const logged: { level: string; msg: string; extra?: Record<string, unknown> }[] = [];
  const dbPath = () => join(disk!.path, "parley.db");
  const messageIds = async () => (await s.app.db.all<{ id: number }>("SELECT id FROM messages ORDER BY id")).map((r) => r.id);
  const attachments = async () => (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM attachments"))!.n;
  const tmpFiles = () => {
    const dir = join(disk!.path, "uploads", "tmp");
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  /**
   * TRUNCATE answers busy (and leaves the file as it is) while another checkpoint runs, such as the
   * server's checkpoint thread after the burst of writes that set the test up: try until it is done.
   */
  const emptyLog = async () => {
    const other = new Database(dbPath());
    try {
      for (let tries = 0; ; tries++) {
        const r = other.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy: number };
        if (r.busy === 0 && statSync(dbPath() + "-wal").size === 0) return;
        if (tries === 200) throw new Error("the write-ahead log could not be emptied");
        await Bun.sleep(25);
      }
    } finally {
      other.close();
    }
  };
  const upload = (name: string) => s.users.hamlet.client.post("/user_uploads", { file: new File(["x".repeat(200_000)], name) });

  beforeAll(async () => {
    s = await startServer({
      config: (c) => {
        c.storage.database = `file:${dbPath()}`;
        c.storage.uploads_dir = join(disk!.path, "uploads");
      },
    });
    const entry = (level: string) => (msg: string, extra?: Record<string, unknown>) => void logged.push({ level, msg, extra });
    s.app.log = { debug: entry("debug"), info: entry("info"), warn: entry("warn"), error: entry("error"), request: () => {}, enabled: () => true, flush: () => {}, close: () => {} };
    channel = await createChannel(s, "hamlet", "disk", { subscribers: ["hamlet", "othello"] });
    for (let i = 0; i < 3; i++) acknowledged.push(await sendStream(s, "hamlet", "disk", "before", `acknowledged ${i}`));
    (await upload("before.txt")).success();
  });
  afterAll(async () => {
    await s?.close();
    disk!.unmount();
  });

  test("a message or an upload gets Zulip's envelope with a clear msg, the log says the disk is full, and nothing is half-stored", async () => {
    // the write-ahead log folded back into the database and its file emptied, so that the next write
    // has to grow a file: a log left as long as it was would be reused from its start, and fit
    await emptyLog();
    const before = await messageIds();
    const attached = await attachments();
    const filler = await fillDisk(disk!.path);
    try {
      await emptyLog();
      const events = await s.captureEvents(async () => {
        const r = await s.users.hamlet.client.post("/messages", { type: "stream", to: channel, topic: "full", content: "lost?" });
        expect(r.status).toBe(400);
        expect(r.json).toEqual({ result: "error", msg: DISK_FULL, code: "DISK_FULL" });
        const u = await upload("during.txt");
        expect([u.status, u.json]).toEqual([400, { result: "error", msg: DISK_FULL, code: "DISK_FULL" }]);
      });
      expect(events.of("othello")).toEqual([]);
      expect(events.of("hamlet")).toEqual([]);
      expect(await messageIds()).toEqual(before);
      expect(await attachments()).toBe(attached);
      expect(tmpFiles()).toEqual([]);
      const full = logged.filter((l) => l.level === "error" && l.msg === "disk full: a write was refused");
      expect(full.map((l) => l.extra?.path)).toEqual(["/api/v1/messages", "/api/v1/user_uploads"]);
      expect(logged.filter((l) => l.msg === "unhandled error")).toEqual([]);
      // reading goes on
      const fetched = (await s.users.othello.client.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "channel", operand: channel }] })).success();
      expect(fetched.messages.map((m: any) => m.id)).toEqual(expect.arrayContaining(acknowledged));
    } finally {
      rmSync(filler);
    }
  });

  test("once space is freed Parley carries on, and every acknowledged message is still there after a restart", async () => {
    const events = await s.captureEvents(async () => {
      acknowledged.push(await sendStream(s, "hamlet", "disk", "after", "space again"));
      (await upload("after.txt")).success();
    });
    expect(events.of("othello").map((e) => e.type)).toContain("message");
    const app = await reopenApp(s);
    try {
      const rows = await app.db.all<{ id: number; content: string }>("SELECT id, content FROM messages WHERE stream_id = ? ORDER BY id", [channel]);
      expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining(acknowledged));
      expect(rows.filter((r) => r.content === "lost?")).toEqual([]);
    } finally {
      await closeApp(app);
    }
  });
});
