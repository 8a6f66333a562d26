/**
 * A view's messages, scrolled: it opens at the first unread message (or the newest), fetches older
 * messages when the person nears the top and newer ones near the bottom (anchor + num_before/num_after),
 * stays at the bottom as new messages arrive when the person was there, and marks what they see read.
 * Only a window of the loaded messages is in the page (see window.ts): nearing an edge of it moves it
 * over loaded messages first, then fetches. Whatever changes, the row the person was looking at stays
 * where it was on the screen. (The browser's find-in-page sees the rows in the window only.)
 * A view's first frame draws only the rows that fill the screen; the rest of its window follows after
 * that frame is painted, a step at a time, like any move of the window.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { fetchMessages } from "../api/calls";
import { describeError } from "../api/http";
import { messagesFetched } from "../state/fetched";
import { isConversation, matches, narrowKey, type Narrow } from "../state/narrow";
import { lists, me, messages, settings, state, update, users } from "../state/store";
import type { Message } from "../state/types";
import { outbox, type Pending } from "../compose/outbox";
import { toggleSpoiler } from "../lib/rendered";
import { layOut, rowsCovering } from "./blocks";
import { openImage } from "./Lightbox";
import { MessageRow } from "./MessageRow";
import { RecipientBar as Bar } from "./RecipientBar";
import { memo } from "../lib/memo";
import { ReadTracker } from "./reading";
import { editing } from "./editing";
import { scrollToSelected, select, selected } from "../keyboard/selection";
import { around, newer, older, opening, range, toward, trimmed, type Window } from "./window";
import { whenIdleAfterPaint } from "../lib/after-paint";

/** a bar draws again only when its conversation or day changed (layOut gives one object per conversation) */
const RecipientBar = memo(Bar);

const PAGE = 60;
/** how near an end (in pixels) fetching the next page starts */
const EDGE = 800;

/** how far beyond the screen's top and bottom the first frame's rows reach (pixels) */
const MARGIN = 120;
/** at most this long (ms) after the first frame is painted, the rest of an opening's window starts coming in */
const SETTLE_WAIT = 250;
const screenHeight = () => (typeof innerHeight === "number" && innerHeight > 0 ? innerHeight : 800);

/**
 * The first frame's first guess of the rows that fill the screen: at most a screen of 32 px rows (a row is
 * rarely under that), fewer when the rows about the target have bars and names above them (blocks.ts).
 */
