// Desktop mode (`parley` with no command) and the one-server-per-data-dir lock, from source.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../helpers/executable";
import { runParley, startParley } from "../helpers/serve-process";

const root = mkdtempSync(join(tmpdir(), "parley-desktop-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  const d = join(root, `d${++n}`);
  mkdirSync(d);
  return d;
};

/** A fake xdg-open that records the address it was asked to open; and an environment with a display. */
function desktopSession() {
  const bin = fresh();
  const opened = join(bin, "opened.txt");
  writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\necho "$1" >> ${opened}\n`, { mode: 0o755 });
  // bun test sets NODE_ENV=test, which never opens a browser
  const env = { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ":99", NODE_ENV: undefined, PARLEY_DATA_DIR: undefined } as Record<string, string | undefined>;
  // the URLs opened so far, once `count` of them are written whole (the opener's shell creates the file before it writes the line)
  const lines = () => (existsSync(opened) ? readFileSync(opened, "utf8").split("\n").slice(0, -1) : []);
  const openedUrls = async (count = 1) => {
    for (let i = 0; i < 100 && lines().length < count; i++) await Bun.sleep(20);
    return lines();
  };
  return { env, opened, openedUrls };
}

describe("parley with no arguments (desktop mode)", () => {
  test("serves with the defaults from ./parley-data, creates the organization and prints the address and the login", async () => {
    const cwd = fresh();
    const port = freePort();
    const s = await startParley([], { cwd, env: { PARLEY_PORT: String(port), PARLEY_DATA_DIR: undefined } });
    try {
      expect(s.base).toBe(`http://127.0.0.1:${port}`);
      // the banner's last lines follow the "listening" line that startParley waits for
      for (const until = Date.now() + 5000; !s.stdout().includes("in your browser") && Date.now() < until; ) await Bun.sleep(10);
      const out = s.stdout();
      expect(out).toContain("Created organization 'Parley' with owner admin@parley.localhost, and the channel #general.");
      const password = /Password: +(\S+)/.exec(out)![1]!;
      expect(out).toContain(`Open http://127.0.0.1:${port} in your browser to use Parley.`);
      // the login is also kept in the data dir, for a start without a terminal to show it
      const loginFile = join(cwd, "parley-data", "first-login.txt");
      expect(out).toContain(`(The login is also in ${loginFile}.)`);
      expect(readFileSync(loginFile, "utf8")).toContain(`  Password:  ${password}\n`);
      expect(statSync(loginFile).mode & 0o777).toBe(0o600);
      // and the password works
      const login = await fetch(`${s.base}/api/v1/fetch_api_key`, { method: "POST", body: new URLSearchParams({ username: "admin@parley.localhost", password }) });
      expect(await login.json()).toMatchObject({ result: "success", email: "admin@parley.localhost" });
      expect(existsSync(join(cwd, "parley-data", "parley.db"))).toBe(true);
    } finally {
      expect(await s.stop()).toBe(0);
    }
    // a second start finds the organization: no new login, no new file
    rmSync(join(cwd, "parley-data", "first-login.txt"));
    const again = await startParley([], { cwd, env: { PARLEY_PORT: String(port), PARLEY_DATA_DIR: undefined } });
    expect(await again.stop()).toBe(0);
    expect(again.stdout()).not.toContain("Created organization");
    expect(existsSync(join(cwd, "parley-data", "first-login.txt"))).toBe(false);
  }, 30_000);

  test("opens the browser at the address where there is a display", async () => {
    const d = desktopSession();
    const s = await startParley(["--port", String(freePort())], { cwd: fresh(), env: d.env });
    try {
      expect(await d.openedUrls()).toEqual([s.base]);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 30_000);

  test("never opens a browser with --no-browser, without a display, or in tests", async () => {
    for (const [args, env] of [
      [["--no-browser"], {}],
      [[], { DISPLAY: undefined, WAYLAND_DISPLAY: undefined }],
      [[], { NODE_ENV: "test" }],
    ] as const) {
      const d = desktopSession();
      const s = await startParley([...args, "--port", String(freePort())], { cwd: fresh(), env: { ...d.env, ...env } });
      await Bun.sleep(300); // the opener is started right after the banner: give it time to show up
      expect(await s.stop()).toBe(0);
      expect(existsSync(d.opened)).toBe(false);
    }
  }, 30_000);

  test("a second double-click while it runs says so, exits 1, and shows the running one in the browser", async () => {
    const d = desktopSession();
    const cwd = fresh();
    const first = await startParley(["--port", String(freePort())], { cwd, env: d.env });
    try {
      expect(await d.openedUrls()).toEqual([first.base]);
      const second = runParley(["--port", String(freePort())], { cwd, env: d.env });
      expect(second.code).toBe(1);
      expect(second.err).toContain(`another Parley (process ${first.proc.pid}, serving ${first.base}) is already using the data dir ${join(cwd, "parley-data")}`);
      expect(await d.openedUrls(2)).toEqual([first.base, first.base]);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  }, 30_000);
});

describe("one server per data dir", () => {
  test("a second serve on the same data dir exits 1 naming the process and address of the first, and leaves it serving", async () => {
    const dir = fresh();
    const first = await startParley(["serve", "--data-dir", dir, "--port", String(freePort())]);
    try {
      const second = runParley(["serve", "--data-dir", dir, "--port", String(freePort())]);
      expect(second.code).toBe(1);
      expect(second.err.trim()).toBe(
        `parley: another Parley (process ${first.proc.pid}, serving ${first.base}) is already using the data dir ${dir}; stop it first, or choose another --data-dir`,
      );
      expect((await fetch(`${first.base}/api/v1/server_settings`)).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    // a clean stop takes the lock's note along
    expect(existsSync(join(dir, "parley.lock.json"))).toBe(false);
  }, 30_000);

  test("after a crash (SIGKILL) the lock is gone with the process: the next start serves", async () => {
    const dir = fresh();
    const first = await startParley(["serve", "--data-dir", dir, "--port", String(freePort())]);
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    expect(existsSync(join(dir, "parley.lock.json"))).toBe(true); // the note stays behind; it does not matter
    const next = await startParley(["serve", "--data-dir", dir, "--port", String(freePort())]);
    try {
      expect((await fetch(`${next.base}/api/v1/server_settings`)).status).toBe(200);
      expect(JSON.parse(readFileSync(join(dir, "parley.lock.json"), "utf8"))).toEqual({ pid: next.proc.pid, url: next.base });
    } finally {
      expect(await next.stop()).toBe(0);
    }
  }, 30_000);

  test("a SIGTERM the moment the banner shows still stops it cleanly (exit 0), desktop mode and serve alike", async () => {
    for (let i = 0; i < 4; i++) {
      const dir = fresh();
      const args = i % 2 ? ["serve", "--data-dir", dir] : ["--no-browser", "--data-dir", dir];
      const s = await startParley([...args, "--port", String(freePort())]);
      expect(await s.stop()).toBe(0);
      expect(s.stderr()).toContain("shutting down");
    }
  }, 30_000);

  test("create-user still works while it serves (only serve takes the lock)", async () => {
    const dir = fresh();
    const s = await startParley(["serve", "--data-dir", dir, "--port", String(freePort())]);
    try {
      const r = runParley(["create-user", "--data-dir", dir, "--email", "new@example.com", "--full-name", "New"]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ email: "new@example.com" });
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 30_000);
});
