/** Typing notices: sending them with Zulip's timing, and who is shown typing where (assets/app/compose/typing-status.ts, state/typing.ts). */
import { describe, expect, test } from "bun:test";
import { TypingStatus, type TypingRecipient } from "../../assets/app/compose/typing-status";
import { nextExpiry, onMessageFrom, onTypingEvent, typingKey, typingText, typists, type Typing } from "../../assets/app/state/typing";

/** A clock and timers the test moves by hand. */
function fakeWorld() {
  let now = 1000;
  let timers: { at: number; f: () => void; id: number }[] = [];
  let ids = 0;
  const sent: string[] = [];
  const worker = {
    now: () => now,
    setTimeout: (f: () => void, ms: number) => {
      timers.push({ at: now + ms, f, id: ++ids });
      return ids;
    },
    clearTimeout: (id: unknown) => (timers = timers.filter((t) => t.id !== id)),
    notify: (op: "start" | "stop", to: TypingRecipient) => sent.push(`${op} ${to.type === "stream" ? `${to.stream_id}:${to.topic}` : to.to.join(",")}`),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((t) => t.at <= now)) {
      timers = timers.filter((x) => x !== t);
      t.f();
    }
  };
  return { worker, advance, sent };
}

const topic = (t: string): TypingRecipient => ({ type: "stream", stream_id: 12, topic: t });

describe("sending typing notices", () => {
  test("start at once, again at most every 10 s while typing, stop after the idle period", () => {
    const w = fakeWorld();
    const status = new TypingStatus(w.worker, () => ({ startedWaitMs: 10_000, stoppedWaitMs: 5_000 }));
    status.update(topic("lunch"));
    for (let i = 0; i < 12; i++) {
      w.advance(1000);
      status.update(topic("Lunch"));
    }
    expect(w.sent).toEqual(["start 12:lunch", "start 12:lunch"]);
    w.advance(4999);
    expect(w.sent.length).toBe(2);
    w.advance(1);
    expect(w.sent).toEqual(["start 12:lunch", "start 12:lunch", "stop 12:lunch"]);
  });

  test("another conversation stops the first and starts the second; sending (or clearing) stops at once, once", () => {
    const w = fakeWorld();
    const status = new TypingStatus(w.worker, () => ({ startedWaitMs: 10_000, stoppedWaitMs: 5_000 }));
    status.update(topic("a"));
    status.update({ type: "direct", to: [5, 6] });
    status.update(null);
    status.stop();
    w.advance(60_000);
    expect(w.sent).toEqual(["start 12:a", "stop 12:a", "start 5,6", "stop 5,6"]);
  });
});

describe("typing notices shown", () => {
  const start = (sender: number, extra: object) => ({ type: "typing", op: "start", sender: { user_id: sender, email: "" }, ...extra });
  const inTopic = { message_type: "stream", stream_id: 12, topic: "Lunch" };
  const dm = { message_type: "direct", recipients: [{ user_id: 4 }, { user_id: 5 }] };

  test("by conversation (topics without regard to case), until stop, a message from them, or the expiry period", () => {
    let t: Typing = {};
    t = onTypingEvent(t, start(5, inTopic), 4, 0, 15_000);
    t = onTypingEvent(t, start(6, { ...inTopic, topic: "lunch" }), 4, 1000, 15_000);
    t = onTypingEvent(t, start(5, dm), 4, 0, 15_000);
    const lunch = typingKey({ kind: "topic", stream_id: 12, topic: "LUNCH" });
    const withOthello = typingKey({ kind: "dm", key: "5" });
    expect(typists(t, lunch, 2000)).toEqual([5, 6]);
    expect(typists(t, withOthello, 2000)).toEqual([5]);
    expect(nextExpiry(t, lunch, 2000)).toBe(15_000);
    expect(typists(t, lunch, 15_000)).toEqual([6]);
    expect(typists(onTypingEvent(t, { ...start(6, inTopic), op: "stop" }, 4, 2000, 15_000), lunch, 2000)).toEqual([5]);
    expect(typists(onMessageFrom(t, lunch, 5), lunch, 2000)).toEqual([6]);
    // the person's own typing (another tab of theirs) is not shown
    expect(onTypingEvent(t, start(4, inTopic), 4, 0, 15_000)).toBe(t);
  });

  test("Zulip's words for one, a few, and several typists", () => {
    expect(typingText([])).toBe("");
    expect(typingText(["Hamlet"])).toBe("Hamlet is typing…");
    expect(typingText(["Hamlet", "Othello"])).toBe("Hamlet and Othello are typing…");
    expect(typingText(["A", "B", "C"])).toBe("A, B and C are typing…");
    expect(typingText(["A", "B", "C", "D"])).toBe("Several people are typing…");
  });
});
