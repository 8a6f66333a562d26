/**
 * A message view (a narrow): its header, its messages and the compose box. Opening it fetches the
 * messages around the first unread one (`anchor=first_unread`) or around a linked message (`near`),
 * unless the view's list is already known and current: then it opens where the person left it.
 */
import { useLayoutEffect, useMemo, useState } from "preact/hooks";
import { fetchMessages, flagNarrow, openingFetch } from "../api/calls";
import { newerThanEarly } from "../api/first-messages";
import { describeError } from "../api/http";
import { keepLists, messagesFetched } from "../state/fetched";
import { narrowKey, type Narrow } from "../state/narrow";
import { lists, unread, update } from "../state/store";
import { ComposeBox } from "../compose/ComposeBox";
import { DropZone } from "../compose/DropZone";
import { TypingNotice } from "./TypingNotice";
import { forgetPositions, MessageList, returnTarget, type ListTarget } from "./MessageList";
import { NarrowHeader } from "./NarrowHeader";
import { ViewContext, type ViewActions } from "./message-actions";
import { showNotice } from "./Notice";

/** The views whose lists stay in memory (the last few opened), so going back is instant. */
const recentKeys: string[] = [];
const KEEP = 5;

function remember(key: string): string[] {
  const at = recentKeys.indexOf(key);
  if (at >= 0) recentKeys.splice(at, 1);
  recentKeys.unshift(key);
  recentKeys.length = Math.min(recentKeys.length, KEEP);
  return [...recentKeys, "all"];
}

/** Forgets every list and where the person was in it (the state was rebuilt after the event queue was lost). */
export function forgetViews() {
  recentKeys.length = 0;
  forgetPositions();
}

export function MessageView({ narrow, near }: { narrow: Narrow; near?: number }) {
  const key = narrowKey(narrow);
  const [target, setTarget] = useState<ListTarget | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [readingPaused, setReadingPaused] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // a layout effect, so an answer already here (the first view's, asked for at start-up) is drawn in
  // the same frame as the view, not one frame later
  useLayoutEffect(() => {
    setReadingPaused(false);
    setFailed(null);
    const keep = remember(key);
    const cached = lists.peek()[key];
    if (cached?.found_newest && near === undefined) {
      update((s) => keepLists(s, keep));
      // back where the person left it; left at its bottom, at the first message that came meanwhile
      // and is still unread (as a view opens at its first unread message)
      const back = returnTarget(key);
      const firstUnread = back.scrollTo === "bottom" ? cached.ids.find((id) => id in unread.peek().messages) : undefined;
      setTarget(firstUnread === undefined ? back : { scrollTo: firstUnread });
      return;
    }
    // a link to a message the view already holds: straight there, nothing to fetch
    if (cached && near !== undefined && cached.ids.includes(near)) {
      update((s) => keepLists(s, keep));
      setTarget({ scrollTo: near });
      return;
    }
    setTarget(null);
    // fetched afresh: the view's old messages leave the page meanwhile, rather than showing where the
    // person was until the answer comes (and then jumping)
    if (cached) update((s) => keepLists(s, keep.filter((k) => k !== key)));
    let cancelled = false;
    // a search opens at its newest results, as Zulip's does; other views at the first unread message
    fetchMessages(...openingFetch(narrow, near)).then(
      (answer) => {
        if (cancelled) return;
        update((s) => keepLists(messagesFetched(s, narrow, answer, "replace"), keep));
        const firstUnread = narrow.kind === "search" ? undefined : answer.messages.find((m) => !m.flags.includes("read"));
        const anchor = near ?? firstUnread?.id;
        setTarget({ scrollTo: anchor !== undefined && answer.messages.some((m) => m.id === anchor) ? anchor : "bottom" });
        // asked for at start-up, before the event queue existed: whatever came meanwhile is fetched now
        const after = newerThanEarly(answer);
        if (after !== null) {
          fetchMessages(narrow, after, 0, 50, false).then(
            (more) => !cancelled && update((s) => messagesFetched(s, narrow, more, "newer")),
            (e) => !cancelled && showNotice(`Newer messages could not be loaded: ${describeError(e)}`),
          );
        }
      },
      (e) => !cancelled && setFailed(describeError(e)),
    );
    return () => {
      cancelled = true;
    };
  }, [key, near, attempt]);

  const actions: ViewActions = useMemo(
    () => ({
      narrow,
      markUnreadFrom(messageId: number) {
        setReadingPaused(true);
        flagNarrow(narrow, "remove", messageId, true).then(
          () => showNotice("Marked as unread. Messages here stay unread until you open this view again."),
          (e) => showNotice(`Could not mark as unread: ${describeError(e)}`),
        );
      },
    }),
    [key],
  );

  return (
    <ViewContext.Provider value={actions}>
      <DropZone class="message-view">
        <NarrowHeader narrow={narrow} />
        {failed && !lists.peek()[key] ? (
          <div class="list-error view-error" role="alert">
            These messages could not be loaded: {failed}{" "}
            <button type="button" class="link-button" onClick={() => setAttempt(attempt + 1)}>
              Try again
            </button>
          </div>
        ) : (
          <MessageList key={key} narrow={narrow} target={target} onPositioned={() => setTarget(null)} readingPaused={readingPaused} />
        )}
        <TypingNotice narrow={narrow} />
        <ComposeBox narrow={narrow} />
      </DropZone>
    </ViewContext.Provider>
  );
}
