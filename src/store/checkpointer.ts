/**
 * Checkpoints off the event loop while writes are busy. SQLite copies the write-ahead log back into the
 * database file every 1,000 pages, inside whichever COMMIT crosses the mark: with the embedded engine
 * that copy stops every request for several milliseconds. Under a steady stream of commits the writer's
 * automatic checkpoints are turned off and a worker thread runs PASSIVE checkpoints on its own connection
 * instead (after a commit, at most every 500 ms, and once more after the last commit of a burst). After a
 * minute without commits the thread stops and the writer checkpoints itself again, so an idle server
 * carries no second JavaScript VM (~4 MiB). If the thread fails, the writer checkpoints itself for good.
 *
 * The log only starts over from its beginning when a write begins after a checkpoint that copied all of
 * it. Under steady writes the thread never gets there (commits land while it copies), so the log grew
 * without end: ~120 MB/s at 7,000 msg/s, and every page lookup searched its ever longer index, which
 * cut throughput by a third within 15 s. So once the thread reports a long log, the writer, at its next
 * commit, copies the little the thread has not (the pages written during the thread's copy), and the
 * next write starts the log over. After the quiet minute that stops the thread, the writer also empties
 * the log's file, which a burst leaves as long as it grew.
 *
 * Measured with 32 concurrent senders: +7 to +20% messages per second, p99 13-15 ms -> ~11 ms.
 */
import type { CheckpointRequest } from "./checkpoint-worker";

/**
 * From source the worker sits beside this file. In the executable, build/compile.ts makes it an entry
 * point of its own and Bun stores it by its path under src/, which a relative specifier reaches there
 * (and only there: from source a relative specifier means the working directory).
 */
const WORKER = import.meta.url.startsWith("file:///$bunfs/") ? "./store/checkpoint-worker.ts" : new URL("./checkpoint-worker.ts", import.meta.url).href;
const SQLITE_DEFAULT_PAGES = 1000;
const CLOSE_WAIT_MS = 5_000;

export interface CheckpointerOptions {
  /** Commits within one second that start the thread. */
  busyCommitsPerSecond: number;
  /** Time without commits after which the thread stops. */
  idleStopMs: number;
  /** Least time between two checkpoints. */
  intervalMs: number;
  /** A log this long (in pages) after the thread's checkpoint makes the writer finish the copy. */
  restartFrames: number;
}

const DEFAULTS: CheckpointerOptions = { busyCommitsPerSecond: 20, idleStopMs: 60_000, intervalMs: 500, restartFrames: 4096 };

/** What the checkpointer asks of the write connection; both run inside the writer's transaction mutex. */
export interface WriterCheckpoints {
  /** PRAGMA wal_autocheckpoint: 0 while the thread checkpoints, SQLite's default otherwise. */
  setAutoCheckpoint(pages: number): void;
  /** A PASSIVE checkpoint on the writer itself, between two write transactions. */
  checkpoint(): void;
  /** Copies the whole log and empties its file, when it is the writer's turn (after a quiet spell). */
  truncate(): void;
}

export interface Checkpointer {
  /** Called after each committed write transaction. */
  afterCommit(): void;
  /** Whether the thread is running now. */
  readonly threaded: boolean;
  /** Waits for a running checkpoint (so its connection is closed), then stops the thread. */
  close(): void;
}

export function startCheckpointer(
  path: string,
  writer: WriterCheckpoints,
  onError: (message: string) => void,
  options: Partial<CheckpointerOptions> = {},
): Checkpointer {
  const o = { ...DEFAULTS, ...options };
  const running = new Int32Array(new SharedArrayBuffer(4)); // [0] = 1 while the thread checkpoints
  let worker: Worker | null = null;
  let disabled = false; // closed, or the thread failed: the writer checkpoints from now on
  let lastDone = 0;
  let lastCommit = 0;
  let windowStart = 0;
  let commitsInWindow = 0;
  let timer: ReturnType<typeof setTimeout> | null = null; // the next checkpoint
  let idleTimer: ReturnType<typeof setTimeout> | null = null;
  let pending = false; // a commit came while a checkpoint ran: check again when it ends
  let finishCopy = false; // the thread left a long log: the writer copies the rest at its next commit

  const later = (fn: () => void, ms: number) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  };

  /** Back to the writer's own checkpoints; the thread (if any) is stopped once its checkpoint ends. */
  function stopThread(): void {
    if (timer) clearTimeout(timer);
    if (idleTimer) clearTimeout(idleTimer);
    timer = idleTimer = null;
    if (!worker) return;
    writer.setAutoCheckpoint(SQLITE_DEFAULT_PAGES);
    // A checkpoint still holding its connection would keep the log from being folded in and removed
    // when the database closes: wait for it (it takes milliseconds), then stop the thread.
    Atomics.wait(running, 0, 1, CLOSE_WAIT_MS);
    worker.terminate();
    worker = null;
  }

  function fail(message: string): void {
    if (disabled) return;
    disabled = true;
    Atomics.store(running, 0, 0);
    stopThread();
    onError(`checkpoint thread failed, checkpointing in the writer: ${message}`);
  }

  function startThread(): void {
    try {
      // ref: false: the thread never keeps the process alive on its own
      worker = new Worker(WORKER, { ref: false } as WorkerOptions);
    } catch (e) {
      return fail((e as Error).message);
    }
    worker.onmessage = (e: MessageEvent<{ ok: boolean; error?: string; walFrames?: number }>) => {
      lastDone = performance.now();
      if (!e.data.ok) return fail(e.data.error ?? "unknown error");
      if ((e.data.walFrames ?? 0) >= o.restartFrames) finishCopy = true;
      if (pending) schedule(lastDone);
    };
    worker.onerror = (e) => fail(e.message);
    writer.setAutoCheckpoint(0);
    idleTimer = later(checkIdle, o.idleStopMs);
  }

  function checkIdle(): void {
    idleTimer = null;
    const quiet = performance.now() - lastCommit;
    if (quiet >= o.idleStopMs && !timer) {
      stopThread();
      writer.truncate();
    } else if (worker) idleTimer = later(checkIdle, Math.max(o.idleStopMs - quiet, 10));
  }

  function request(): void {
    timer = null;
    if (!worker) return;
    if (Atomics.load(running, 0) === 1) return void (pending = true);
    pending = false;
    Atomics.store(running, 0, 1);
    const message: CheckpointRequest = { path, running };
    worker.postMessage(message);
  }

  function afterCommit(): void {
    if (disabled) return;
    const now = performance.now();
    lastCommit = now;
    if (!worker) {
      if (now - windowStart > 1000) [windowStart, commitsInWindow] = [now, 0];
      if (++commitsInWindow < o.busyCommitsPerSecond) return;
      startThread();
      if (!worker) return;
    }
    // here, right after a COMMIT and still under the write mutex, no write transaction is open
    if (finishCopy && Atomics.load(running, 0) === 0) {
      finishCopy = false;
      writer.checkpoint();
    }
    schedule(now);
  }

  /** The next thread checkpoint: now, or once intervalMs has passed since the last one. */
  function schedule(now: number): void {
    if (timer || !worker) return;
    const wait = lastDone + o.intervalMs - now;
    if (wait <= 0) return request();
    timer = later(request, wait);
  }

  return {
    afterCommit,
    get threaded() {
      return worker !== null;
    },
    close() {
      disabled = true;
      stopThread();
    },
  };
}
