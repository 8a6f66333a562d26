/**
 * What the browser journeys share: an in-process server listening on a port, Debian's Chromium driven by
 * playwright-core, a browser context (its own cookies) per person, logging in through the login page, and
 * waiting for what the page or the server shows. Each journey's contexts are closed after it: an open
 * tab showing a channel would read what the next journey sends.
 */
import { afterAll, afterEach, beforeAll, expect } from "bun:test";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { launchChromium } from "../helpers/chromium";
import { startServer, type CastName, type StartOptions, type TestServer } from "../helpers/server";
import { hashPassword } from "../../src/actions/users";
import { createServer } from "../../src/server";

/** Screenshots of the main views land here (test artifacts). */
export const shot = (name: string) => `/tmp/parley-web-${name}.png`;

export type Person = "hamlet" | "othello";

export interface BrowserSuite {
  readonly s: TestServer;
  /** the server's address, http://127.0.0.1:PORT */
  readonly base: string;
  /** a fresh browser profile (its own cookies) for one person; page errors (and CSP refusals) are collected */
  open(opts?: { width?: number; height?: number; dark?: boolean; context?: BrowserContextOptions }): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  logIn(page: Page, who: Person, path?: string): Promise<void>;
  userId(who: CastName): number;
}

/**
 * Registers the hooks of a browser test file: a server (hamlet and othello can log in with
 * "<name>-pass"), its HTTP listener, and one Chromium for the file. `setup` runs once the server is up.
 */
export function browserSuite(setup: (s: TestServer) => Promise<void> = async () => {}, options: StartOptions = {}): BrowserSuite {
  let s: TestServer;
  let http: ReturnType<ReturnType<typeof createServer>["listen"]>;
  let browser: Browser;
  let base = "";
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    s = await startServer({ realClock: true, ...options });
    for (const who of ["hamlet", "othello"] as const) {
      await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword(`${who}-pass`), s.users[who].id]);
    }
    await setup(s);
    http = createServer(s.app).listen({ hostname: "127.0.0.1", port: 0, reusePort: false });
    base = `http://127.0.0.1:${http.server!.port}`;
    browser = await launchChromium();
  }, 20_000);

  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => {});
  });

  afterAll(async () => {
    await browser?.close();
    await http?.stop(true);
    await s?.close();
  });

  return {
    get s() {
      return s;
    },
    get base() {
      return base;
    },
    async open(opts = {}) {
      const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 }, colorScheme: opts.dark ? "dark" : "light", ...opts.context });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(5000);
      const errors: string[] = [];
      // (the stack goes to the log: a failure in CI then says where)
      page.on("pageerror", (e) => (errors.push(e.message), console.error("page error:", e.stack)));
      // the strict Content-Security-Policy must not have to refuse anything the app does
      page.on("console", (m) => m.type() === "error" && /Content Security Policy/i.test(m.text()) && errors.push(m.text()));
      return { context, page, errors };
    },
    async logIn(page, who, path = "/") {
      await page.goto(base + path);
      await page.fill("#login-email", `${who}@zulip.com`);
      await page.fill("#login-password", `${who}-pass`);
      await page.click(".login-form button[type=submit]");
      await page.locator(".app-shell").waitFor();
    },
    userId: (who) => s.users[who].id,
  };
}

/** Waits (up to 5 s) for `read` to give `expected`, then asserts it. */
export async function eventually<T>(read: () => Promise<T> | T, expected: Awaited<T>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let got = await read();
  while (!Bun.deepEquals(got, expected) && Date.now() < until) {
    await Bun.sleep(50);
    got = await read();
  }
  expect(got).toEqual(expected);
}

/** A message row of the page, by its text. */
export const row = (page: Page, text: string) => page.locator(".message-row", { hasText: text });

/** A channel topic's URL hash, as the app writes it. */
export const topicHash = (streamId: number, channel: string, topic: string) => `#narrow/channel/${streamId}-${channel}/topic/${encodeURIComponent(topic).replace(/%/g, ".")}`;

const AXE = await Bun.file(Bun.resolveSync("axe-core/axe.min.js", import.meta.dir)).text();

/** axe-core's serious and critical violations inside the open dialog (or `include`) (WCAG 2.2 A and AA), injected from node_modules. */
export async function dialogViolations(page: Page, include = ".dialog"): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async (include) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const axe = (window as any).axe;
    const r = await axe.run({ include: [include] }, { resultTypes: ["violations"], runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return r.violations.filter((v: any) => v.impact === "serious" || v.impact === "critical").map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(" ")).join(", ")}`) as string[];
  }, include);
}
