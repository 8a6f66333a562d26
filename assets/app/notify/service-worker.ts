/**
 * The page's side of the service worker (assets/app/sw.ts): registers /sw.js, opens the conversation a
 * clicked push names, and keeps this browser's Web Push subscription in step with the person's choice
 * (notifications allowed here and "when Parley is closed" on). The subscription code loads on demand.
 */
import { effect } from "@preact/signals";
import { settings } from "../state/store";
import { permission } from "./desktop";
import { isOpenMessage } from "./sw-logic";
import { SUBSCRIPTION_KEY } from "./web-push-key";

export const serviceWorkerSupported = () => typeof navigator !== "undefined" && "serviceWorker" in navigator;
export const webPushSupported = () => serviceWorkerSupported() && typeof window !== "undefined" && "PushManager" in window;

/** Registers the worker (it keeps the app shell for the next start) and follows its "open this" messages. */
export function registerServiceWorker(): void {
  if (!serviceWorkerSupported()) return;
  // a browser may refuse (private windows, an http address that is not localhost): the app works without
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined);
  navigator.serviceWorker.addEventListener("message", (e) => {
    if (isOpenMessage(e.data)) location.assign(e.data.url);
  });
  // messages the worker sent before the page listened are delivered now, not held back
  navigator.serviceWorker.startMessages();
}

/** Once the store is loaded: the worker, and this browser's Web Push subscription kept in step. */
export function startServiceWorker(): void {
  registerServiceWorker();
  if (!webPushSupported()) return;
  effect(() => {
    const wanted = permission.value === "granted" && settings.value.enable_offline_push_notifications;
    // nothing to load when nothing is wanted and nothing is held
    if (!wanted && localStorage.getItem(SUBSCRIPTION_KEY) === null) return;
    void import("./web-push").then((m) => m.syncWebPush(wanted)).catch(() => undefined);
  });
}
