// The owner's server page: facts about the installation, a backup on request and the newest archive
// to download, in Parley's own namespace; everyone but an owner is refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "../helpers/server";
import { sendStream } from "../helpers/messages";
import { createChannel } from "../helpers/channels";
import { restoreBackup } from "../../src/backup/restore";

let s: TestServer;
const scratch = mkdtempSync(join(tmpdir(), "parley-server-page-"));

beforeAll(async () => {
  s = await startServer({ config: (c) => void (c.backup.keep = 2) });
  await createChannel(s, "iago", "Verona", { subscribers: ["hamlet"] });
  await sendStream(s, "hamlet", "Verona", "backups", "kept in the archive");
});
afterAll(async () => {
  await s.close();
  rmSync(scratch, { recursive: true, force: true });
});

const backupsDir = () => join(s.dataDir, "backups");

describe("the server's facts", () => {
  test("the owner sees the version, the data dir, the sizes and that email and backups are not set up", async () => {
    const r = (await s.users.desdemona.client.get("/parley/server")).success();
    expect(r.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.data_dir).toBe(s.dataDir);
    expect(r.database.embedded).toBe(true);
    expect(r.database.location).toBe(join(s.dataDir, "parley.db"));
    expect(r.database.size).toBeGreaterThan(10_000);
    expect(r.uploads).toEqual({ dir: join(s.dataDir, "uploads"), files: 0, size: 0 });
    // [backup] dir is empty: no automatic backups, and one on request goes to DATA_DIR/backups
    expect(r.backups).toMatchObject({ dir: backupsDir(), automatic: false, keep: 2, latest: null, last_failure_timestamp: null, running: false });
    expect(r.email).toEqual({ configured: false, from: "Parley <noreply@parley.localhost>" });
    expect(r.push).toEqual({ relay_configured: false });
    expect(r.web_push).toEqual({ keys: false });
  });

  test("Web Push shows as set up once the server's key pair exists in the data dir", async () => {
    writeFileSync(join(s.dataDir, "vapid.json"), JSON.stringify({ publicKey: "p", privateKey: "k" }));
    expect((await s.users.desdemona.client.get("/parley/server")).success().web_push).toEqual({ keys: true });
    rmSync(join(s.dataDir, "vapid.json"));
  });

  test("the two switches for reading without an account show what PATCH /realm stored, and /register reports web-public channels the same", async () => {
    expect((await s.users.desdemona.client.get("/parley/server")).success().public_access).toEqual({ web_public_streams_enabled: true, allow_public_access: false });
    (await s.users.desdemona.client.patch("/realm", { web_public_streams_enabled: false, allow_public_access: true })).success();
    try {
      expect((await s.users.desdemona.client.get("/parley/server")).success().public_access).toEqual({ web_public_streams_enabled: false, allow_public_access: true });
      expect((await s.users.hamlet.client.post("/register", {})).success().server_web_public_streams_enabled).toBe(false);
    } finally {
      (await s.users.desdemona.client.patch("/realm", { web_public_streams_enabled: true, allow_public_access: false })).success();
    }
    expect((await s.users.hamlet.client.post("/register", {})).success().server_web_public_streams_enabled).toBe(true);
  });

  test("an uploaded file counts in the uploads' size", async () => {
    const up = (await s.users.hamlet.client.post("/user_uploads", { file: new File(["x".repeat(1234)], "notes.txt", { type: "text/plain" }) })).success();
    expect(up.url).toStartWith("/user_uploads/");
    const r = (await s.users.desdemona.client.get("/parley/server")).success();
    expect(r.uploads).toMatchObject({ files: 1, size: 1234 });
  });

  test("administrators, members and guests are refused with Zulip's error", async () => {
    for (const name of ["iago", "hamlet", "polonius"] as const) {
      (await s.users[name].client.get("/parley/server")).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL", 400);
    }
  });

  test("without credentials the answer is 401", async () => {
    expect((await s.anonymous.get("/parley/server")).status).toBe(401);
  });
});

