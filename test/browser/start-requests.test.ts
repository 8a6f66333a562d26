/**
 * The app page's inline script sends /register and the first view's messages while the app's bundle is
 * still loading; the app adopts both (one event queue, one GET /messages per page load). Its
 * Content-Security-Policy allows that script by its hash alone: any other inline script is refused, and
 * the app then sends the two requests itself.
 */
import { describe, expect, test } from "bun:test";
import type { Page, Route } from "playwright-core";
import { createChannel } from "../helpers/channels";
import { browserSuite, row, topicHash } from "./helpers";

let ramparts = 0;
const suite = browserSuite(async (s) => {
  ramparts = await createChannel(s, "hamlet", "ramparts", { subscribers: ["othello"] });
  for (const content of ["Who's there?", "Nay, answer me."]) (await s.users.othello.client.post("/messages", { type: "stream", to: ramparts, topic: "watch", content })).success();
});

/** Event queues the server makes for hamlet from now on (each POST /register makes one). */
function countQueues(): { readonly made: number; stop(): void } {
  const events = suite.s.app.events;
  const original = events.register;
  let made = 0;
  events.register = function (options) {
    if (options.userId === suite.userId("hamlet")) made++;
    return original.call(this, options);
  };
  return {
    get made() {
      return made;
    },
    stop: () => void (events.register = original),
  };
}

/** The page's /json requests by path ("POST /json/register", "GET /json/messages"). */
function jsonRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith("/json/")) seen.push(`${r.method()} ${path}`);
  });
  return seen;
}

/** Opens hamlet's page at the watch topic (no service worker: every file comes from the server, through page.route). */
async function openWatch() {
  const opened = await suite.open({ context: { serviceWorkers: "block" } });
  await suite.logIn(opened.page, "hamlet", "/" + topicHash(ramparts, "ramparts", "watch"));
  await row(opened.page, "Nay, answer me.").waitFor();
  return opened;
}

/** Serves the app page with `edit` applied to its HTML (its headers, the CSP among them, as the server sent them). */
async function editAppPage(page: Page, edit: (html: string) => string) {
  await page.route(
    (url) => url.pathname === "/",
    async (route: Route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, body: edit(await res.text()) });
    },
  );
}

const START_SCRIPT = /<script>[\s\S]*?<\/script>/;

