import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { Scheduler, type Job } from "../../src/scheduler";

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ seed: false });
});
afterAll(() => s.close());

const job = (name: string, intervalMs: number, run: () => Promise<unknown>): Job => ({ name, intervalMs, run: () => run() });

describe("the timer loop", () => {
  test("runs every job on the first tick, then each at its own interval", async () => {
    const runs: string[] = [];
    const loop = new Scheduler(s.app, [job("fast", 1000, async () => runs.push("fast")), job("slow", 5000, async () => runs.push("slow"))]);
    await loop.tick();
    expect(runs).toEqual(["fast", "slow"]);
    s.clock.advance(1000);
    await loop.tick();
    expect(runs).toEqual(["fast", "slow", "fast"]);
    s.clock.advance(500);
    await loop.tick();
    expect(runs).toHaveLength(3);
    s.clock.advance(3500);
    await loop.tick();
    expect(runs).toEqual(["fast", "slow", "fast", "fast", "slow"]);
    await loop.stop();
  });

  test("start() resolves once every job of the first tick has finished, and starts none twice", async () => {
    const done: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const loop = new Scheduler(s.app, [job("quick", 1000, async () => done.push("quick")), job("gated", 1000, async () => (await gate, done.push("gated")))]);
    let resolved = false;
    const first = loop.start().then(() => (resolved = true));
    await Bun.sleep(5);
    expect(done).toEqual(["quick"]);
    expect(resolved).toBe(false);
    release();
    await first;
    expect(done).toEqual(["quick", "gated"]);
    // a second start() is a no-op that resolves at once
    await loop.start();
    expect(done).toHaveLength(2);
    await loop.stop();
  });

  test("a job never overlaps itself", async () => {
    let running = 0;
    let maxRunning = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const loop = new Scheduler(s.app, [
      job("slowpoke", 100, async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await gate;
        running--;
      }),
    ]);
    const first = loop.tick();
    s.clock.advance(1000);
    await Promise.race([loop.tick(), Bun.sleep(10)]);
    s.clock.advance(1000);
    await Promise.race([loop.tick(), Bun.sleep(10)]);
    expect(loop.status()[0]!.running).toBe(true);
    release();
    await first;
    expect(maxRunning).toBe(1);
    await loop.stop();
  });

  test("a failing job is logged, counted and retried next interval without stopping the others", async () => {
    let attempts = 0;
    const ok: number[] = [];
    const loop = new Scheduler(s.app, [
      job("flaky", 1000, async () => {
        attempts++;
        if (attempts < 3) throw new Error("boom");
      }),
      job("steady", 1000, async () => ok.push(1)),
    ]);
    await loop.tick();
    expect(loop.status().find((j) => j.name === "flaky")!.failures).toBe(1);
    s.clock.advance(1000);
    await loop.tick();
    s.clock.advance(1000);
    await loop.tick();
    expect(attempts).toBe(3);
    expect(ok).toHaveLength(3);
    expect(loop.status().find((j) => j.name === "flaky")!.failures).toBe(0);
    await loop.stop();
  });

  test("stop waits for the running job and no job starts afterwards", async () => {
    let finished = false;
    let starts = 0;
    const loop = new Scheduler(s.app, [
      job("long", 10, async () => {
        starts++;
        await Bun.sleep(50);
        finished = true;
      }),
    ]);
    void loop.tick();
    await loop.stop();
    expect(finished).toBe(true);
    s.clock.advance(1000);
    await loop.tick();
    expect(starts).toBe(1);
  });
});

describe("the default jobs", () => {
  test("garbage-collect idle event queues and expired sessions", async () => {
    const { defaultJobs } = await import("../../src/scheduler/jobs");
    const q = s.app.events.register({ userId: 1, eventTypes: null, applyMarkdown: false, clientGravatar: true, allPublicStreams: false, narrow: [], capabilities: {}, lifespanSecs: 0, clientName: "t" });
    const now = s.clock.now() / 1000;
    await s.app.db.run("INSERT INTO realm (name, date_created) VALUES ('x', 0)");
    await s.app.db.run("INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, date_joined) VALUES (1, 'a@b.co', 'a@b.co', 'A', 'k', 0)");
    await s.app.db.run("INSERT INTO sessions (token, user_id, created, expires) VALUES ('old', 1, ?, ?), ('new', 1, ?, ?)", [now - 10, now + 60, now, now + 7200]);
    s.clock.advance(11 * 60_000);
    const loop = new Scheduler(s.app, defaultJobs());
    await loop.tick();
    expect(() => s.app.events.get(q.id, 1)).toThrow();
    expect((await s.app.db.all("SELECT token FROM sessions")).map((r) => r.token)).toEqual(["new"]);
    await loop.stop();
  });
});
