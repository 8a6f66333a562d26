import type { App } from "../app";

/** A named job: an action the loop calls every `intervalMs`. */
export interface Job {
  name: string;
  intervalMs: number;
  /** `signal` aborts when the loop stops: a long job (a backup) gives up instead of holding up shutdown. */
  run(app: App, signal: AbortSignal): Promise<unknown>;
}

interface JobState {
  job: Job;
  nextRunAt: number;
  running: Promise<void> | null;
  failures: number;
}

/**
 * The built-in timer loop: one timer in the process, named jobs with intervals. A job never overlaps
 * itself; a failing job is logged and retried on its next interval without stopping the others;
 * time comes from app.clock, so tests move a fake clock and call tick() instead of sleeping.
 */
export class Scheduler {
  private readonly states: JobState[];
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private readonly stopping = new AbortController();

  constructor(
    private readonly app: App,
    jobs: Job[],
    private readonly tickMs = 250,
  ) {
    const now = app.clock.now();
    // every job runs on the first tick: overdue work (e.g. scheduled messages while down) goes out at once
    this.states = jobs.map((job) => ({ job, nextRunAt: now, running: null, failures: 0 }));
  }

  /** Starts the timer; resolves when the first tick's jobs (every job, at start) have finished. */
  start(): Promise<void> {
    if (this.timer || this.stopped) return Promise.resolve();
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    return this.tick();
  }

  /** Starts every due job that is not already running; resolves when those runs finish. */
  async tick(): Promise<void> {
    if (this.stopped) return;
    const now = this.app.clock.now();
    const started: Promise<void>[] = [];
    for (const s of this.states) {
      if (s.running || now < s.nextRunAt) continue;
      s.nextRunAt = now + s.job.intervalMs;
      s.running = this.runOne(s);
      started.push(s.running);
    }
    await Promise.all(started);
  }

  private async runOne(s: JobState): Promise<void> {
    try {
      await s.job.run(this.app, this.stopping.signal);
      s.failures = 0;
    } catch (e) {
      s.failures++;
      this.app.log.error(`scheduled job '${s.job.name}' failed; retrying next interval`, { error: (e as Error)?.message ?? String(e), failures: s.failures });
    } finally {
      s.running = null;
    }
  }

  /** What each job is doing (for tests and diagnostics). */
  status(): { name: string; running: boolean; nextRunAt: number; failures: number }[] {
    return this.states.map((s) => ({ name: s.job.name, running: s.running !== null, nextRunAt: s.nextRunAt, failures: s.failures }));
  }

  /** Stops the timer, tells running jobs to give up, and waits for them to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort(new Error("shutting down"));
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all(this.states.map((s) => s.running).filter(Boolean));
  }
}
