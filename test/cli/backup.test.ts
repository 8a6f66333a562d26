// parley backup / parley restore as an operator runs them: a real server process serves and takes
// messages while another process writes the archive; the archive is restored into a new data dir, a
// second server serves that, and everything the first one had at the snapshot is there.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePng, makeAnimatedGif } from "../helpers/uploads";
import { MIGRATIONS } from "../../src/store/migrations";

const MAIN = join(import.meta.dir, "../../src/main.ts");
const root = mkdtempSync(join(tmpdir(), "parley-backup-"));
const env = { ...process.env, PARLEY_CONFIG: "" };
// the sender below posts as fast as the server answers: no rate limit for these servers
const unlimited = join(root, "unlimited.toml");
writeFileSync(unlimited, "[rate_limit]\nrequests_per_minute = 0\nunauthenticated_per_minute = 0\n");

function run(args: string[]) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { env, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** A `parley serve` process on a data dir; resolves once it answers. */
async function serve(dir: string) {
  const port = freePort();
  const proc = Bun.spawn([process.execPath, MAIN, "serve", "--config", unlimited, "--data-dir", dir, "--port", String(port)], { env, stdout: "pipe", stderr: "pipe" });
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      await fetch(`${base}/api/v1/server_settings`);
      break;
    } catch {
      if (Date.now() > until) throw new Error("the server did not start");
      await Bun.sleep(50);
    }
  }
  return {
    base,
    async stop() {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    },
  };
}

type Server = Awaited<ReturnType<typeof serve>>;

let auth: Record<string, string>;
let live: Server;
const dataDir = join(root, "live");
const uploads: { url: string; bytes: Uint8Array<ArrayBuffer>; image: boolean }[] = [];
let emojiUrl = "";

const api = async (server: Server, method: string, path: string, body?: Record<string, unknown> | FormData) => {
  const init: RequestInit = { method, headers: { ...auth } };
  if (body instanceof FormData) init.body = body;
  else if (body) init.body = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  const r = await fetch(`${server.base}/api/v1${path}`, init);
  const json = (await r.json()) as any;
  if (json.result !== "success") throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json;
};
const raw = (server: Server, path: string) => fetch(`${server.base}${path}`, { headers: auth });

beforeAll(async () => {
  const init = JSON.parse(run(["init", "--data-dir", dataDir, "--org-name", "Backup Co", "--email", "owner@backup.test", "--full-name", "Owner", "--zuliprc", join(dataDir, "zuliprc")]).out);
  auth = { authorization: "Basic " + btoa(`owner@backup.test:${init.api_key}`) };
  live = await serve(dataDir);
  await api(live, "POST", "/users", { email: "ann@backup.test", password: "pw-ann-123456", full_name: "Ann" });
  await api(live, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "general" }, { name: "photos", description: "pictures" }] });
  // images (thumbnailed in the background), a larger file of random bytes, and a custom emoji
  const files = [
    new File([(await makePng(900, 700, "#aa3366")) as BlobPart], "red.png", { type: "image/png" }),
    new File([(await makeAnimatedGif(120, 90, 3)) as BlobPart], "blink.gif", { type: "image/gif" }),
    new File([randomBytes(6 * 1024 * 1024) as BlobPart], "big.bin", { type: "application/octet-stream" }),
  ];
  for (const file of files) {
    const form = new FormData();
    form.append("file", file);
    const { url } = await api(live, "POST", "/user_uploads", form);
    uploads.push({ url, bytes: new Uint8Array(await file.arrayBuffer()), image: file.type.startsWith("image/") });
    const { id } = await api(live, "POST", "/messages", { type: "stream", to: "photos", topic: "files", content: `[${file.name}](${url})` });
    await api(live, "POST", `/messages/${id}/reactions`, { emoji_name: "tada" });
  }
  const emoji = new FormData();
  emoji.append("file", new File([(await makePng(64, 64, "#22aa22")) as BlobPart], "ok.png", { type: "image/png" }));
  await api(live, "POST", "/realm/emoji/green_ok", emoji);
  emojiUrl = Object.values((await api(live, "GET", "/realm/emoji")).emoji as Record<string, any>).find((e) => e.name === "green_ok").source_url;
  await api(live, "POST", "/messages", { type: "private", to: JSON.stringify(["ann@backup.test"]), content: "a private word" });
  // thumbnails are made in the background: wait until each image's is served
  for (const u of uploads.filter((u) => u.image)) {
    const until = Date.now() + 10_000;
    while ((await raw(live, thumbnailPath(u.url))).status !== 200) {
      if (Date.now() > until) throw new Error(`no thumbnail for ${u.url}`);
      await Bun.sleep(50);
    }
  }
}, 60_000);

afterAll(async () => {
  await live?.stop().catch(() => {});
  rmSync(root, { recursive: true, force: true });
});

