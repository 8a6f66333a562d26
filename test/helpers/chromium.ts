/**
 * Debian's Chromium, headless, driven by playwright-core: the browser tests, the screenshots and the
 * web bench all start it this way. Without the background-networking flags Chromium keeps trying
 * Google's hosts, which this machine's closed network refuses; launch() gives it a new empty
 * --user-data-dir each time.
 */
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...ARGS, ...extraArgs] });
}
