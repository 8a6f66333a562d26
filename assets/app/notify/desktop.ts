/**
 * Alerts for new messages while the person is elsewhere: a desktop notification (the browser's
 * Notification API, once they allowed it) and a sound, as notify/decide.ts decides from the state
 * before each message. Clicking a notification brings the tab forward and opens the message.
 */
import { signal } from "@preact/signals";
import { navigate } from "../nav/router";
import { messageDmKey } from "../state/people";
import type { ServerEvent } from "../state/apply-event";
import type { State } from "../state/types";
import { alertFor, notificationText } from "./decide";
import { playSound } from "./sound";

export const supported = () => typeof Notification === "function";

/** The browser's answer for this site: "granted", "denied", "default" (not asked yet), or "unsupported". */
export const permission = signal<NotificationPermission | "unsupported">(supported() ? Notification.permission : "unsupported");

export async function askPermission(): Promise<void> {
  if (!supported()) return;
  permission.value = await Notification.requestPermission();
}

/** Shown and focused: messages are seen where they land. */
export const pageActive = () => document.visibilityState === "visible" && document.hasFocus();

function show(state: State, m: NonNullable<ServerEvent["message"]>): void {
  const text = notificationText(state, m);
  const icon = document.querySelector<HTMLLinkElement>("link[rel=icon]")?.href;
  const n = new Notification(text.title, { body: text.body, tag: text.tag, icon });
  const narrow = m.type === "stream" ? ({ kind: "topic", stream_id: m.stream_id, topic: m.subject } as const) : ({ kind: "dm", key: messageDmKey(state.me, m) } as const);
  n.onclick = () => {
    window.focus();
    navigate({ kind: "narrow", narrow, near: m.id });
    n.close();
  };
}

/** Alerts for the new messages among `events`, judged against the state they arrive in. */
export function alertForEvents(state: State, events: readonly ServerEvent[]): void {
  const active = pageActive();
  for (const e of events) {
    const alert = alertFor(state, e, active);
    if (!alert) continue;
    if (alert.desktop && supported() && Notification.permission === "granted") {
      try {
        show(state, e.message);
      } catch {
        // some browsers (Android's) allow notifications only from a service worker: the sound still plays
      }
    }
    if (alert.sound) playSound(state.settings.notification_sound);
  }
}

/** A notification on demand (the settings' "Send a test notification"). */
export function testNotification(): void {
  if (supported() && Notification.permission === "granted") new Notification("Parley", { body: "This is what a notification looks like.", tag: "test" });
}
