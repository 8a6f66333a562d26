// The checkpointer's thread (see checkpointer.ts). Each request copies what it can of the write-ahead log
// back into the database file (a PASSIVE checkpoint: it never waits for readers or the writer).
//
// One connection for the thread's life, ended with the thread (after a quiet minute). It opened one per
// request before: libsql's close() leaves a connection open while a statement of it exists, until the
// garbage collector finds that statement, which in this thread's tiny heap it hardly ever did, so under
// steady writes a connection was left behind every half second (the soak: ~30 connections, 60 open files
// and tens of MiB of native memory after a minute).
import Database from "libsql";

declare const self: Worker;

export interface CheckpointRequest {
  path: string;
  /** Int32Array over a SharedArrayBuffer: [0] is 1 while a checkpoint runs (closing waits on it). */
  running: Int32Array;
}

let open: { path: string; db: any; checkpoint: any } | null = null;

self.onmessage = (e: MessageEvent<CheckpointRequest>) => {
  const { path, running } = e.data;
  try {
    if (open?.path !== path) {
      const db = new Database(path);
      open = { path, db, checkpoint: db.prepare("PRAGMA wal_checkpoint(PASSIVE)") };
    }
    const row = open.checkpoint.get();
    postMessage({ ok: true, walFrames: row?.log ?? 0, copied: row?.checkpointed ?? 0 });
  } catch (err) {
    postMessage({ ok: false, error: String(err) });
    // a connection that failed is not used again
    try {
      open?.db.close();
    } catch {}
    open = null;
  } finally {
    Atomics.store(running, 0, 0);
    Atomics.notify(running, 0);
  }
};
