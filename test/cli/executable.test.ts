// The single executable: built with build/compile.ts, copied ALONE into an empty folder under /tmp (no
// node_modules anywhere above it, so nothing can be found by walking up the tree), then run as an operator
// would: --version, init, serve, a few requests, SIGTERM.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, copyFileSync, symlinkSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PARLEY_VERSION, ZULIP_FEATURE_LEVEL } from "../../src/domain/version";
import { loadSharp } from "../../src/uploads/sharp";
import { assertNoNodeModulesAbove, buildExecutable, chatSession, freePort, ROOT, stop, waitUntilServing } from "../helpers/executable";

let root: string; // /tmp/parley-exe-XXXX
let exe: string; // root/bin/parley, the only file in root/bin
let home: string; // HOME of the runs: the native cache lands in home/.cache/parley
let buildMs = 0;

/** A small, fixed environment: nothing inherited from the test runner (no NODE_PATH, BUN_*, TMPDIR...). */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8", ...extra };
}

async function run(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const p = Bun.spawn([exe, ...args], { cwd: opts.cwd ?? root, env: env(opts.env), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

/** Logs in through the login form and returns the Cookie header the browser would then send. */
async function sessionCookie(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/login`, { method: "POST", redirect: "manual", body: new URLSearchParams({ username: email, password }) });
  expect(res.status).toBe(303);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

beforeAll(async () => {
  root = mkdtempSync("/tmp/parley-exe-");
  assertNoNodeModulesAbove(root);
  home = join(root, "home");
  mkdirSync(home);
  mkdirSync(join(root, "bin"));
  exe = join(root, "bin", "parley");
  // Build through the same script `npm run build` runs, into a scratch file, then copy the executable alone.
  const started = performance.now();
  buildExecutable(exe);
  buildMs = performance.now() - started;
  mkdirSync(join(root, "probe"));
  buildExecutable(join(root, "probe", "native-probe"), { entry: join(ROOT, "build/native-probe.ts") });
}, 180_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("the single executable", () => {
  test("builds in well under a minute and lies alone in its folder", () => {
    expect(buildMs).toBeLessThan(60_000);
    expect(readdirSync(join(root, "bin"))).toEqual(["parley"]);
    expect(statSync(exe).size).toBeGreaterThan(50 * 1024 * 1024); // Bun itself plus the native parts
  });

  test("the embedded libSQL driver and sharp with libvips load from a private cache folder, not from $TMPDIR", () => {
    // build/native-probe.ts is compiled with the same plugin; it opens a database and makes a thumbnail.
    const cacheHome = join(root, "probe-cache");
    const p = Bun.spawnSync([join(root, "probe", "native-probe")], {
      cwd: join(root, "probe"),
      env: env({ XDG_CACHE_HOME: cacheHome, TMPDIR: join(root, "no-such-dir") }),
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(p.stderr.toString()).toBe("");
    expect(p.exitCode).toBe(0);
    const out = JSON.parse(p.stdout.toString());
    expect(out).toEqual({ sqlite: expect.stringMatching(/^3\./), vips: expect.stringMatching(/^8\./), embeddedLibvips: true, thumb: ["webp", 16, 12] });
    const dir = join(cacheHome, "parley", "native");
    expect(statSync(join(cacheHome, "parley")).mode & 0o777).toBe(0o700);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dir);
    expect(files.map((f) => f.replace(/^[0-9a-f]{16}-/, "")).sort()).toEqual(["index.node", `libvips-cpp.so.${out.vips}`, expect.stringMatching(/^sharp-linux-x64-.*\.node$/)]);
    for (const f of files) expect(statSync(join(dir, f)).mode & 0o077).toBe(0);
  });

  test("refuses a native cache folder that another user could have planted (a symlink, or someone else's folder)", () => {
    const probe = (cacheHome: string) =>
      Bun.spawnSync([join(root, "probe", "native-probe")], { cwd: root, env: env({ XDG_CACHE_HOME: cacheHome }), stderr: "pipe" });
    const linked = join(root, "linked");
    mkdirSync(join(linked, "elsewhere"), { recursive: true, mode: 0o700 });
    symlinkSync(join(linked, "elsewhere"), join(linked, "parley"));
    const p = probe(linked);
    expect(p.exitCode).not.toBe(0);
    expect(p.stderr.toString()).toContain("refusing native cache folder");
    expect(readdirSync(join(linked, "elsewhere"))).toEqual([]);
    if (process.getuid?.() === 0) {
      const foreign = join(root, "foreign");
      mkdirSync(join(foreign, "parley"), { recursive: true });
      chownSync(join(foreign, "parley"), 65534, 65534);
      const q = probe(foreign);
      expect(q.exitCode).not.toBe(0);
      expect(q.stderr.toString()).toContain("refusing native cache folder");
    }
  });

  test("--version prints Parley's version and the Zulip feature level", async () => {
    const r = await run(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(new RegExp(`^parley ${PARLEY_VERSION.replaceAll(".", "\\.")} \\(Zulip .* API, feature level ${ZULIP_FEATURE_LEVEL}\\)$`));
  });

  test("ignores .env and bunfig.toml in the folder it is started from", async () => {
    const cwd = join(root, "hostile");
    mkdirSync(cwd);
    writeFileSync(join(cwd, ".env"), `PARLEY_DATA_DIR=${join(root, "from-dotenv")}\n`);
    writeFileSync(join(cwd, "bunfig.toml"), `preload = ["./does-not-exist.ts"]\n`);
    const r = await run(["init", "--org-name", "Dotenv", "--email", "x@example.com", "--full-name", "X"], { cwd });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(existsSync(join(cwd, "parley-data", "parley.db"))).toBe(true);
    expect(existsSync(join(root, "from-dotenv"))).toBe(false);
  });

  test("with no arguments (a double-click) it serves and keeps its data in parley-data beside the executable", async () => {
    const stick = join(root, "usb-stick");
    mkdirSync(stick);
    copyFileSync(exe, join(stick, "parley"));
    chmodSync(join(stick, "parley"), 0o755);
    const elsewhere = join(root, "double-click-cwd");
    mkdirSync(elsewhere);
    const port = freePort();
    // no DISPLAY in this environment: no browser is opened
    const server = Bun.spawn([join(stick, "parley")], { cwd: elsewhere, env: env({ PARLEY_PORT: String(port) }), stdout: "pipe", stderr: "pipe" });
    let code: number | "timeout";
    try {
      await waitUntilServing(`http://127.0.0.1:${port}`, server, 10_000);
    } finally {
      code = await stop(server);
    }
    expect(code).toBe(0);
    const out = await new Response(server.stdout).text();
    expect(out).toContain(`data in ${join(stick, "parley-data")})`);
    expect(out).toContain("Log in as: admin@parley.localhost");
    expect(readdirSync(join(stick, "parley-data")).sort()).toEqual(expect.arrayContaining(["first-login.txt", "parley.db", "zuliprc"]));
    expect(readdirSync(elsewhere)).toEqual([]);
  }, 30_000);

  test("init, serve, send, upload and thumbnail, then a clean stop on SIGTERM, with TMPDIR pointing nowhere", async () => {
    const data = join(root, "data");
    const noTmp = { TMPDIR: join(root, "no-such-dir"), BUN_TMPDIR: join(root, "no-such-dir") };
    const init = await run(["init", "--data-dir", data, "--org-name", "Exe Test", "--email", "owner@example.com", "--full-name", "Owner", "--password", "correct horse"], { env: noTmp });
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    const owner = JSON.parse(init.stdout) as { user_id: number; email: string; api_key: string };

    // The embedded libSQL driver went to a private cache folder, not to $TMPDIR.
    const cache = join(home, ".cache", "parley", "native");
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(readdirSync(cache).some((f) => f.endsWith("-index.node"))).toBe(true);

    const port = freePort();
    const started = performance.now();
    const server = Bun.spawn([exe, "serve", "--data-dir", data, "--port", String(port)], { cwd: root, env: env(noTmp), stdout: "pipe", stderr: "pipe" });
    const base = `http://127.0.0.1:${port}`;
    let code: number | "timeout";
    try {
      const startMs = await waitUntilServing(base, server, 10_000);
      expect(startMs).toBeLessThan(5_000);

      const settings = (await (await fetch(`${base}/api/v1/server_settings`)).json()) as any;
      expect(settings.result).toBe("success");
      expect(settings.zulip_feature_level).toBe(ZULIP_FEATURE_LEVEL);

      const auth = { Authorization: `Basic ${btoa(`${owner.email}:${owner.api_key}`)}` };
      const me = (await (await fetch(`${base}/api/v1/users/me`, { headers: auth })).json()) as any;
      expect(me).toMatchObject({ result: "success", user_id: owner.user_id, email: owner.email });

      // The web app is embedded too, bundled at build time: the login page, and once logged in the
      // app's page, its hashed script and stylesheet, all served from memory with nothing beside the file.
      const login = await fetch(`${base}/`);
      expect(login.status).toBe(200);
      expect(await login.text()).toContain('<form method="post" action="/login"');
      const appPage = await fetch(`${base}/`, { headers: { cookie: await sessionCookie(base, owner.email, "correct horse") } });
      const html = await appPage.text();
      expect(html).toContain("<title>Parley</title>");
      // the inline start-up script (/register sent while the bundle loads) is allowed by its hash, kept in the embedded build
      expect(appPage.headers.get("content-security-policy")).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
      const files = [...html.matchAll(/(?:href|src)="(\/static\/[^"]+)"/g)].map((m) => m[1]!);
      expect(files.some((f) => /^\/static\/main-[a-z0-9]+\.js$/.test(f))).toBe(true);
      for (const f of files) {
        const res = await fetch(`${base}${f}`);
        expect({ f, status: res.status, cache: res.headers.get("cache-control") }).toEqual({ f, status: 200, cache: "public, max-age=31536000, immutable" });
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
      }
      // the Google emoji sheet, embedded as a file of its own: named by the chunk the app loads on first use, served whole
      const mainJs = files.find((f) => /^\/static\/main-[a-z0-9]+\.js$/.test(f))!;
      const sheetChunk = /emoji-sheet-[a-z0-9]+\.js/.exec(await (await fetch(`${base}${mainJs}`)).text())![0];
      const sheetName = /emoji-sheet-google-64-[a-z0-9]+\.png/.exec(await (await fetch(`${base}/static/${sheetChunk}`)).text())![0];
      const sheet = await fetch(`${base}/static/${sheetName}`);
      expect({ status: sheet.status, type: sheet.headers.get("content-type"), cache: sheet.headers.get("cache-control") }).toEqual({ status: 200, type: "image/png", cache: "public, max-age=31536000, immutable" });
      expect(Buffer.from(await sheet.arrayBuffer()).equals(readFileSync(join(ROOT, "assets/app/images/emoji-sheet-google-64.png")))).toBe(true);
      // the installable app: its manifest (icons embedded as PNG) and the service worker at the root
      const manifest = (await (await fetch(`${base}/manifest.webmanifest`)).json()) as { icons: { src: string }[] };
      for (const icon of manifest.icons) {
        const res = await fetch(`${base}${icon.src}`);
        expect({ src: icon.src, status: res.status, type: res.headers.get("content-type") }).toEqual({ src: icon.src, status: 200, type: "image/png" });
      }
      const sw = await fetch(`${base}/sw.js`);
      expect(sw.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(await sw.text()).toContain("parley-shell-");

      // Send, read back, upload an image; the server thumbnails it with the embedded sharp + libvips.
      const { messageId } = await chatSession(base, owner);
      expect(readdirSync(cache).some((f) => f.includes("libvips-cpp.so"))).toBe(true);

      // Zulip's emoji table is embedded: a reaction by Zulip's alias, and the emoji data /register names.
      const reacted = await fetch(`${base}/api/v1/messages/${messageId}/reactions`, {
        method: "POST",
        headers: auth,
        body: new URLSearchParams({ emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" }),
      });
      expect(await reacted.json()).toMatchObject({ result: "success" });
      const registered = (await (await fetch(`${base}/api/v1/register`, { method: "POST", headers: auth, body: new URLSearchParams({ fetch_event_types: '["realm"]' }) })).json()) as any;
      expect(registered.server_emoji_data_url).toStartWith(`${base}/static/generated/emoji/emoji_api.`);
      const emojiData = (await (await fetch(registered.server_emoji_data_url)).json()) as any;
      expect(emojiData.code_to_names["1f44d"]).toEqual(["+1", "thumbs_up", "like"]);
      const zulipEmoji = await fetch(`${base}/static/generated/emoji/images/emoji/unicode/zulip.png`);
      expect([zulipEmoji.status, zulipEmoji.headers.get("content-type"), (await zulipEmoji.arrayBuffer()).byteLength]).toEqual([200, "image/png", statSync(join(ROOT, "assets/images/zulip-emoji.png")).size]);

      // an avatar, cropped by the embedded sharp, and the organization's default logo (Parley's mark, embedded)
      const form = new FormData();
      form.append("file", new File([(await (await loadSharp())({ create: { width: 300, height: 200, channels: 3, background: "#aa3366" } }).png().toBuffer()) as BlobPart], "me.png"));
      const avatar = (await (await fetch(`${base}/api/v1/users/me/avatar`, { method: "POST", headers: auth, body: form })).json()) as any;
      expect(avatar).toMatchObject({ result: "success" });
      const avatarImage = await (await loadSharp())(new Uint8Array(await (await fetch(`${base}${avatar.avatar_url}`)).arrayBuffer())).metadata();
      expect([avatarImage.format, avatarImage.width, avatarImage.height]).toEqual(["png", 100, 100]);
      const logo = await fetch(`${base}/static/images/logo/zulip-org-logo.svg`);
      expect([logo.status, logo.headers.get("content-type"), (await logo.text()).includes("<svg")]).toEqual([200, "image/svg+xml", true]);

      // backup while serving (the snapshot thread is embedded too), and restore
      const archive = join(root, "exe-backup.tar.gz");
      const backup = await run(["backup", "--data-dir", data, "--to", archive], { env: noTmp });
      expect(backup.stderr).toBe("");
      expect(backup.code).toBe(0);
      expect(JSON.parse(backup.stdout).counts).toMatchObject({ attachments: 1, users: 1 });
      const restored = await run(["restore", archive, "--data-dir", join(root, "exe-restored")], { env: noTmp });
      expect(restored.stderr).toBe("");
      expect(JSON.parse(restored.stdout).counts).toEqual(JSON.parse(backup.stdout).counts);
      console.log(
        `executable: built in ${(buildMs / 1000).toFixed(1)} s, ${(statSync(exe).size / 1048576).toFixed(1)} MiB, first answer after ${startMs.toFixed(0)} ms`,
      );
    } finally {
      code = await stop(server);
    }
    expect(code).toBe(0);
    expect(await new Response(server.stderr).text()).not.toMatch(/panic|segmentation fault|uncaught/i);
    // the clean stop folded the write-ahead log into parley.db: the file alone is the whole database
    expect(statSync(join(data, "parley.db-wal"), { throwIfNoEntry: false })?.size ?? 0).toBe(0);
  }, 60_000);
});