const thumbnailPath = (url: string) => url.replace("/user_uploads/", "/user_uploads/thumbnail/") + "/840x560.webp";
const allMessages = async (server: Server) =>
  (await api(server, "GET", `/messages?${new URLSearchParams({ anchor: "newest", num_before: "5000", num_after: "0" })}`)).messages as any[];

describe("parley backup while the server takes messages, then parley restore", () => {
  test("the restored data dir serves the same messages, users, channels, uploads, thumbnails and emoji", async () => {
    const before = await allMessages(live);
    // a sender that keeps posting until the backup process has exited
    let sending = true;
    const sent: { id: number; at: number }[] = [];
    const sender = (async () => {
      for (let i = 0; sending; i++) {
        const { id } = await api(live, "POST", "/messages", { type: "stream", to: "general", topic: "busy", content: `message ${i} during the backup` });
        sent.push({ id, at: performance.now() });
      }
    })();
    await Bun.sleep(100); // the sender is well under way
    const archive = join(root, "live.tar.gz");
    const started = performance.now();
    const proc = Bun.spawn([process.execPath, MAIN, "backup", "--data-dir", dataDir, "--to", archive], { env, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const ended = performance.now();
    sending = false;
    await sender;
    expect(err).toBe("");
    expect(code).toBe(0);
    // the server kept answering while the backup ran
    expect(sent.filter((s) => s.at > started && s.at < ended).length).toBeGreaterThan(0);
    const report = JSON.parse(out);
    expect(report).toMatchObject({ backup: archive, schema_version: Math.max(...MIGRATIONS.map((m) => m.version)) });
    expect(report.counts).toMatchObject({ users: 2, channels: 2, attachments: 3, custom_emoji: 1, reactions: 3 });
    expect((statSync(archive).mode & 0o777).toString(8)).toBe("600");

    // an ordinary tar reads it: a data dir layout plus the manifest
    const listing = Bun.spawnSync(["tar", "tzf", archive]).stdout.toString().split("\n");
    expect(listing).toContain("parley-data/parley.db");
    expect(listing).toContain("parley-data/zuliprc");
    expect(listing).toContain("parley-data/backup-manifest.json");
    // every file under uploads/ (files, thumbnails, emoji), none of the work-in-progress folders
    const onDisk = (readdirSync(join(dataDir, "uploads"), { recursive: true }) as string[])
      .filter((p) => statSync(join(dataDir, "uploads", p)).isFile() && !/^(tmp|tus)\//.test(p))
      .map((p) => `parley-data/uploads/${p}`);
    expect(onDisk.filter((p) => p.includes("/thumbnail/")).length).toBeGreaterThanOrEqual(2);
    expect(onDisk.filter((p) => p.includes("/emoji/")).length).toBe(1);
    expect(listing.filter((n) => n.startsWith("parley-data/uploads/")).sort()).toEqual(onDisk.sort());

    const restoredDir = join(root, "restored");
    const restored = run(["restore", archive, "--data-dir", restoredDir]);
    expect(restored.err).toBe("");
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.out)).toMatchObject({ restored: restoredDir, counts: report.counts });
    expect(readdirSync(restoredDir).sort()).toEqual(["parley.db", "uploads", "vapid.json", "zuliprc"]);
    // the Web Push key pair comes back as it was, private: browsers' subscriptions keep working
    expect(readFileSync(join(restoredDir, "vapid.json"), "utf8")).toBe(readFileSync(join(dataDir, "vapid.json"), "utf8"));
    expect(statSync(join(restoredDir, "vapid.json")).mode & 0o777).toBe(0o600);

    const copy = await serve(restoredDir);
    try {
      const got = await allMessages(copy);
      const newest = got.at(-1).id;
      // a consistent snapshot: exactly the messages up to some point, nothing torn
      expect(got).toEqual((await allMessages(live)).filter((m) => m.id <= newest));
      expect(got.length).toBeGreaterThanOrEqual(before.length);
      expect(got.map((m) => m.id)).toEqual(expect.arrayContaining(before.map((m: any) => m.id)));
      const db = new Database(join(restoredDir, "parley.db"), { readonly: true });
      expect(db.query("SELECT count(*) AS n FROM messages").get()).toEqual({ n: report.counts.messages });
      db.close();
      expect(got.find((m) => m.content.includes("a private word"))).toBeTruthy();
      // search finds the same (the copy's full-text index catches up with what the snapshot had not indexed)
      const search = async (server: Server) =>
        (await api(server, "GET", `/messages?${new URLSearchParams({ anchor: "newest", num_before: "5000", num_after: "0", narrow: JSON.stringify([{ operator: "search", operand: "backup" }]) })}`)).messages
          .map((m: any) => m.id)
          .filter((id: number) => id <= newest);
      const found = await search(copy);
      expect(found.length).toBeGreaterThan(0);
      expect(found).toEqual(await search(live));
      expect(got.filter((m) => m.reactions.length === 1)).toHaveLength(3);

      expect((await api(copy, "GET", "/users")).members).toEqual((await api(live, "GET", "/users")).members);
      expect((await api(copy, "GET", "/streams")).streams).toEqual((await api(live, "GET", "/streams")).streams);
      expect((await api(copy, "GET", "/users/me/subscriptions")).subscriptions).toEqual((await api(live, "GET", "/users/me/subscriptions")).subscriptions);
      expect((await api(copy, "GET", "/attachments")).attachments).toEqual((await api(live, "GET", "/attachments")).attachments);
      for (const u of uploads) {
        const r = await raw(copy, u.url);
        expect(r.status).toBe(200);
        expect(new Uint8Array(await r.arrayBuffer())).toEqual(u.bytes);
        if (!u.image) continue;
        const [a, b] = await Promise.all([raw(copy, thumbnailPath(u.url)), raw(live, thumbnailPath(u.url))]);
        expect(a.status).toBe(200);
        expect(new Uint8Array(await a.arrayBuffer())).toEqual(new Uint8Array(await b.arrayBuffer()));
      }
      const [ea, eb] = await Promise.all([raw(copy, emojiUrl), raw(live, emojiUrl)]);
      expect(ea.status).toBe(200);
      expect(new Uint8Array(await ea.arrayBuffer())).toEqual(new Uint8Array(await eb.arrayBuffer()));
      // and it takes new messages
      const { id } = await api(copy, "POST", "/messages", { type: "stream", to: "general", topic: "after", content: "restored and running" });
      expect(id).toBeGreaterThan(newest);
    } finally {
      await copy.stop();
    }
  }, 90_000);
});

describe("parley restore refuses, and leaves nothing behind", () => {
  let tar = ""; // a plain (uncompressed) archive of the live server, so bytes can be changed in place
  const fresh = (name: string) => join(root, name);
  beforeAll(() => {
    tar = join(root, "plain.tar");
    const r = run(["backup", "--data-dir", dataDir, "--to", tar]);
    expect(r.code).toBe(0);
    expect(Bun.spawnSync(["tar", "tf", tar]).exitCode).toBe(0);
  }, 30_000);

  test("a data dir that is not empty", () => {
    const dir = fresh("not-empty");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "mine");
    const r = run(["restore", tar, "--data-dir", dir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${dir} is not empty (it has notes.txt)`);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
  });

  test("an empty existing folder is fine, and is the data dir afterwards", () => {
    const dir = fresh("empty");
    mkdirSync(dir);
    expect(run(["restore", tar, "--data-dir", dir]).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["parley.db", "uploads", "vapid.json", "zuliprc"]);
  });

  test("an archive whose file does not match its checksum", () => {
    const bytes = readFileSync(tar);
    const big = uploads.find((u) => !u.image)!.bytes;
    const at = bytes.indexOf(Buffer.from(big.subarray(0, 64)));
    expect(at).toBeGreaterThan(0);
    bytes[at + 1000] ^= 0xff;
    const damaged = join(root, "damaged.tar");
    writeFileSync(damaged, bytes);
    const dir = fresh("from-damaged");
    const r = run(["restore", damaged, "--data-dir", dir]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/is not a Parley backup or is damaged: checksum mismatch for uploads\/.*big\.bin; nothing was restored/);
    expect(existsSync(dir)).toBe(false);
  });

  test("a truncated archive", () => {
    const cut = join(root, "cut.tar");
    writeFileSync(cut, readFileSync(tar).subarray(0, 1_000_000));
    const dir = fresh("from-cut");
    mkdirSync(dir);
    const r = run(["restore", cut, "--data-dir", dir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("is not a Parley backup or is damaged");
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a file that is not an archive, and a tar archive that is not a Parley backup", () => {
    const junk = join(root, "junk.tar.gz");
    writeFileSync(junk, randomBytes(4096));
    const r = run(["restore", junk, "--data-dir", fresh("from-junk")]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${junk} is not a Parley backup or is damaged: not a tar archive; nothing was restored`);
    expect(existsSync(fresh("from-junk"))).toBe(false);

    const other = join(root, "other");
    mkdirSync(other);
    writeFileSync(join(other, "readme.txt"), "hello");
    const otherTar = join(root, "other.tar");
    expect(Bun.spawnSync(["tar", "cf", otherTar, "-C", other, "readme.txt"]).exitCode).toBe(0);
    const o = run(["restore", otherTar, "--data-dir", fresh("from-other")]);
    expect(o.code).toBe(1);
    expect(o.err).toContain("unexpected entry 'readme.txt'");
    expect(existsSync(fresh("from-other"))).toBe(false);
  });

  test("a missing archive, or no archive named, or an existing --to", () => {
    const missing = run(["restore", join(root, "nope.tar"), "--data-dir", fresh("from-nothing")]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("no such file");
    const none = run(["restore", "--data-dir", fresh("from-nothing")]);
    expect(none.code).toBe(2);
    expect(none.err).toContain("restore needs the archive");
    expect(run(["backup", "--data-dir", dataDir, "--to", tar]).code).toBe(2);
    expect(existsSync(fresh("from-nothing"))).toBe(false);
  });
});