describe("the start-up requests", () => {
  test("are sent before the app's bundle has arrived, and the app adopts them: one event queue and one GET /messages for the load, and the messages show", async () => {
    const { page, errors } = await openWatch();
    const seen = jsonRequests(page);
    // the bundle is held until both requests have been sent: were they the bundle's, the page would never start
    let sentBeforeBundle: string[] | null = null;
    await page.route(/\/static\/main-[a-z0-9]+\.js$/, async (route: Route) => {
      const until = Date.now() + 3000;
      while (!(seen.includes("POST /json/register") && seen.includes("GET /json/messages")) && Date.now() < until) await Bun.sleep(10);
      // the page being replaced may still finish work it left for idle time (a sidebar's topics): only the two count here
      sentBeforeBundle ??= seen.filter((r) => r === "POST /json/register" || r === "GET /json/messages").sort();
      await route.continue();
    });
    const queues = countQueues();
    try {
      await page.reload();
      await row(page, "Nay, answer me.").waitFor();
      await page.locator(".app-shell").waitFor();
      expect(sentBeforeBundle!).toEqual(["GET /json/messages", "POST /json/register"]);
      expect(queues.made).toBe(1);
      expect(seen.filter((r) => r === "POST /json/register")).toEqual(["POST /json/register"]);
      expect(seen.filter((r) => r === "GET /json/messages")).toEqual(["GET /json/messages"]);
      // the page's script handed them over and is gone
      expect(await page.evaluate(() => "parleyStart" in window)).toBe(false);
    } finally {
      queues.stop();
    }
    // the adopted queue is the one the page polls: a new message arrives live
    (await suite.s.users.othello.client.post("/messages", { type: "stream", to: ramparts, topic: "watch", content: "Long live the King!" })).success();
    await row(page, "Long live the King!").waitFor();
    expect(errors).toEqual([]);
  }, 30_000);

  test("another inline script is refused by the page's policy, even in the start-up script's place; the app then sends them itself, once", async () => {
    const { page, errors } = await openWatch();
    const seen = jsonRequests(page);
    // the start-up script with one character changed, and a script of someone else's
    await editAppPage(page, (html) =>
      html.replace(START_SCRIPT, (s) => s.replace("parleyStart", "parleyStarT")).replace("</body>", "<script>window.injected = true</script></body>"),
    );
    const queues = countQueues();
    try {
      await page.reload();
      await row(page, "Nay, answer me.").waitFor();
      expect(await page.evaluate(() => ({ injected: "injected" in window, tampered: "parleyStarT" in window }))).toEqual({ injected: false, tampered: false });
      expect(errors.length).toBe(2);
      expect(errors.every((e) => /Content Security Policy/.test(e))).toBe(true);
      expect(queues.made).toBe(1);
      expect(seen.filter((r) => r === "POST /json/register").length).toBe(1);
      expect(seen.filter((r) => r === "GET /json/messages").length).toBe(1);
    } finally {
      queues.stop();
    }
  }, 30_000);

  test("without the start-up script (a page of another build), the app sends them itself and starts", async () => {
    const { page, errors } = await openWatch();
    const seen = jsonRequests(page);
    await editAppPage(page, (html) => html.replace(START_SCRIPT, ""));
    const queues = countQueues();
    try {
      await page.reload();
      await row(page, "Nay, answer me.").waitFor();
      expect(queues.made).toBe(1);
      expect(seen.filter((r) => r === "POST /json/register").length).toBe(1);
      expect(seen.filter((r) => r === "GET /json/messages").length).toBe(1);
    } finally {
      queues.stop();
    }
    expect(errors).toEqual([]);
  }, 30_000);

  test("when the page's own requests fail on the network (a page from the service worker's cache), the app asks once more and starts", async () => {
    const { page, errors } = await openWatch();
    const seen = jsonRequests(page);
    const aborted: string[] = [];
    for (const path of ["/json/register", "/json/messages"]) {
      await page.route(
        (url) => url.pathname === path,
        async (route: Route) => {
          if (aborted.includes(path)) return route.continue();
          aborted.push(path);
          await route.abort("internetdisconnected");
        },
      );
    }
    const queues = countQueues();
    try {
      await page.reload();
      await row(page, "Nay, answer me.").waitFor();
      await page.locator(".app-shell").waitFor();
      expect(aborted.sort()).toEqual(["/json/messages", "/json/register"]);
      expect(seen.filter((r) => r === "POST /json/register").length).toBe(2);
      expect(seen.filter((r) => r === "GET /json/messages").length).toBe(2);
      expect(queues.made).toBe(1);
      expect(await page.locator(".start-failed").count()).toBe(0);
    } finally {
      queues.stop();
    }
    expect(errors).toEqual([]);
  }, 30_000);

  test("a session that ended before the page's /register was answered lands on the login page, which says so", async () => {
    const { page, errors } = await openWatch();
    // the session ends between the page being served and its /register being read
    await page.route("**/json/register", async (route: Route) => {
      await suite.s.app.db.run("DELETE FROM sessions WHERE user_id = ?", [suite.userId("hamlet")]);
      await route.continue();
    });
    await page.reload();
    await page.locator(".login-notice", { hasText: "Your session ended" }).waitFor();
    expect(await page.locator("#login-email").isVisible()).toBe(true);
    expect(new URL(page.url()).hash).toBe(topicHash(ramparts, "ramparts", "watch"));
    expect(await page.locator(".app-shell").count()).toBe(0);
    expect(errors).toEqual([]);
  }, 30_000);
});
