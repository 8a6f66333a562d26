// Automatic backups by the timer loop, on the fake clock: archives on schedule, pruning, a failure
// logged and retried later, shutdown in the middle, and the server answering throughout.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { sendStream } from "../helpers/messages";
import { Scheduler } from "../../src/scheduler";
import { defaultJobs } from "../../src/scheduler/jobs";
import { backupStatus, RETRY_MS } from "../../src/actions/backups";
import { restoreBackup } from "../../src/backup/restore";
import type { Log } from "../../src/lib/log";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let s: TestServer;
let logged: { level: string; msg: string; extra?: Record<string, unknown> }[] = [];
const scratch = mkdtempSync(join(tmpdir(), "parley-autobackup-"));
const dir = join(scratch, "backups");

beforeAll(async () => {
  s = await startServer({
    config: (c) => {
      c.backup.dir = dir;
      c.backup.every_hours = 1;
      c.backup.keep = 2;
    },
  });
  const record = (level: string) => (msg: string, extra?: Record<string, unknown>) => void logged.push({ level, msg, extra });
  s.app.log = { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error"), request() {}, enabled: () => true, flush() {}, close() {} } satisfies Log;
  await createChannel(s, "iago", "Backed up", { subscribers: ["hamlet"] });
  await sendStream(s, "hamlet", "Backed up", "t", "before the first backup");
  // a large upload on disk makes each archive take a while to write
  const big = join(s.app.config.storage.uploads_dir, "1", "ab", "b".repeat(24));
  mkdirSync(big, { recursive: true });
  writeFileSync(join(big, "big.bin"), randomBytes(24 * 1024 * 1024));
});
afterAll(async () => {
  await s.close();
  rmSync(scratch, { recursive: true, force: true });
});

const backupJob = () => defaultJobs().filter((j) => j.name === "backup");
const archives = () => (existsSync(dir) ? readdirSync(dir).sort() : []);

describe("automatic backups", () => {
  test("are off while [backup] dir is empty", async () => {
    const saved = s.app.config.backup.dir;
    s.app.config.backup.dir = "";
    const loop = new Scheduler(s.app, backupJob());
    await loop.tick();
    await loop.stop();
    s.app.config.backup.dir = saved;
    expect(existsSync(dir)).toBe(false);
  });

  test("write an archive on the first tick, the next once every_hours have passed, and keep only the newest `keep`", async () => {
    const loop = new Scheduler(s.app, backupJob());
    await loop.tick(); // 2026-01-01 00:00:00 UTC on the fake clock
    expect(archives()).toEqual(["parley-backup-20260101T000000Z.tar.gz"]);
    s.clock.advance(59 * MINUTE);
    await loop.tick();
    expect(archives()).toHaveLength(1); // not due yet
    s.clock.advance(MINUTE);
    await loop.tick();
    expect(archives()).toEqual(["parley-backup-20260101T000000Z.tar.gz", "parley-backup-20260101T010000Z.tar.gz"]);
    await sendStream(s, "hamlet", "Backed up", "t", "between the second and third backup");
    s.clock.advance(HOUR);
    await loop.tick();
    // keep = 2: the oldest is gone
    expect(archives()).toEqual(["parley-backup-20260101T010000Z.tar.gz", "parley-backup-20260101T020000Z.tar.gz"]);
    await loop.stop();
    expect(logged.filter((l) => l.level === "error")).toEqual([]);
    expect(logged.filter((l) => l.msg === "old backup deleted").map((l) => l.extra?.file)).toEqual([join(dir, "parley-backup-20260101T000000Z.tar.gz")]);
    expect(backupStatus(s.app)).toMatchObject({ lastSuccessMs: s.clock.now(), failures: 0 });

    // the newest archive restores with the message sent before it
    const restored = join(scratch, "restored");
    const manifest = await restoreBackup(join(dir, archives().at(-1)!), restored);
    expect(manifest.counts.messages).toBe((await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM messages"))!.n);
    expect(existsSync(join(restored, "uploads", "1", "ab", "b".repeat(24), "big.bin"))).toBe(true);
  }, 60_000);

  test("a restart does not repeat a backup that is not due: the time comes from the newest archive's name", async () => {
    const before = archives();
    s.clock.advance(30 * MINUTE);
    const loop = new Scheduler(s.app, backupJob()); // a fresh loop runs every job on its first tick
    await loop.tick();
    await loop.stop();
    expect(archives()).toEqual(before);
  });

  test("keep serving while an archive is written: requests are answered before it is done", async () => {
    s.clock.advance(HOUR);
    const loop = new Scheduler(s.app, backupJob());
    const tick = loop.tick();
    expect(backupStatus(s.app).running).toBe(true);
    const answeredWhileRunning: boolean[] = [];
    while (backupStatus(s.app).running) {
      await sendStream(s, "hamlet", "Backed up", "busy", "sent during a backup");
      answeredWhileRunning.push(backupStatus(s.app).running);
    }
    await tick;
    await loop.stop();
    expect(answeredWhileRunning.filter(Boolean).length).toBeGreaterThan(0);
    expect(logged.filter((l) => l.level === "error")).toEqual([]);
  }, 60_000);

  test("a failure (the folder cannot be made) is logged, retried after the retry interval, and the next try succeeds once fixed", async () => {
    const blocked = join(scratch, "blocked");
    writeFileSync(blocked, "a file where the parent folder should be");
    s.app.config.backup.dir = join(blocked, "backups");
    logged = [];
    const loop = new Scheduler(s.app, backupJob());
    s.clock.advance(HOUR);
    await loop.tick();
    const errors = () => logged.filter((l) => l.level === "error");
    expect(errors()).toHaveLength(1);
    expect(errors()[0]!.msg).toBe("backup failed; trying again in 15 min");
    expect(String(errors()[0]!.extra?.error)).toContain("ENOTDIR");
    expect(backupStatus(s.app).failures).toBe(1);
    // the loop's own interval comes round every minute; the retry waits RETRY_MS
    for (let t = MINUTE; t < RETRY_MS; t += MINUTE) {
      s.clock.advance(MINUTE);
      await loop.tick();
    }
    expect(errors()).toHaveLength(1);
    s.clock.advance(MINUTE);
    await loop.tick();
    expect(errors()).toHaveLength(2);
    expect(backupStatus(s.app).failures).toBe(2);
    // meanwhile the server answers
    await sendStream(s, "hamlet", "Backed up", "t", "the server works while backups fail");
    rmSync(blocked);
    s.clock.advance(RETRY_MS);
    await loop.tick();
    await loop.stop();
    expect(readdirSync(join(blocked, "backups"))).toHaveLength(1);
    expect(errors()).toHaveLength(2);
    expect(backupStatus(s.app).failures).toBe(0);
    s.app.config.backup.dir = dir;
  }, 60_000);

  test("stopping the loop interrupts a backup in progress and leaves no partial file", async () => {
    s.clock.advance(2 * HOUR);
    logged = [];
    const before = archives();
    const loop = new Scheduler(s.app, backupJob());
    const tick = loop.tick();
    expect(backupStatus(s.app).running).toBe(true);
    await Bun.sleep(50);
    const started = performance.now();
    await loop.stop();
    await tick;
    expect(performance.now() - started).toBeLessThan(5000);
    expect(archives()).toEqual(before);
    expect(readdirSync(dir).filter((n) => n.includes("partial") || n.includes("snapshot"))).toEqual([]);
    expect(logged.map((l) => l.msg)).toEqual(["backup interrupted by shutdown"]);
    expect(backupStatus(s.app).failures).toBe(0);
  }, 60_000);
});
