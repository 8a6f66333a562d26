// Desktop mode: `parley` with no command, as a double-click in a file manager starts it. It serves with
// the defaults, keeps its data in a `parley-data` folder beside the executable when it may write there
// (so a USB stick carries its data along), creates the organization on the first start, prints the
// address and the login, and opens the browser where there is a desktop.
import { accessSync, constants, existsSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { loadConfig, type Overrides } from "./config/load";
import type { FirstLogin } from "./first-run";
import { browserCommand, openBrowser, systemBrowserContext, type BrowserContext } from "./lib/browser";
import { startServing, stopOnSignals } from "./serve";
import { DataDirBusyError } from "./store/serve-lock";

export interface DesktopDeps {
  env: Record<string, string | undefined>;
  /** the folder of the executable when running as one (null from source: `bun src/main.ts`) */
  executableDir: string | null;
  browser: BrowserContext;
  open: (command: string[]) => void;
}

/** True inside the executable `npm run build` makes (its modules live in Bun's embedded file system). */
export const isExecutable = () => import.meta.path.startsWith("/$bunfs/") || import.meta.path.startsWith("B:\\~BUN\\");

export const systemDesktop = (noBrowser: boolean): DesktopDeps => ({
  env: process.env,
  executableDir: isExecutable() ? dirname(process.execPath) : null,
  browser: systemBrowserContext(noBrowser),
  open: (command) => void openBrowser(command),
});

const writable = (path: string) => {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * The data dir of desktop mode: `parley-data` beside the executable when that folder is writable (or,
 * before the first start, when the executable's folder is), else the usual default.
 */
export function desktopDataDir(executableDir: string | null, usual: string, canWrite: (path: string) => boolean = writable): string {
  if (executableDir) {
    const beside = join(executableDir, "parley-data");
    if (existsSync(beside) ? canWrite(beside) : canWrite(executableDir)) return beside;
  }
  return usual;
}

/** Runs desktop mode; returns -1 while serving (like serve), 1 when another Parley has the data dir. */
export async function desktop(flags: Overrides, deps: DesktopDeps): Promise<number> {
  const usual = resolve(deps.env.PARLEY_DATA_DIR ?? "./parley-data");
  // a data dir named by flag or environment wins; beside the executable is desktop mode's default
  const dataDir = flags.dataDir ?? (deps.env.PARLEY_DATA_DIR ? usual : desktopDataDir(deps.executableDir, usual));
  const config = loadConfig({ ...flags, dataDir }, deps.env);
  const signals = stopOnSignals(["SIGHUP"]); // closing the terminal window stops it cleanly too
  let serving;
  try {
    serving = await startServing(config);
  } catch (e) {
    if (!(e instanceof DataDirBusyError)) throw e;
    console.error(`parley: ${e.message}`);
    // a second double-click shows the Parley that is already running
    const command = e.holder?.url ? browserCommand(e.holder.url, deps.browser) : null;
    if (command) deps.open(command);
    return 1;
  }
  signals.serving(serving);
  if (serving.firstLogin) {
    const file = writeFirstLogin(config.data_dir, serving.firstLogin);
    console.log(`  (The login is also in ${file}.)`);
  }
  const command = browserCommand(serving.url, deps.browser);
  console.log(`Open ${serving.url} in your browser to use Parley. Press Ctrl+C or close this window to stop it.`);
  if (command) deps.open(command);
  return -1;
}

/**
 * A double-click may start Parley with no terminal to show its output, so the first login is also
 * written to the data dir (readable by the owner only).
 */
function writeFirstLogin(dataDir: string, login: FirstLogin): string {
  const file = join(dataDir, "first-login.txt");
  writeFileSync(
    file,
    [
      "Parley's first login, written when the organization was created:",
      `  URL:       ${login.url}`,
      `  Log in as: ${login.email}`,
      `  Password:  ${login.password}`,
      `  API key:   in ${login.zuliprc}`,
      "Change the password after logging in, then delete this file.",
      "",
    ].join("\n"),
    { mode: 0o600 },
  );
  return file;
}
