/**
 * This browser's Web Push subscription (loaded on demand by notify/service-worker.ts): subscribed with
 * the server's VAPID key and told to the server (POST /users/me/web_push_subscriptions) while wanted;
 * deleted there and unsubscribed here when not.
 */
import { api } from "../api/http";
import { SUBSCRIPTION_KEY } from "./web-push-key";

interface Held {
  id: number;
  endpoint: string;
}

const held = (): Held | null => {
  try {
    return JSON.parse(localStorage.getItem(SUBSCRIPTION_KEY) ?? "null") as Held | null;
  } catch {
    return null;
  }
};

const fromBase64url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const toBase64url = (buf: ArrayBuffer | null) => (buf ? btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") : "");

let running: Promise<void> = Promise.resolve();

/** Brings the subscription in line with `wanted`; calls run one after another. */
export function syncWebPush(wanted: boolean): Promise<void> {
  running = running.then(() => (wanted ? subscribe() : unsubscribe())).catch(() => undefined);
  return running;
}

async function subscribe(): Promise<void> {
  const reg = await navigator.serviceWorker.ready;
  const { web_push_vapid_public_key: key } = await api<{ web_push_vapid_public_key: string }>("GET", "/server_settings");
  let sub = await reg.pushManager.getSubscription();
  // a subscription made for another key (the server's data dir was replaced) cannot be used
  if (sub && toBase64url(sub.options.applicationServerKey) !== key) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64url(key) });
  const keys = sub.toJSON().keys ?? {};
  // sent on every start: the same endpoint keeps its id, and one the server dropped (410) comes back
  const r = await api<{ id: number }>("POST", "/users/me/web_push_subscriptions", { endpoint: sub.endpoint, p256dh: keys.p256dh, auth: keys.auth });
  localStorage.setItem(SUBSCRIPTION_KEY, JSON.stringify({ id: r.id, endpoint: sub.endpoint } satisfies Held));
}

async function unsubscribe(): Promise<void> {
  const h = held();
  if (h) await api("DELETE", `/users/me/web_push_subscriptions/${h.id}`).catch(() => undefined);
  localStorage.removeItem(SUBSCRIPTION_KEY);
  const reg = await navigator.serviceWorker.getRegistration("/");
  await (await reg?.pushManager.getSubscription())?.unsubscribe();
}