function firstRows(ids: readonly number[], cache: Record<number, Message>, me: number, target: number | "bottom"): number {
  const most = Math.ceil(screenHeight() / 32);
  const [start, end] = range(ids, opening(ids, target, most));
  const sample = ids.slice(start, end).map((id) => cache[id]).filter((m): m is Message => !!m);
  return sample.length ? rowsCovering(me, sample, screenHeight()) : most;
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A message waiting in the outbox, shaped like the message it will become. */
function pendingMessage(p: Pending, myId: number, myName: string): Message {
  const base = { id: Number.MAX_SAFE_INTEGER, local_id: p.localId, sender_id: myId, sender_full_name: myName, sender_email: "", timestamp: p.timestamp, flags: ["read"], reactions: [], submessages: [], is_me_message: false };
  const content = p.content.split(/\n{2,}/).map((para) => `<p>${escapeHtml(para).replace(/\n/g, "<br>")}</p>`).join("");
  if (p.to.type === "stream") return { ...base, content, type: "stream", stream_id: p.to.stream_id, subject: p.to.topic, display_recipient: "" };
  const ids = [...new Set([...p.to.user_ids, myId])];
  return { ...base, content, type: "private", subject: "", display_recipient: ids.map((id) => ({ id, email: "", full_name: "" })) };
}

export interface ListTarget {
  /** the message to bring into view when the list opens, or the bottom */
  scrollTo: number | "bottom";
  /** where its top goes, in pixels below the top of the list (a third of the way down when not said) */
  offset?: number;
  /** the message to select, when it is not `scrollTo` */
  select?: number | null;
}

/**
 * Where the person left each view (the row at the top of the list, how far down it was, the selected
 * message), so returning to a view still in memory puts them back there; a view left at its bottom is
 * not kept, and opens at its bottom (or at the first unread message that arrived meanwhile: MessageView).
 */
const positions = new Map<string, { id: number; offset: number; selected: number | null }>();

/** Where the person left the view, as a target to open it at (the bottom when they left it there). */
export function returnTarget(key: string): ListTarget {
  const p = positions.get(key);
  return p ? { scrollTo: p.id, offset: p.offset, select: p.selected } : { scrollTo: "bottom" };
}

/** Forgets every view's place (the lists themselves were forgotten). */
export const forgetPositions = () => positions.clear();

interface Props {
  narrow: Narrow;
  target: ListTarget | null;
  onPositioned(): void;
  readingPaused: boolean;
}

export function MessageList({ narrow, target, onPositioned, readingPaused }: Props) {
  const key = narrowKey(narrow);
  const list = lists.value[key];
  const cache = messages.value;
  const myId = me.value;
  const scroller = useRef<HTMLDivElement>(null);
  const tracker = useRef<ReadTracker | null>(null);
  const [loading, setLoading] = useState<"older" | "newer" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stick = useRef(false);
  /** the window shown once the list is positioned (while a target is pending, the window is around it) */
  const win = useRef<Window | null>(null);
  const [, setMoved] = useState(0);
  /** the topmost row in view and where it was, taken before each update, so it can be put back there */
  const anchor = useRef<{ id: string; top: number } | null>(null);
  /** the topmost row in view and where it is, as of the last scroll or update (see keepReading) */
  const reading = useRef<{ id: string; top: number } | null>(null);
  /** Puts the row being read back where it was, after something above it changed height. */
  function keepReading(el: HTMLElement) {
    const was = reading.current;
    const row = was && el.querySelector<HTMLElement>(`.message-row[data-message-id="${was.id}"]`);
    const moved = row ? row.getBoundingClientRect().top - was.top : 0;
    if (moved) el.scrollTop += moved;
  }

  /** an opening's first frame: how many rows it draws (grown until they fill the screen: the opening effect) */
  const first = useRef<{ target: ListTarget; rows: number } | null>(null);
  const ids = list?.ids ?? [];
  if (target && first.current?.target !== target) first.current = { target, rows: firstRows(ids, cache, myId, target.scrollTo) };
  /** from the opening until the frame after its first paint: the rest of the window waits for that paint */
  const settling = useRef(false);
  /** the window an opening's first frame drew part of: it grows to it after that frame, a step at a time */
  const goal = useRef<Window | null>(null);

  const w = target ? opening(ids, target.scrollTo, first.current!.rows) : trimmed(ids, win.current ?? around(ids, "bottom"));
  win.current = w;
  const [start, end] = range(ids, w);
  const atEnd = end === ids.length;

  const pending = outbox.value;
  const shown = useMemo(() => {
    // the rows are about to change: note the one the person is reading from (see the layout effect below);
    // a list held at its bottom is no longer held when the person has scrolled away from it, even if that
    // scroll's event has not come yet (it comes with the next frame, and this render may come first)
    const el = scroller.current;
    if (el && stick.current && el.scrollHeight - el.scrollTop - el.clientHeight >= 40) stick.current = false;
    if (!target && !stick.current) anchor.current = topRow(el);
    const real = ids.slice(start, end).map((id) => cache[id]).filter((m): m is Message => !!m);
    if (!list?.found_newest || !atEnd) return real;
    const myName = users.peek()[myId]?.full_name ?? "";
    const mine = pending.filter((p) => p.id === undefined || !list.ids.includes(p.id)).map((p) => pendingMessage(p, myId, myName));
    return [...real, ...mine.filter((m) => matches(state.peek()!, narrow, m))];
  }, [list, cache, pending, myId, start, end, target]);
  /** the last layout: a block that keeps any of its rows keeps its key (layOut), so its rows stay in the page as they are */
  const laidOut = useRef<ReturnType<typeof layOut>>([]);
  const blocks = useMemo(() => (laidOut.current = layOut(myId, shown, laidOut.current)), [shown, myId]);

  // reading: as the person's setting allows, and not after "mark as unread from here"
  const policy = settings.value.web_mark_read_on_scroll_policy;
  const reads = !readingPaused && (policy === 1 || (policy === 2 && isConversation(narrow)));
  useEffect(() => {
    const t = new ReadTracker(scroller.current!);
    tracker.current = t;
    const onVisible = () => document.visibilityState === "visible" && t.recheck();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      t.stop();
    };
  }, [key]);
  useEffect(() => {
    const t = tracker.current!;
    const was = t.enabled;
    t.enabled = reads;
    if (reads && !was) t.recheck();
  }, [reads]);
  useLayoutEffect(() => {
    tracker.current?.sync(scroller.current!);
  }, [blocks]);

  // an image that finished loading (a thumbnail, a custom emoji) changed its row's height: a list at its
  // bottom stays there, and elsewhere the row being read stays where it was on the screen (the browser's
  // own scroll anchoring is off for this list, which keeps its rows in place itself)
  useEffect(() => {
    const el = scroller.current!;
    const onLoad = (e: Event) => {
      if (!(e.target instanceof HTMLImageElement)) return;
      if (stick.current) el.scrollTop = el.scrollHeight;
      else keepReading(el);
    };
    el.addEventListener("load", onLoad, true);
    return () => el.removeEventListener("load", onLoad, true);
  }, []);

  // opening: bring the target into view once its messages are there; when the first frame's rows leave
  // a gap on the screen (or its margin), more of them in this same frame, before anything is painted
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !target || !list) return;
    const row = target.scrollTo === "bottom" ? null : el.querySelector<HTMLElement>(`[data-message-id="${target.scrollTo}"]`);
    // the message a third of the way down, as Zulip places the one it opens at (or where it was left)
    if (row) el.scrollTop = Math.max(0, el.scrollTop + row.getBoundingClientRect().top - el.getBoundingClientRect().top - (target.offset ?? el.clientHeight / 3));
    else el.scrollTop = el.scrollHeight;
    const more = rowsToFill(el, ids, target.scrollTo, start, end);
    if (more) {
      first.current!.rows = more;
      setMoved((n) => n + 1);
      return;
    }
    if (target.scrollTo === "bottom") select(list.ids.at(-1) ?? null);
    else {
      const keep = target.select != null && list.ids.includes(target.select) ? target.select : null;
      select(row ? (keep ?? target.scrollTo) : (list.ids.at(-1) ?? null));
    }
    settling.current = true;
    goal.current = around(ids, target.scrollTo);
    onPositioned();
  }, [target, list, start, end]);

  // leaving the view: note where the person was, for coming back (see `positions`)
  useLayoutEffect(
    () => () => {
      const el = scroller.current;
      const top = topRow(el);
      if (!el || stick.current || !top || Number(top.id) >= Number.MAX_SAFE_INTEGER) positions.delete(key);
      else positions.set(key, { id: Number(top.id), offset: top.top - el.getBoundingClientRect().top, selected: selected.peek() });
    },
    [key],
  );

  // after rows came or went (older messages above, the window moved, a message edited), the row the
  // person was looking at goes back to where it was; at the bottom, the list stays at the bottom
  useLayoutEffect(() => {
    const el = scroller.current;
    const was = anchor.current;
    anchor.current = null;
    if (!el || target) return;
    if (stick.current) el.scrollTop = el.scrollHeight;
    else if (was) {
      const row = el.querySelector<HTMLElement>(`.message-row[data-message-id="${was.id}"]`);
      const moved = row ? row.getBoundingClientRect().top - was.top : 0;
      if (moved) el.scrollTop += moved;
    }
    reading.current = topRow(el);
    // just opened: the rest of the window (and any fetch) once the first frame is on the screen and the
    // page is idle (the rows beyond the screen are for scrolling, which can wait that long)
    if (settling.current) return whenIdleAfterPaint(settle, SETTLE_WAIT);
    // still near an edge of the window with more loaded beyond it: the next step in the next frame,
    // a few rows at a time, so no one task draws hundreds of rows
    const frame = requestAnimationFrame(() => grow() || moveNearEdge());
    return () => cancelAnimationFrame(frame);
  }, [blocks]);

  // the keyboard moved the selection: bring the message into view, moving the window to it first when
  // it is outside (Home, or a step past the window's edge); after the row-keeping above, so it wins
  const scrollRequest = scrollToSelected.value;
  const scrollPending = useRef<{ request: number; windowMoved: boolean } | null>(null);
  /** the last keyboard request taken up (each is served once, not again when the rows change later) */
  const scrollTaken = useRef(scrollRequest);
  useLayoutEffect(() => {
    if (scrollRequest !== scrollTaken.current) {
      scrollTaken.current = scrollRequest;
      scrollPending.current = { request: scrollRequest, windowMoved: false };
    }
    const pending = scrollPending.current;
    if (!pending) return;
    const id = selected.peek();
    const row = scroller.current?.querySelector<HTMLElement>(`.message-row[data-message-id="${id}"]`);
    if (row) {
      scrollPending.current = null;
      row.scrollIntoView({ block: "nearest" });
      row.focus({ preventScroll: true });
      return;
    }
    const ids = lists.peek()[key]?.ids ?? [];
    if (id === null || pending.windowMoved || !ids.includes(id)) {
      scrollPending.current = null;
      return;
    }
    pending.windowMoved = true;
    stick.current = false;
    goal.current = null;
    win.current = around(ids, id);
    setMoved((n) => n + 1);
  }, [scrollRequest, blocks]);

  /** A step of the window towards the opening's goal (true), or none left (false). */
  function grow(): boolean {
    const g = goal.current;
    const next = g && win.current && toward(lists.peek()[key]?.ids ?? [], win.current, g);
    if (!next) {
      goal.current = null;
      return false;
    }
    win.current = next;
    setMoved((n) => n + 1);
    return true;
  }

  /** Moves the window over loaded messages (true), or says there are none that way (false). */
  function move(how: "older" | "newer"): boolean {
    const w = win.current;
    const next = w && (how === "older" ? older : newer)(lists.peek()[key]?.ids ?? [], w);
    if (!next) return false;
    win.current = next;
    setMoved((n) => n + 1);
    return true;
  }

  /** Near the top or the bottom of the page: the window moves that way if it can. */
  function moveNearEdge(): boolean {
    const el = scroller.current;
    if (!el || target) return false;
    if (el.scrollTop < EDGE && move("older")) return true;
    return el.scrollHeight - el.scrollTop - el.clientHeight < EDGE && !stick.current && move("newer");
  }

  async function load(how: "older" | "newer") {
    if (!list || loading) return;
    setLoading(how);
    setError(null);
    try {
      const from = how === "older" ? list.ids[0] : list.ids[list.ids.length - 1];
      const answer = from === undefined ? await fetchMessages(narrow, "newest", PAGE, 0) : await fetchMessages(narrow, from, how === "older" ? PAGE : 0, how === "newer" ? PAGE : 0, false);
      update((s) => messagesFetched(s, narrow, answer, how));
      // the window takes in the older page (a newer one joins a window that runs to the end)
      if (how === "older" && win.current) {
        const next = older(lists.peek()[key]?.ids ?? [], win.current);
        if (next) win.current = next;
      }
    } catch (e) {
      setError(`Messages could not be loaded: ${describeError(e)}`);
    } finally {
      setLoading(null);
    }
  }

  /** The first frame is painted: the rest of the window comes in (or, when it is all there, what scrolling brings). */
  function settle() {
    settling.current = false;
    if (!grow()) onScroll();
  }

  function onScroll() {
    // (a scroll event queued before the list left the page still reaches this handler)
    const el = scroller.current;
    if (!el) return;
    reading.current = topRow(el);
    const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
    stick.current = fromBottom < 40 && !!list?.found_newest && atEnd;
    if (!list || target || loading || settling.current || moveNearEdge()) return;
    if (el.scrollTop < EDGE && !list.found_oldest) void load("older");
    else if (fromBottom < EDGE && !list.found_newest) void load("newer");
  }

  // a short list that does not fill the view: fetch on without waiting for a scroll
  useEffect(() => {
    const el = scroller.current;
    if (!el || !list || target || loading || error) return;
    if (el.scrollHeight <= el.clientHeight + EDGE && !settling.current) {
      if (moveNearEdge()) return;
      if (!list.found_oldest) void load("older");
      else if (!list.found_newest) void load("newer");
    }
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40 && list.found_newest && atEnd;
  }, [list, target, loading]);

  function onClick(e: MouseEvent) {
    const t = e.target as HTMLElement;
    const clickedRow = t.closest<HTMLElement>(".message-row[data-message-id]");
    if (clickedRow) select(Number(clickedRow.dataset.messageId));
    const spoiler = t.closest<HTMLElement>(".spoiler-header");
    if (spoiler) return toggleSpoiler(spoiler);
    const image = t.closest<HTMLAnchorElement>(".message_inline_image a");
    if (image && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
      e.preventDefault();
      openImage(image);
    }
  }
  function onKeyDown(e: KeyboardEvent) {
    const t = e.target as HTMLElement;
    if ((e.key === "Enter" || e.key === " ") && t.classList.contains("spoiler-header")) {
      e.preventDefault();
      toggleSpoiler(t);
    }
  }

  const sel = selected.value;
  const editingId = editing.value?.id;
  const empty = list && shown.length === 0 && list.found_oldest && list.found_newest;
  return (
    <div ref={scroller} class="message-scroller" onScroll={onScroll} onClick={onClick} onKeyDown={onKeyDown} tabIndex={-1}>
      <div class="message-list" role="region" aria-busy={!list || loading !== null} aria-label="Messages">
        {list && !(list.found_oldest && start === 0) && <div class="list-edge">{loading === "older" ? "Loading older messages…" : ""}</div>}
        {list?.found_oldest && start === 0 && shown.length > 0 && <div class="list-start">{narrow.kind === "search" ? "These are all the messages found." : "This is the beginning of the conversation."}</div>}
        {!list && <div class="list-loading">Loading messages…</div>}
        {empty && <div class="list-empty">{narrow.kind === "search" ? "No messages match this search." : "No messages here yet."}</div>}
        {blocks.map((b) => (
          <section class="message-block" key={b.key}>
            <RecipientBar recipient={b.recipient} timestamp={b.timestamp} subjectHtml={list?.highlights?.[b.rows[0]!.message.id]?.subject} />
            {b.rows.map((r) => (
              <MessageRow
                key={r.message.local_id ?? r.message.id}
                m={r.message}
                showSender={r.showSender}
                pending={!!r.message.local_id}
                selected={sel === r.message.id}
                editing={editingId === r.message.id}
                highlight={list?.highlights?.[r.message.id]}
              />
            ))}
          </section>
        ))}
        {list && !(list.found_newest && atEnd) && <div class="list-edge">{loading === "newer" ? "Loading newer messages…" : ""}</div>}
        {error && (
          <div class="list-error" role="alert">
            {error}{" "}
            <button type="button" class="link-button" onClick={() => setError(null)}>
              Try again
            </button>
          </div>
        )}
      </div>
    </div>
  );
}

