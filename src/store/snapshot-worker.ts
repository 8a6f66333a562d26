// The snapshot thread (see snapshot.ts): a consistent copy of the embedded database (SQLite's VACUUM
// INTO, one read transaction on a connection of its own, so writers carry on), and the counts a backup
// manifest reports, read from that copy. Both can take seconds on a large database: here they keep the
// server's event loop free.
import Database from "libsql";

declare const self: Worker;

export type SnapshotRequest = { op: "copy"; path: string; to: string } | { op: "describe"; path: string };

export interface SnapshotDescription {
  schemaVersion: number;
  migrations: { version: number; name: string }[];
  counts: Record<string, number>;
}

/** The headline counts of a backup: what a person checks first after a restore. */
const COUNTS: Record<string, string> = {
  messages: "SELECT count(*) AS n FROM messages",
  users: "SELECT count(*) AS n FROM users WHERE is_bot = 0",
  bots: "SELECT count(*) AS n FROM users WHERE is_bot = 1",
  channels: "SELECT count(*) AS n FROM streams",
  subscriptions: "SELECT count(*) AS n FROM subscriptions",
  reactions: "SELECT count(*) AS n FROM reactions",
  attachments: "SELECT count(*) AS n FROM attachments",
  custom_emoji: "SELECT count(*) AS n FROM realm_emoji",
};

function describe(db: any): SnapshotDescription {
  const migrations = db.prepare("SELECT version, name FROM schema_migrations ORDER BY version").all() as { version: number; name: string }[];
  const counts: Record<string, number> = {};
  for (const [name, sql] of Object.entries(COUNTS)) counts[name] = Number(db.prepare(sql).get().n);
  return { schemaVersion: migrations.at(-1)?.version ?? 0, migrations, counts };
}

self.onmessage = (e: MessageEvent<SnapshotRequest>) => {
  const req = e.data;
  let db: any = null;
  try {
    db = new Database(req.path);
    db.exec("PRAGMA busy_timeout = 5000");
    if (req.op === "copy") {
      db.prepare("VACUUM INTO ?").run([req.to]);
      postMessage({ ok: true });
    } else {
      postMessage({ ok: true, description: describe(db) });
    }
  } catch (err) {
    postMessage({ ok: false, error: String((err as Error)?.message ?? err) });
  } finally {
    db?.close();
  }
};
