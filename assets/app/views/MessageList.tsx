/**
 * A view's messages, scrolled: it opens at the first unread message (or the newest), fetches older
 * messages when the person nears the top and newer ones near the bottom (anchor + num_before/num_after),
 * stays at the bottom as new messages arrive when the person was there, and marks what they see read.
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
import { layOut } from "./blocks";
import { openImage } from "./Lightbox";
import { MessageRow } from "./MessageRow";
import { RecipientBar } from "./RecipientBar";
import { ReadTracker } from "./reading";

const PAGE = 60;
/** how near an end (in pixels) fetching the next page starts */
const EDGE = 800;

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A message waiting in the outbox, shaped like the message it will become. */
function pendingMessage(p: Pending, myId: number, myName: string): Message {
  const base = { id: Number.MAX_SAFE_INTEGER, local_id: p.localId, sender_id: myId, sender_full_name: myName, sender_email: "", timestamp: p.timestamp, flags: ["read"], reactions: [], is_me_message: false };
  const content = p.content.split(/\n{2,}/).map((para) => `<p>${escapeHtml(para).replace(/\n/g, "<br>")}</p>`).join("");
  if (p.to.type === "stream") return { ...base, content, type: "stream", stream_id: p.to.stream_id, subject: p.to.topic, display_recipient: "" };
  const ids = [...new Set([...p.to.user_ids, myId])];
  return { ...base, content, type: "private", subject: "", display_recipient: ids.map((id) => ({ id, email: "", full_name: "" })) };
}

export interface ListTarget {
  /** the message to bring into view when the list opens, or the bottom */
  scrollTo: number | "bottom";
}

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
  const prepend = useRef<{ height: number; top: number } | null>(null);

  const pending = outbox.value;
  const shown = useMemo(() => {
    const real = (list?.ids ?? []).map((id) => cache[id]).filter((m): m is Message => !!m);
    if (!list?.found_newest) return real;
    const myName = users.peek()[myId]?.full_name ?? "";
    const mine = pending.filter((p) => p.id === undefined || !list.ids.includes(p.id)).map((p) => pendingMessage(p, myId, myName));
    return [...real, ...mine.filter((m) => matches(state.peek()!, narrow, m))];
  }, [list, cache, pending, myId]);
  const blocks = useMemo(() => layOut(myId, shown), [shown, myId]);

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
    const t = tracker.current;
    if (!t) return;
    for (const el of scroller.current!.querySelectorAll(".message-row[data-message-id]")) t.watch(el);
  });

  // opening: bring the target into view once its messages are there
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !target || !list) return;
    if (target.scrollTo === "bottom") el.scrollTop = el.scrollHeight;
    else {
      const row = el.querySelector<HTMLElement>(`[data-message-id="${target.scrollTo}"]`);
      // the message a third of the way down, as Zulip places the one it opens at
      if (row) el.scrollTop = Math.max(0, el.scrollTop + row.getBoundingClientRect().top - el.getBoundingClientRect().top - el.clientHeight / 3);
      else el.scrollTop = el.scrollHeight;
    }
    onPositioned();
  }, [target, list]);

  // after older messages arrive above, keep what the person was reading where it was
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && prepend.current) {
      el.scrollTop = prepend.current.top + (el.scrollHeight - prepend.current.height);
      prepend.current = null;
    } else if (el && stick.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [blocks]);

  async function load(how: "older" | "newer") {
    if (!list || loading) return;
    const el = scroller.current!;
    setLoading(how);
    setError(null);
    try {
      const anchor = how === "older" ? list.ids[0] : list.ids[list.ids.length - 1];
      const answer = anchor === undefined ? await fetchMessages(narrow, "newest", PAGE, 0) : await fetchMessages(narrow, anchor, how === "older" ? PAGE : 0, how === "newer" ? PAGE : 0, false);
      if (how === "older") prepend.current = { height: el.scrollHeight, top: el.scrollTop };
      update((s) => messagesFetched(s, narrow, answer, how));
    } catch (e) {
      setError(`Messages could not be loaded: ${describeError(e)}`);
    } finally {
      setLoading(null);
    }
  }

  function onScroll() {
    const el = scroller.current!;
    const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
    stick.current = fromBottom < 40 && !!list?.found_newest;
    if (!list || target) return;
    if (el.scrollTop < EDGE && !list.found_oldest) void load("older");
    else if (fromBottom < EDGE && !list.found_newest) void load("newer");
  }

  // a short list that does not fill the view: fetch on without waiting for a scroll
  useEffect(() => {
    const el = scroller.current;
    if (!el || !list || target || loading || error) return;
    if (el.scrollHeight <= el.clientHeight + EDGE) {
      if (!list.found_oldest) void load("older");
      else if (!list.found_newest) void load("newer");
    }
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40 && list.found_newest;
  }, [list, target, loading]);

  function onClick(e: MouseEvent) {
    const t = e.target as HTMLElement;
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

  const empty = list && shown.length === 0 && list.found_oldest && list.found_newest;
  return (
    <div ref={scroller} class="message-scroller" onScroll={onScroll} onClick={onClick} onKeyDown={onKeyDown} tabIndex={-1}>
      <div class="message-list" role="region" aria-busy={!list || loading !== null} aria-label="Messages">
        {list && !list.found_oldest && <div class="list-edge">{loading === "older" ? "Loading older messages…" : ""}</div>}
        {list?.found_oldest && shown.length > 0 && <div class="list-start">This is the beginning of the conversation.</div>}
        {!list && <div class="list-loading">Loading messages…</div>}
        {empty && <div class="list-empty">No messages here yet.</div>}
        {blocks.map((b) => (
          <section class="message-block" key={b.key}>
            <RecipientBar recipient={b.recipient} timestamp={b.timestamp} />
            {b.rows.map((r) => (
              <MessageRow key={r.message.local_id ?? r.message.id} m={r.message} showSender={r.showSender} pending={!!r.message.local_id} />
            ))}
          </section>
        ))}
        {list && !list.found_newest && <div class="list-edge">{loading === "newer" ? "Loading newer messages…" : ""}</div>}
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
