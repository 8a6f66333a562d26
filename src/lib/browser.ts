// Opening a web page in the user's browser, where there is a desktop to open it on.

export interface BrowserContext {
  platform: string;
  env: Record<string, string | undefined>;
  /** the user said --no-browser */
  noBrowser: boolean;
  /** a program's path on PATH, or null */
  which: (program: string) => string | null;
}

/**
 * The command that opens url in a browser, or null when none should be opened: with --no-browser, in
 * tests (NODE_ENV=test), on Linux and the BSDs without a graphical session (no DISPLAY or
 * WAYLAND_DISPLAY: a server, an SSH login, a service), or where the opener is not installed.
 */
export function browserCommand(url: string, c: BrowserContext): string[] | null {
  if (c.noBrowser || c.env.NODE_ENV === "test") return null;
  if (c.platform === "darwin") return c.which("open") ? ["open", url] : null;
  if (c.platform === "linux" || c.platform.endsWith("bsd")) {
    if (!c.env.DISPLAY && !c.env.WAYLAND_DISPLAY) return null;
    const opener = c.which("xdg-open");
    return opener ? [opener, url] : null;
  }
  return null;
}

/** Starts the opener in the background; whatever happens to it, the caller carries on. */
export function openBrowser(command: string[], spawn: typeof Bun.spawn = Bun.spawn): boolean {
  try {
    const p = spawn(command, { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    p.unref();
    return true;
  } catch {
    return false;
  }
}

export const systemBrowserContext = (noBrowser: boolean): BrowserContext => ({
  platform: process.platform,
  env: process.env,
  noBrowser,
  which: (program) => Bun.which(program),
});
