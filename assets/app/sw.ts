/**
 * Parley's service worker, served at /sw.js (scope "/"): it keeps the app shell (the page and the
 * hashed files of this build) so the app opens at once and offline, shows Web Push notifications, and
 * opens the conversation on click. The build (src/web/build.ts) defines the shell's file list and
 * version. Its decisions live in notify/sw-logic.ts, pure and tested.
 */
import { cacheName, isAppShell, isOldCache, notificationFor, openMessage, strategyFor, windowToFocus } from "./notify/sw-logic";

declare const __PARLEY_SHELL__: string[];
declare const __PARLEY_VERSION__: string;
declare const __PARLEY_ICON__: string;

// The DOM library has no service-worker types; the few used here.
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(r: Promise<Response>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification;
}
interface WindowClient {
  url: string;
  focused: boolean;
  visibilityState: string;
  focus(): Promise<WindowClient>;
  postMessage(m: unknown): void;
}
interface Worker {
  location: Location;
  registration: { showNotification(title: string, options: object): Promise<void> };
  clients: { matchAll(o: object): Promise<WindowClient[]>; openWindow(url: string): Promise<unknown>; claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: string, f: (e: never) => void): void;
}
const sw = self as unknown as Worker;
const origin = sw.location.origin;
const CACHE = cacheName(__PARLEY_VERSION__);

sw.addEventListener("install", (e: ExtendableEvent) => {
  e.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // the hashed files; the page is kept by the first visit that gets the app's page (networkFirst)
      await cache.addAll(__PARLEY_SHELL__.filter((u) => u !== "/"));
      const page = await fetch("/", { credentials: "same-origin" }).catch(() => null);
      if (page?.ok && isAppShell(await page.clone().text())) await cache.put("/", page);
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener("activate", (e: ExtendableEvent) => {
  e.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (isOldCache(name, __PARLEY_VERSION__)) await caches.delete(name);
      await sw.clients.claim();
    })(),
  );
});

async function networkFirst(req: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(req);
    // the page a signed-in person gets; the login page and errors are not kept as the shell
    if (res.ok && res.headers.get("content-type")?.startsWith("text/html") && isAppShell(await res.clone().text())) await cache.put("/", res.clone());
    return res;
  } catch (e) {
    const cached = await cache.match("/");
    if (cached) return cached;
    throw e;
  }
}

async function cacheFirst(req: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(req);
  if (cached) return cached;
  const res = await fetch(req);
  if (res.ok) await cache.put(req, res.clone());
  return res;
}

sw.addEventListener("fetch", (e: FetchEvent) => {
  const strategy = strategyFor(e.request, origin);
  if (strategy === "network-first") e.respondWith(networkFirst(e.request));
  else if (strategy === "cache-first") e.respondWith(cacheFirst(e.request));
});

sw.addEventListener("push", (e: PushEvent) => {
  let data: unknown = null;
  try {
    data = e.data?.json() ?? null;
  } catch {
    // not JSON: notificationFor still says something came
  }
  const n = notificationFor(data, __PARLEY_ICON__, origin);
  e.waitUntil(sw.registration.showNotification(n.title, n.options));
});

sw.addEventListener("notificationclick", (e: NotificationEvent) => {
  e.notification.close();
  const url = (e.notification.data as { url?: string } | null)?.url ?? `${origin}/`;
  e.waitUntil(
    (async () => {
      const windows = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
      const i = windowToFocus(windows, origin);
      if (i < 0) return void (await sw.clients.openWindow(url));
      const w = await windows[i]!.focus();
      w.postMessage(openMessage(url));
    })(),
  );
});
