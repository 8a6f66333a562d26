import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { browserCommand, type BrowserContext } from "../../src/lib/browser";
import { desktopDataDir } from "../../src/desktop";

const URL = "http://127.0.0.1:9991";
const ctx = (c: Partial<BrowserContext> & { env?: Record<string, string | undefined> }): BrowserContext => ({
  platform: "linux",
  noBrowser: false,
  which: (p) => `/usr/bin/${p}`,
  ...c,
  env: { DISPLAY: ":0", ...c.env },
});

describe("whether desktop mode opens a browser", () => {
  test("on a Linux desktop (X11 or Wayland) it runs xdg-open with the address", () => {
    expect(browserCommand(URL, ctx({}))).toEqual(["/usr/bin/xdg-open", URL]);
    expect(browserCommand(URL, ctx({ env: { DISPLAY: undefined, WAYLAND_DISPLAY: "wayland-0" } }))).toEqual(["/usr/bin/xdg-open", URL]);
  });

  test("never without a display: a server, an SSH login, a service", () => {
    expect(browserCommand(URL, ctx({ env: { DISPLAY: undefined } }))).toBeNull();
    expect(browserCommand(URL, ctx({ env: { DISPLAY: "" , WAYLAND_DISPLAY: "" } }))).toBeNull();
  });

  test("never with --no-browser, never in tests, never when xdg-open is missing", () => {
    expect(browserCommand(URL, ctx({ noBrowser: true }))).toBeNull();
    expect(browserCommand(URL, ctx({ env: { NODE_ENV: "test" } }))).toBeNull();
    expect(browserCommand(URL, ctx({ which: () => null }))).toBeNull();
  });

  test("macOS uses open (there is always a desktop); other systems open nothing", () => {
    expect(browserCommand(URL, ctx({ platform: "darwin", env: { DISPLAY: undefined } }))).toEqual(["open", URL]);
    expect(browserCommand(URL, ctx({ platform: "win32" }))).toBeNull();
  });
});

describe("where desktop mode keeps its data", () => {
  const root = mkdtempSync(join(tmpdir(), "parley-desktop-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const usual = "/home/someone/parley-data";

  test("beside the executable when its folder is writable (a USB stick carries its data along)", () => {
    const stick = join(root, "stick");
    mkdirSync(stick);
    expect(desktopDataDir(stick, usual)).toBe(join(stick, "parley-data"));
  });

  test("in an existing parley-data beside the executable when that folder is writable, even if the executable's is not", () => {
    const dir = join(root, "bin1");
    mkdirSync(join(dir, "parley-data"), { recursive: true });
    const canWrite = (p: string) => p === join(dir, "parley-data");
    expect(desktopDataDir(dir, usual, canWrite)).toBe(join(dir, "parley-data"));
  });

  test("the usual default when neither may be written (an executable in /usr/local/bin)", () => {
    const dir = join(root, "bin2");
    mkdirSync(dir);
    expect(desktopDataDir(dir, usual, () => false)).toBe(usual);
    mkdirSync(join(dir, "parley-data"));
    expect(desktopDataDir(dir, usual, (p) => p === dir)).toBe(usual); // parley-data itself is read-only
  });

  test("the folder's real permissions are checked (root may write anywhere; other users not into a read-only folder)", () => {
    const dir = join(root, "ro");
    mkdirSync(dir);
    chmodSync(dir, 0o555);
    // root may write anywhere, so the real permission check only shows for other users
    expect(desktopDataDir(dir, usual)).toBe(process.getuid?.() === 0 ? join(dir, "parley-data") : usual);
  });

  test("from source (no executable) it is the usual default", () => {
    expect(desktopDataDir(null, usual)).toBe(usual);
  });
});
