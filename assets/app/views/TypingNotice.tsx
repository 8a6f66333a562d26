/** "Hamlet is typing…" under a topic's or direct-message conversation's messages, from `typing` events. */
import { signal } from "@preact/signals";
import { useEffect, useState } from "preact/hooks";
import type { ServerEvent } from "../state/apply-event";
import { nextExpiry, onMessageFrom, onTypingEvent, typingKey, typingText, typists, type Typing } from "../state/typing";
import type { Narrow } from "../state/narrow";
import { me, realm, users } from "../state/store";
import { messageDmKey } from "../state/people";

const typing = signal<Typing>({});

/** Takes the typing events of a batch (and ends the notices of those whose message arrived). */
export function noteTypingEvents(events: readonly ServerEvent[]): void {
  let t = typing.peek();
  const myId = me.peek();
  for (const e of events) {
    if (e.type === "typing") t = onTypingEvent(t, e, myId, Date.now(), realm.peek().typing_expiry_ms);
    else if (e.type === "message") {
      const m = e.message;
      const key = m.type === "stream" ? typingKey({ kind: "topic", stream_id: m.stream_id, topic: m.subject }) : typingKey({ kind: "dm", key: messageDmKey(myId, m) });
      t = onMessageFrom(t, key, m.sender_id);
    }
  }
  if (t !== typing.peek()) typing.value = t;
}

export function TypingNotice({ narrow }: { narrow: Narrow }) {
  const key = narrow.kind === "topic" ? typingKey(narrow) : narrow.kind === "dm" ? typingKey(narrow) : null;
  const t = typing.value;
  const [now, setNow] = useState(Date.now());
  // redraw when the first notice expires
  useEffect(() => {
    const current = Date.now();
    setNow(current);
    const next = key ? nextExpiry(t, key, current) : null;
    if (next === null) return;
    const timer = setTimeout(() => setNow(Date.now()), next - current + 10);
    return () => clearTimeout(timer);
  }, [t, key]);
  const ids = key ? typists(t, key, now) : [];
  const text = typingText(ids.map((id) => users.value[id]?.full_name ?? "Someone"));
  return (
    <div class="typing-notice" aria-live="polite">
      {text}
    </div>
  );
}
