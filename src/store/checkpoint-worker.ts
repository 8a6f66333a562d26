// The checkpointer's thread (see checkpointer.ts). Each request copies what it can of the write-ahead log
// back into the database file (a PASSIVE checkpoint: it never waits for readers or the writer) on a
// connection opened for that request, so between requests this thread holds nothing open.
import Database from "libsql";

declare const self: Worker;

export interface CheckpointRequest {
  path: string;
  /** Int32Array over a SharedArrayBuffer: [0] is 1 while a checkpoint runs (closing waits on it). */
  running: Int32Array;
}

self.onmessage = (e: MessageEvent<CheckpointRequest>) => {
  const { path, running } = e.data;
  let db: any = null;
  try {
    db = new Database(path);
    const row = db.prepare("PRAGMA wal_checkpoint(PASSIVE)").get();
    postMessage({ ok: true, walFrames: row?.log ?? 0, copied: row?.checkpointed ?? 0 });
  } catch (err) {
    postMessage({ ok: false, error: String(err) });
  } finally {
    try {
      db?.close();
    } finally {
      Atomics.store(running, 0, 0);
      Atomics.notify(running, 0);
    }
  }
};
