/**
 * The service worker's decisions, pure (tested with bun:test in test/web/sw-logic.test.ts): what a Web
 * Push says on screen, which requests come from the cache, and which window a click brings forward.
 * assets/app/sw.ts only wires these to the worker's events.
 */

export interface PushPerson {
  id: number;
  name: string;
}

/** What Parley's server pushes (src/notify/webpush/payload.ts), as JSON. */
export interface PushPayload {
  message_id: number;
  trigger: string;
  sender: PushPerson & { avatar_url: string | null };
  conversation: { type: "stream"; channel_id: number; channel: string; topic: string } | { type: "private"; people: PushPerson[] };
  /** null: the organization keeps message content out of notifications */
  content: string | null;
  url: string;
}

export interface ShownNotification {
  title: string;
  options: { body: string; tag: string; icon: string; data: { url: string; message_id: number | null }; renotify: boolean; timestamp?: number };
}

const isPayload = (p: unknown): p is PushPayload => {
  const x = p as PushPayload;
  return (
    typeof x === "object" &&
    x !== null &&
    typeof x.message_id === "number" &&
    typeof x.sender?.name === "string" &&
    typeof x.url === "string" &&
    (x.conversation?.type === "stream" || (x.conversation?.type === "private" && Array.isArray(x.conversation.people)))
  );
};

/** One notification per conversation: a newer message there replaces the older one. */
export function conversationTag(c: PushPayload["conversation"]): string {
  if (c.type === "stream") return `parley:channel:${c.channel_id}:${c.topic.toLowerCase()}`;
  return `parley:dm:${c.people.map((p) => p.id).sort((a, b) => a - b).join(",")}`;
}

/** Who wrote and where, as the web app's own notifications say it (notify/decide.ts). */
export function notificationTitle(p: PushPayload): string {
  const c = p.conversation;
  if (c.type === "stream") return `${p.sender.name} (#${c.channel} › ${c.topic})`;
  const others = c.people.filter((x) => x.id !== p.sender.id).map((x) => x.name);
  return others.length ? `${p.sender.name} (to you and ${others.sort((a, b) => a.localeCompare(b)).join(", ")})` : p.sender.name;
}

/**
 * The notification for a push. A push must always show something (browsers require it of
 * userVisibleOnly subscriptions), so an unreadable one still says that something came.
 */
export function notificationFor(data: unknown, appIcon: string, origin: string): ShownNotification {
  if (!isPayload(data)) {
    return { title: "Parley", options: { body: "You have a new message.", tag: "parley:unknown", icon: appIcon, data: { url: `${origin}/`, message_id: null }, renotify: false } };
  }
  const body = data.content ?? (data.conversation.type === "private" ? `New direct message from ${data.sender.name}` : "New message");
  // only a link into this very app is followed on click
  const url = sameOrigin(data.url, origin) ? data.url : `${origin}/`;
  return {
    title: notificationTitle(data),
    options: { body, tag: conversationTag(data.conversation), icon: data.sender.avatar_url ?? appIcon, data: { url, message_id: data.message_id }, renotify: true },
  };
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

export type Strategy = "network-first" | "cache-first" | "passthrough";

/**
 * How the worker answers a request: the app's page from the network while it answers (kept for when it
 * does not), the hashed files and icons from the cache, everything else (the API, uploads, log-in pages)
 * left to the network as if there were no worker.
 */
export function strategyFor(req: { method: string; url: string; mode: string }, origin: string): Strategy {
  if (req.method !== "GET") return "passthrough";
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return "passthrough";
  }
  if (url.origin !== origin) return "passthrough";
  if (url.pathname === "/" && req.mode === "navigate") return "network-first";
  if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") return "cache-first";
  return "passthrough";
}

/** The app's page (not the login page a signed-out visit gets at the same address): the one worth keeping as the shell. */
export const isAppShell = (html: string) => html.includes('<div id="app"');

/** The cache of one build: its name changes with the build, and older ones are deleted on activation. */
export const cacheName = (version: string) => `parley-shell-${version}`;
export const isOldCache = (name: string, version: string) => name.startsWith("parley-shell-") && name !== cacheName(version);

export interface WindowInfo {
  url: string;
  focused: boolean;
  visibilityState: string;
}

/** The open Parley window a click should bring forward (focused, then visible, then any), or -1. */
export function windowToFocus(windows: readonly WindowInfo[], origin: string): number {
  const ours = windows.map((w, i) => ({ w, i })).filter(({ w }) => sameOrigin(w.url, origin) && new URL(w.url).pathname === "/");
  const pick = ours.find(({ w }) => w.focused) ?? ours.find(({ w }) => w.visibilityState === "visible") ?? ours[0];
  return pick ? pick.i : -1;
}

/** The message a window gets to open a conversation without reloading (views listen in notify/service-worker.ts). */
export interface OpenMessage {
  type: "parley:open";
  url: string;
}
export const openMessage = (url: string): OpenMessage => ({ type: "parley:open", url });
export const isOpenMessage = (m: unknown): m is OpenMessage => (m as OpenMessage)?.type === "parley:open" && typeof (m as OpenMessage).url === "string";
