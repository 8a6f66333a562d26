/**
 * The installable app in Chromium: the manifest is linked, the service worker registers and controls
 * the page, the app shell opens from its cache with the server stopped (and says so), a push shows a
 * notification, and allowing notifications subscribes this browser (the server stores it; turning it
 * off deletes it). The browser's push service is stood in for by a fake PushManager (headless Chromium
 * has no push service to talk to); the server side of Web Push is tested in test/api/web-push.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../helpers/chromium";
import { startServer, type TestServer } from "../helpers/server";
import { browserKeys } from "../helpers/push-service";
import { hashPassword } from "../../src/actions/users";
import { createServer } from "../../src/server";
import { eventually } from "./helpers";

let s: TestServer;
let browser: Browser;
let port = 0;
let http: ReturnType<ReturnType<typeof createServer>["listen"]> | null = null;
const contexts: BrowserContext[] = [];
const base = () => `http://127.0.0.1:${port}`;

function listen(): void {
  http = createServer(s.app).listen({ hostname: "127.0.0.1", port, reusePort: false });
  port = http.server!.port!;
}
async function stopListening(): Promise<void> {
  await http?.stop(true);
  http = null;
}

beforeAll(async () => {
  s = await startServer({ realClock: true });
  await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("hamlet-pass"), s.users.hamlet.id]);
  listen();
  browser = await launchChromium();
}, 20_000);
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close().catch(() => {});
  if (!http) listen();
});
afterAll(async () => {
  await browser?.close();
  await stopListening();
  await s?.close();
});

/** `bypassCSP`: for injecting axe-core (the app's own scripts never need it). */
async function open(opts: { bypassCSP?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: opts.bypassCSP });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && /Content Security Policy/i.test(m.text()) && errors.push(m.text()));
  return { context, page, errors };
}

async function logIn(page: Page): Promise<void> {
  await page.goto(base() + "/");
  await page.fill("#login-email", "hamlet@zulip.com");
  await page.fill("#login-password", "hamlet-pass");
  await page.click(".login-form button[type=submit]");
  await page.locator(".app-shell").waitFor();
}

/** Waits until the service worker is active and controls the page. */
async function controlled(page: Page): Promise<string> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
    await page.reload();
    await page.locator(".app-shell").waitFor();
  }
  return page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
}

const subscriptionsOfHamlet = () => s.app.db.all<{ id: number; endpoint: string; p256dh: string; auth: string }>("SELECT id, endpoint, p256dh, auth FROM web_push_subscriptions WHERE user_id = ?", [s.users.hamlet.id]);

