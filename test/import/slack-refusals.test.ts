import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importSlack } from "../../src/import/slack/import";
import { ImportError } from "../../src/import/common/problems";
import { channel, message, user, writeSlackZip, type SlackExport } from "./slack-export";
import { importConfig, openImported } from "./open-imported";

const root = mkdtempSync(join(tmpdir(), "parley-slack-refusals-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const fresh = () => join(root, `case-${++n}`);

const small = (extra: Partial<SlackExport> = {}): SlackExport => ({
  users: [user("U01", "ada", "Ada Lovelace", "ada@example.com", { is_primary_owner: true, is_owner: true }), user("U02", "bob", "Bob Builder", "bob@example.com")],
  channels: [channel("C01", "general", ["U01", "U02"])],
  days: { "general/2024-01-01.json": [message("U01", "1704067260.000100", "hello"), message("U02", "1704067320.000200", "hi")] },
  ...extra,
});

async function refused(zip: string, dataDir: string, expected: RegExp): Promise<string> {
  let error: unknown;
  try {
    await importSlack(importConfig(dataDir), { zip, log: () => {} });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ImportError);
  expect((error as Error).message).toMatch(expected);
  return (error as Error).message;
}

const leftovers = () => readdirSync(root).filter((f) => f.includes("import-in-progress"));

describe("refusals", () => {
  test("a data dir that is not empty is refused and left exactly as it was", async () => {
    const zip = join(root, "ok.zip");
    writeSlackZip(zip, small());
    const dir = fresh();
    mkdirSync(dir);
    writeFileSync(join(dir, "keep.txt"), "mine");
    await refused(zip, dir, /is not empty \(it holds keep\.txt\); an import needs an empty or new data dir; nothing was changed/);
    expect(readdirSync(dir)).toEqual(["keep.txt"]);
    expect(leftovers()).toEqual([]);
  });

  test("a file that is not a zip is refused, and no data dir is made", async () => {
    const zip = join(root, "corrupt.zip");
    writeFileSync(zip, "this is not a zip archive at all");
    const dir = fresh();
    await refused(zip, dir, /corrupt\.zip is not a readable zip archive/);
    expect(existsSync(dir)).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  test("an export without users.json is refused naming the file", async () => {
    const zip = join(root, "no-users.zip");
    writeSlackZip(zip, small({ omit: ["users.json"] }));
    const dir = fresh();
    await refused(zip, dir, /users\.json is missing; is this a Slack export\?/);
    expect(existsSync(dir)).toBe(false);
  });

  test("a list file that is not JSON is refused naming it", async () => {
    const zip = join(root, "bad-channels.zip");
    writeSlackZip(zip, small({ omit: ["channels.json"], raw: { "channels.json": "[{" } }));
    await refused(zip, fresh(), /channels\.json is not valid JSON/);
  });

  test("a person without an id is refused naming the file and the item", async () => {
    const zip = join(root, "bad-user.zip");
    writeSlackZip(zip, small({ users: [user("U01", "ada", "Ada", "ada@example.com", { is_owner: true }), { name: "ghost" }] }));
    await refused(zip, fresh(), /users\.json: item 2 has no id/);
  });

  test("a failure midway (a damaged day file after others were written) leaves nothing behind", async () => {
    const zip = join(root, "midway.zip");
    writeSlackZip(zip, small({ raw: { "general/2024-01-02.json": "[{\"type\": \"message\", " } }));
    const dir = fresh();
    await refused(zip, dir, /general\/2024-01-02\.json is not valid JSON/);
    expect(existsSync(dir)).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  test("a zip entry whose bytes do not match its checksum is refused naming the entry", async () => {
    const { zipSync, strToU8 } = await import("fflate");
    const e = small();
    const files: Record<string, Uint8Array> = {
      "users.json": strToU8(JSON.stringify(e.users)),
      "channels.json": strToU8(JSON.stringify(e.channels)),
      "general/2024-01-01.json": strToU8(JSON.stringify([message("U01", "1704067260.000100", "MARKER-TEXT")])),
    };
    const bytes = zipSync(files, { level: 0 });
    const at = Buffer.from(bytes).indexOf("MARKER-TEXT");
    bytes[at] = "N".charCodeAt(0); // the stored bytes change, the directory's CRC-32 does not
    const zip = join(root, "flipped.zip");
    writeFileSync(zip, bytes);
    const dir = fresh();
    await refused(zip, dir, /general\/2024-01-01\.json cannot be read \(its checksum does not match\)/);
    expect(existsSync(dir)).toBe(false);
  });

  test("a crashed import's leftover build is cleared by the next run, which succeeds", async () => {
    const zip = join(root, "ok2.zip");
    writeSlackZip(zip, small());
    const dir = fresh();
    const leftover = join(root, `.${dir.split("/").pop()}.import-in-progress`);
    mkdirSync(leftover);
    writeFileSync(join(leftover, "parley.db"), "half written");
    const result = await importSlack(importConfig(dir), { zip, log: () => {} });
    expect(result.totals.messages).toBe(2);
    expect(existsSync(leftover)).toBe(false);
    expect(readdirSync(dir)).toContain("parley.db");
    expect(readdirSync(dir)).toContain("zuliprc");
    const imported = await openImported(dir);
    try {
      expect(await imported.app.db.get("SELECT count(*) AS n FROM messages")).toEqual({ n: 2 });
    } finally {
      await imported.close();
    }
  });

  test("the command prints one line, not a stack trace, and exits 1", () => {
    const zip = join(root, "corrupt2.zip");
    writeFileSync(zip, "nope");
    const dir = fresh();
    const run = Bun.spawnSync([process.execPath, "src/main.ts", "import", "slack", zip, "--data-dir", dir], { cwd: join(import.meta.dir, "../.."), env: { ...process.env, PARLEY_CONFIG: "" } });
    const err = run.stderr.toString();
    expect(run.exitCode).toBe(1);
    expect(err.trim().split("\n")).toEqual([expect.stringMatching(/^parley: import failed: .*corrupt2\.zip is not a readable zip archive/)]);
    expect(err).not.toContain("    at ");
    expect(existsSync(dir)).toBe(false);
  });
});

describe("without a token", () => {
  test("files stay links to Slack, and the summary says how many were left behind", async () => {
    const zip = join(root, "files.zip");
    const file = { id: "F1", name: "a.txt", title: "A file", mimetype: "text/plain", url_private: "https://files.slack.com/files-pri/T1-F1/a.txt", size: 3 };
    writeSlackZip(zip, small({ days: { "general/2024-01-01.json": [message("U01", "1704067260.000100", "see file", { files: [file] })] } }));
    const dir = fresh();
    const result = await importSlack(importConfig(dir), { zip, log: () => {} });
    expect(result.totals.files).toBe(0);
    expect(result.summary).toContain("1 files were left on Slack: their messages link to Slack's copies. Run the import again with --token to bring them in.");
    const imported = await openImported(dir);
    try {
      const ada = await imported.as("ada@example.com");
      const { messages } = (await ada.get("/messages", { anchor: "oldest", num_before: 0, num_after: 10 })).success();
      expect(messages[0].content).toBe('<p>see file<br>\n<a href="https://files.slack.com/files-pri/T1-F1/a.txt">A file</a></p>');
    } finally {
      await imported.close();
    }
  }, 30_000);

  test("downloads refuse addresses that are not public unless the config allows them", async () => {
    const { Downloader } = await import("../../src/import/common/download");
    const d = new Downloader({ cacheDir: join(root, "dl"), maxBytes: 1000, tries: 1 });
    await expect(d.fetch("https://127.0.0.1/x")).rejects.toThrow("refusing to download: 127.0.0.1 is not a public address");
    await expect(d.fetch("https://[::1]/x")).rejects.toThrow("is not a public address");
    await expect(d.fetch("https://10.1.2.3/x")).rejects.toThrow("is not a public address");
    await expect(d.fetch("http://example.com/x")).rejects.toThrow("refusing http:// (downloads are https only)");
    d.clear();
  });

  test("a download's redirects are followed here, each hop checked again, the token kept to its own host, and the body bounded", async () => {
    const { Downloader } = await import("../../src/import/common/download");
    const seen: { path: string; auth: string | null }[] = [];
    const host = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req): Response {
        const { pathname } = new URL(req.url);
        seen.push({ path: pathname, auth: req.headers.get("authorization") });
        if (pathname === "/start") return new Response(null, { status: 302, headers: { location: `http://localhost:${host.port}/file` } });
        if (pathname === "/loop") return new Response(null, { status: 302, headers: { location: "/loop" } });
        if (pathname === "/file") return new Response("the file");
        return new Response("x".repeat(2000));
      },
    });
    try {
      const d = new Downloader({ cacheDir: join(root, "dl-redirects"), maxBytes: 1000, tries: 1, allowPrivate: true, token: "secret" });
      const got = await d.fetch(`http://127.0.0.1:${host.port}/start`);
      expect(await Bun.file(got.path).text()).toBe("the file");
      expect(seen).toEqual([{ path: "/start", auth: "Bearer secret" }, { path: "/file", auth: null }]);
      await expect(d.fetch(`http://127.0.0.1:${host.port}/loop`)).rejects.toThrow("too many redirects");
      await expect(d.fetch(`http://127.0.0.1:${host.port}/big`)).rejects.toThrow("larger than the upload limit (1000 bytes)");
      // without allowPrivate the same start is refused before any request
      seen.length = 0;
      const strict = new Downloader({ cacheDir: join(root, "dl-strict"), maxBytes: 1000, tries: 1 });
      await expect(strict.fetch(`https://localhost:${host.port}/start`)).rejects.toThrow(/^refusing to download: localhost resolves to (127\.0\.0\.1|::1), not a public address$/);
      expect(seen).toEqual([]);
      d.clear();
      strict.clear();
    } finally {
      host.stop(true);
    }
  });
});