/**
 * How many rows an opening's first frame needs when those drawn leave a gap (within MARGIN) above or
 * below the screen while its window has rows there; null when they fill it. The guess scales the rows
 * drawn by the height they took, so one more pass is usually enough.
 */
function rowsToFill(el: HTMLElement, ids: readonly number[], target: number | "bottom", start: number, end: number): number | null {
  const [first, last] = range(ids, around(ids, target));
  const gapAbove = start > first && el.scrollTop < MARGIN;
  const gapBelow = end < last && el.scrollHeight - el.scrollTop - el.clientHeight < MARGIN;
  if (!gapAbove && !gapBelow) return null;
  const drawn = end - start;
  const height = (el.firstElementChild as HTMLElement | null)?.offsetHeight ?? 0;
  const guess = height > 0 ? Math.ceil((drawn * (el.clientHeight + 2 * MARGIN)) / height) + 4 : drawn * 2;
  return Math.min(last - first, Math.max(drawn + 4, guess));
}

/** The first row whose bottom is below the top of the scroller (the one the person reads from), and its top. */
function topRow(scroller: HTMLElement | null): { id: string; top: number } | null {
  if (!scroller) return null;
  const rows = scroller.querySelectorAll<HTMLElement>(".message-row[data-message-id]");
  // no rows (a list still loading): nothing to measure, and no layout forced for it
  if (rows.length === 0) return null;
  const edge = scroller.getBoundingClientRect().top;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.getBoundingClientRect().bottom <= edge) lo = mid + 1;
    else hi = mid;
  }
  const row = rows[lo];
  return row ? { id: row.dataset.messageId!, top: row.getBoundingClientRect().top } : null;
}
