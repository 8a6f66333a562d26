/**
 * The current view follows the URL's hash: navigating sets the hash (so the back button, reloads and
 * shared links land in the same place), and a hash the app cannot show falls back to the home view.
 * A settings hash (`#settings/…`, `#organization/…`) opens the settings overlay over the view beneath,
 * which stays as it was; closing the overlay returns to that view's hash.
 */
import { signal } from "@preact/signals";
import { state } from "../state/store";
import { homeView, parseHash, viewHash, type PageView, type SettingsView, type View } from "./hash";

export const view = signal<PageView>({ kind: "inbox" });
/** The open settings section, or null when the overlay is closed. */
export const settingsView = signal<SettingsView | null>(null);
let pageShown = false;

function follow(): void {
  const s = state.value!;
  const parsed = parseHash(s, location.hash);
  if (parsed?.kind === "settings") {
    settingsView.value = parsed;
    if (!pageShown) view.value = homeView(s);
    pageShown = true;
    return;
  }
  settingsView.value = null;
  pageShown = true;
  if (parsed) {
    view.value = parsed;
    return;
  }
  const home = homeView(s);
  history.replaceState(null, "", viewHash(s, home));
  view.value = home;
}

export function startRouter(): void {
  addEventListener("hashchange", follow);
  follow();
}

export function navigate(v: View): void {
  const hash = viewHash(state.value!, v);
  if (location.hash !== hash) location.hash = hash;
  else if (v.kind === "settings") settingsView.value = v;
  else view.value = v;
}

/** Closes the settings overlay: back to the view beneath it. */
export const closeSettings = () => navigate(view.peek());

export const hrefOf = (v: View) => viewHash(state.value!, v);

/** The topic shown moved away as a whole: the view goes with it (as Zulip's does). */
export function followMovedTopic(from: { stream_id: number; topic: string }, to: { stream_id: number; topic: string }): void {
  const v = view.peek();
  if (v.kind !== "narrow" || v.narrow.kind !== "topic") return;
  if (v.narrow.stream_id !== from.stream_id || v.narrow.topic.toLowerCase() !== from.topic.toLowerCase()) return;
  navigate({ kind: "narrow", narrow: { kind: "topic", ...to } });
}