describe("backing up on request", () => {
  test("nobody but the owner may make a backup, and nothing is written for them", async () => {
    for (const name of ["iago", "hamlet", "polonius"] as const) {
      (await s.users[name].client.post("/parley/backups")).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL", 400);
    }
    expect(existsSync(backupsDir())).toBe(false);
  });

  test("before any backup the download answers 404", async () => {
    (await s.users.desdemona.client.get("/parley/backups/latest")).error("No backup has been made yet", "BAD_REQUEST", 404);
  });

  test("the owner's backup is written to DATA_DIR/backups and shown as the latest", async () => {
    const made = (await s.users.desdemona.client.post("/parley/backups")).success().backup;
    expect(made.name).toMatch(/^parley-backup-\d{8}T\d{6}Z\.tar\.gz$/);
    expect(made.timestamp).toBe(Math.floor(s.clock.now() / 1000));
    expect(readdirSync(backupsDir())).toEqual([made.name]);
    expect(made.size).toBe(Bun.file(join(backupsDir(), made.name)).size);
    const facts = (await s.users.desdemona.client.get("/parley/server")).success();
    expect(facts.backups.latest).toEqual(made);
  });

  test("a second backup in the same second is refused, and the first stays", async () => {
    const before = readdirSync(backupsDir());
    (await s.users.desdemona.client.post("/parley/backups")).error("A backup was made this very second; try again in a moment.", "BAD_REQUEST", 409);
    expect(readdirSync(backupsDir())).toEqual(before);
  });

  test("backups beyond [backup] keep are pruned, oldest first", async () => {
    const names: string[] = [];
    for (let i = 0; i < 2; i++) {
      s.clock.advance(60_000);
      names.push((await s.users.desdemona.client.post("/parley/backups")).success().backup.name);
    }
    expect(readdirSync(backupsDir()).sort()).toEqual(names.sort());
  });
});

describe("downloading the newest archive", () => {
  test("the owner downloads the newest archive as an attachment, and it restores to the same messages", async () => {
    const latest = (await s.users.desdemona.client.get("/parley/server")).success().backups.latest;
    const r = await s.users.desdemona.client.request("GET", "/parley/backups/latest");
    expect(r.status).toBe(200);
    expect(r.header("content-type")).toBe("application/gzip");
    expect(r.header("content-disposition")).toStartWith(`attachment; filename="${latest.name}"`);
    const body = new Uint8Array(await (await s.server.handle(new Request("http://parley.test/api/v1/parley/backups/latest", { headers: { authorization: "Basic " + btoa(`${s.users.desdemona.email}:${s.users.desdemona.apiKey}`) } }))).arrayBuffer());
    expect(body.length).toBe(latest.size);
    const file = join(scratch, latest.name);
    writeFileSync(file, body);
    const manifest = await restoreBackup(file, join(scratch, "restored"));
    expect(manifest.counts.messages).toBeGreaterThanOrEqual(1);
    expect(existsSync(join(scratch, "restored", "parley.db"))).toBe(true);
  });

  test("administrators, members and guests may not download it", async () => {
    for (const name of ["iago", "hamlet", "polonius"] as const) {
      (await s.users[name].client.get("/parley/backups/latest")).error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL", 400);
    }
  });
});

describe("with automatic backups set up", () => {
  test("the page names [backup] dir, and a backup on request goes there beside the automatic ones", async () => {
    const dir = join(scratch, "auto");
    const t = await startServer({ config: (c) => Object.assign(c.backup, { dir, every_hours: 6, keep: 3 }) });
    try {
      const facts = (await t.users.desdemona.client.get("/parley/server")).success();
      expect(facts.backups).toMatchObject({ dir, automatic: true, every_hours: 6, keep: 3, latest: null });
      const made = (await t.users.desdemona.client.post("/parley/backups")).success().backup;
      expect(readdirSync(dir)).toEqual([made.name]);
      expect((await t.users.desdemona.client.get("/parley/server")).success().backups.latest).toEqual(made);
    } finally {
      await t.close();
    }
  });
});