describe("the installable app in a real browser", () => {
  test("the page links the manifest, and the service worker registers at the root and controls the page", async () => {
    const { page, errors } = await open();
    await logIn(page);
    expect(await page.getAttribute('link[rel="manifest"]', "href")).toBe("/manifest.webmanifest");
    expect(await controlled(page)).toBe(base() + "/");
    const manifest = await page.evaluate(async () => (await fetch("/manifest.webmanifest")).json());
    expect(manifest).toMatchObject({ name: "Zulip Dev", display: "standalone", start_url: "/" });
    expect(errors).toEqual([]);
  }, 30_000);

  test("with the server stopped, the app shell opens from the cache and says Parley can't reach the server; it opens again once the server is back", async () => {
    const { context, page } = await open();
    await logIn(page);
    await controlled(page);
    await stopListening();
    await page.reload();
    const failed = page.locator(".start-failed");
    await failed.waitFor();
    expect(await failed.locator("h1").textContent()).toBe("Parley can't reach the server");
    expect(await failed.textContent()).toContain("Parley's server cannot be reached.");
    // the shell's own script ran from the cache: the page is the app's, not the browser's error page
    expect(await page.title()).toBe("Parley");
    // and with the network down, it says that
    await context.setOffline(true);
    await page.reload();
    await failed.waitFor();
    expect(await failed.textContent()).toContain("You're offline. Parley opens as soon as the network is back.");
    // the server is back, then the network: the page opens by itself, as it said it would
    listen();
    await context.setOffline(false);
    await page.locator(".app-shell").waitFor();
  }, 30_000);

  test("losing the network while the app is open shows the offline banner", async () => {
    const { context, page } = await open();
    await logIn(page);
    await context.setOffline(true);
    await page.locator(".connection-banner", { hasText: "You're offline: Parley can't reach the server." }).waitFor();
    await context.setOffline(false);
    await page.locator(".connection-banner").waitFor({ state: "detached" });
  }, 30_000);

  test("a push the service worker receives is shown as a notification for its conversation", async () => {
    const { context, page } = await open();
    await context.grantPermissions(["notifications"], { origin: base() });
    await logIn(page);
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const registrations = new Promise<{ registrationId: string; scopeURL: string }[]>((resolve) => cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => resolve(e.registrations)));
    await cdp.send("ServiceWorker.enable");
    const [registration] = (await registrations).filter((r) => r.scopeURL === base() + "/");
    const payload = {
      message_id: 7,
      trigger: "private_message",
      sender: { id: s.users.othello.id, name: "Othello, the Moor of Venice", avatar_url: null },
      conversation: { type: "private", people: [{ id: s.users.othello.id, name: "Othello, the Moor of Venice" }] },
      content: "Are you there?",
      url: `${base()}/#narrow/dm/${s.users.othello.id}-Othello/near/7`,
    };
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: base(), registrationId: registration!.registrationId, data: JSON.stringify(payload) });
    const shown = async () =>
      page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url })));
    await eventually(async () => (await shown()).length, 1);
    expect(await shown()).toEqual([{ title: "Othello, the Moor of Venice", body: "Are you there?", tag: `parley:dm:${s.users.othello.id}`, url: payload.url }]);

    // a click: the worker focuses this window and tells it which conversation to open (sw.ts's notificationclick)
    const [worker] = context.serviceWorkers();
    await worker!.evaluate(async (url) => {
      const sw = self as unknown as { clients: { matchAll(o: object): Promise<{ postMessage(m: unknown): void }[]> } };
      for (const w of await sw.clients.matchAll({ type: "window" })) w.postMessage({ type: "parley:open", url });
    }, payload.url);
    await page.waitForURL(payload.url);
    await page.locator(".view-title", { hasText: "Othello" }).waitFor();
  }, 30_000);

  test("allowing notifications subscribes this browser and the server stores it; turning push off deletes it", async () => {
    const { context, page, errors } = await open({ bypassCSP: true });
    await context.grantPermissions(["notifications"], { origin: base() });
    const keys = browserKeys();
    const endpoint = "https://push.example.com/send/hamlet-browser";
    // the browser's push service, stood in for: subscribe() answers a subscription with these keys
    await context.addInitScript(
      ({ endpoint, p256dh, auth }) => {
        let current: unknown = null;
        const make = (key: ArrayBuffer) => ({
          endpoint,
          options: { applicationServerKey: key, userVisibleOnly: true },
          toJSON: () => ({ endpoint, keys: { p256dh, auth } }),
          unsubscribe: async () => ((current = null), ((window as any).unsubscribed = true)),
        });
        PushManager.prototype.subscribe = async function (o?: PushSubscriptionOptionsInit) {
          (window as any).subscribedWith = o;
          current = make((o!.applicationServerKey as Uint8Array).buffer as ArrayBuffer);
          return current as PushSubscription;
        };
        PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
      },
      { endpoint, p256dh: keys.p256dh, auth: keys.auth },
    );
    await logIn(page);
    await eventually(async () => (await subscriptionsOfHamlet()).map((x) => ({ endpoint: x.endpoint, p256dh: x.p256dh, auth: x.auth })), [{ endpoint, p256dh: keys.p256dh, auth: keys.auth }]);
    // subscribed with the server's VAPID key, for notifications the person sees
    const serverKey = (await s.anonymous.get("/server_settings")).success().web_push_vapid_public_key;
    const used = await page.evaluate(() => {
      const o = (window as any).subscribedWith;
      return { userVisibleOnly: o.userVisibleOnly, key: btoa(String.fromCharCode(...new Uint8Array(o.applicationServerKey))) };
    });
    expect(used).toEqual({ userVisibleOnly: true, key: Buffer.from(serverKey, "base64url").toString("base64") });

    // the person turns mobile (push) notifications off in the notification settings
    await page.locator(".top-bar").getByRole("button", { name: /personal menu/i }).click();
    await page.getByRole("menuitem", { name: "Notification settings" }).click();
    const push = page.getByRole("checkbox", { name: "Mobile notifications for direct messages, mentions and alerts" });
    expect(await push.isChecked()).toBe(true);
    expect(await page.getByText("Mobile notifications also reach this browser and your installed Parley app").count()).toBe(1);
    await push.click();
    await eventually(async () => (await subscriptionsOfHamlet()).length, 0);
    await eventually(() => page.evaluate(() => (window as any).unsubscribed === true), true);
    expect((await s.users.hamlet.client.post("/register", { fetch_event_types: ["user_settings"] })).success().user_settings.enable_offline_push_notifications).toBe(false);
    (await s.users.hamlet.client.patch("/settings", { enable_offline_push_notifications: true })).success();
    expect(errors).toEqual([]);
  }, 30_000);
});
