/**
 * Zulip's core keyboard shortcuts: `/` search, `?` help, `j`/`k` (and the arrows) move the selected
 * message, `Home`/`End` the first and last, `r` or Enter reply to it, `c` a new topic, `x` a new direct
 * message, `n` the next unread topic, `p` the next unread conversation, `*` star, `e` edit, Escape back
 * to the home view. None fires while the person types in a field, or with Ctrl, Alt or ⌘ held; open
 * menus and dialogs handle their own keys.
 */
import { navigate, settingsView, view } from "../nav/router";
import { homeView } from "../nav/hash";
import { narrowKey } from "../state/narrow";
import { state } from "../state/store";
import type { Message } from "../state/types";
import { newDirectMessage, newTopic, replyTo } from "../compose/reply";
import { dialogOpen, openLazyDialog } from "../views/Dialog";
import { editSelected, toggleStar } from "../views/message-actions";
import { editing } from "../views/editing";
import { focusSearch } from "../views/SearchBar";
import { showNotice } from "../views/Notice";
import { nextUnreadDm, nextUnreadTopic, step } from "./navigation";
import { select, selected } from "./selection";

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

/** The ids of the open message view, oldest first (empty elsewhere). */
function viewIds(): number[] {
  const v = view.value;
  return v.kind === "narrow" ? (state.value!.lists[narrowKey(v.narrow)]?.ids ?? []) : [];
}

/** The selected message of the open view (the newest when none is). */
function current(): Message | null {
  const ids = viewIds();
  const id = selected.value !== null && ids.includes(selected.value) ? selected.value : ids.at(-1);
  return id === undefined ? null : (state.value!.messages[id] ?? null);
}

function move(delta: number | "first" | "last"): void {
  const ids = viewIds();
  if (!ids.length) return;
  const id = delta === "first" ? ids[0]! : delta === "last" ? ids.at(-1)! : step(ids, selected.value, delta);
  select(id, true);
}

export function openKeyboardHelp(): void {
  openLazyDialog(() => import("../views/KeyboardHelp").then((mod) => () => <mod.KeyboardHelp />));
}

function onKey(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
  const target = e.target as HTMLElement | null;
  if (typing(target)) {
    // Escape leaves the compose box (the fields with their own Escape stop it first)
    if (e.key === "Escape" && target?.closest(".compose")) target.blur();
    return;
  }
  // an open menu, dialog or message editor has the keys (Escape closes it, not the view)
  // so does the settings overlay
  if (dialogOpen() || settingsView.peek() || editing.peek() || target?.closest("[role=menu], .lightbox") || document.querySelector(".menu[role=menu]")) return;
  const v = view.value;
  const s = state.value!;
  const inView = v.kind === "narrow";
  const act = (f: () => void) => {
    e.preventDefault();
    f();
  };
  switch (e.key) {
    case "/":
      return act(focusSearch);
    case "?":
      return act(openKeyboardHelp);
    case "j":
    case "ArrowDown":
      if (inView) act(() => move(1));
      return;
    case "k":
    case "ArrowUp":
      if (inView) act(() => move(-1));
      return;
    case "Home":
      if (inView) act(() => move("first"));
      return;
    case "End":
      if (inView) act(() => move("last"));
      return;
    case "Enter":
      // Enter on a button or link is theirs; on a message (or nowhere) it replies
      if (target && target !== document.body && !target.matches(".message-row, .message-scroller, #main-pane")) return;
      if (inView && current()) act(() => replyTo(current()!));
      return;
    case "r": {
      const m = inView ? current() : null;
      if (m) act(() => replyTo(m));
      return;
    }
    case "c":
      return act(() => newTopic(v.kind === "narrow" && (v.narrow.kind === "channel" || v.narrow.kind === "topic") ? v.narrow.stream_id : null));
    case "x":
      return act(() => newDirectMessage(v.kind === "narrow" && v.narrow.kind === "dm" ? v.narrow.key : null));
    case "n":
      return act(() => {
        const here = v.kind === "narrow" && (v.narrow.kind === "topic" ? { stream_id: v.narrow.stream_id, topic: v.narrow.topic } : v.narrow.kind === "channel" ? { stream_id: v.narrow.stream_id } : null);
        const next = nextUnreadTopic(s, here || null);
        if (next) navigate({ kind: "narrow", narrow: { kind: "topic", stream_id: next.stream_id, topic: next.topic } });
        else showNotice("There are no more unread topics.");
      });
    case "p":
      return act(() => {
        const next = nextUnreadDm(s, v.kind === "narrow" && v.narrow.kind === "dm" ? v.narrow.key : null);
        if (next) navigate({ kind: "narrow", narrow: { kind: "dm", key: next } });
        else showNotice("There are no more unread direct messages.");
      });
    case "*": {
      const m = inView ? current() : null;
      if (m) act(() => toggleStar(m));
      return;
    }
    case "e": {
      const m = inView ? current() : null;
      if (m) act(() => editSelected(m));
      return;
    }
    case "Escape":
      // the phone-width drawers close first (the page's own listener)
      if (document.querySelector(".app-shell.left-open, .app-shell.right-open")) return;
      if (inView) act(() => navigate(homeView(s)));
      return;
  }
}

export function startShortcuts(): () => void {
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
