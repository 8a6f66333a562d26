/**
 * The first view's messages asked for alongside /register: which URLs can be read before /register
 * answers, the view taking that answer only when it asks with the same parameters, and the catch-up
 * after an answer that may predate the event queue.
 */
import { describe, expect, test } from "bun:test";
import { viewBeforeRegister } from "../../assets/app/nav/hash";
import { earlySettled, fetchEarly, newerThanEarly, noteRegistered, takeEarly } from "../../assets/app/api/first-messages";
import type { Message } from "../../assets/app/state/types";

const answer = (ids: number[], found_newest = true) => ({ messages: ids.map((id) => ({ id }) as Message), found_oldest: false, found_newest });

describe("the view a URL names before /register has answered", () => {
  test("a channel or topic by id, the feed, starred and mentions and Recent conversations are read", () => {
    expect(viewBeforeRegister("#narrow/channel/12-general/topic/lunch")).toEqual({ kind: "narrow", narrow: { kind: "topic", stream_id: 12, topic: "lunch" } });
    expect(viewBeforeRegister("#narrow/channel/12-general/topic/lunch/near/77")).toEqual({ kind: "narrow", narrow: { kind: "topic", stream_id: 12, topic: "lunch" }, near: 77 });
    expect(viewBeforeRegister("#narrow/stream/12-general")).toEqual({ kind: "narrow", narrow: { kind: "channel", stream_id: 12 } });
    expect(viewBeforeRegister("#feed")).toEqual({ kind: "narrow", narrow: { kind: "feed" } });
    expect(viewBeforeRegister("#narrow/is/starred")).toEqual({ kind: "narrow", narrow: { kind: "starred" } });
    expect(viewBeforeRegister("#recent")).toEqual({ kind: "recent" });
  });

  test("views that need names, people or settings wait for /register", () => {
    for (const hash of ["", "#", "#narrow/channel/general", "#narrow/dm/5-Hamlet", "#narrow/sender/me", "#narrow/search/ghost", "#inbox", "#channels/all", "#nonsense"]) {
      expect([hash, viewBeforeRegister(hash)]).toEqual([hash, null]);
    }
  });
});

describe("the early answer", () => {
  test("goes to the first request with the same parameters, once, and is marked as read before the queue", async () => {
    fetchEarly({ narrow: [{ operator: "channel", operand: 12 }], anchor: "first_unread" }, async () => answer([1, 2]));
    expect(takeEarly({ narrow: [{ operator: "channel", operand: 12 }], anchor: "first_unread" })).not.toBeNull();
    expect(takeEarly({ narrow: [{ operator: "channel", operand: 12 }], anchor: "first_unread" })).toBeNull();
    fetchEarly({ a: 1 }, async () => answer([3]));
    const got = await takeEarly({ a: 1 })!;
    expect(got.readBeforeQueue).toBe(true);
    expect(got.messages.map((m) => m.id)).toEqual([3]);
  });

  test("a first request with other parameters drops it, and fetches for itself", () => {
    fetchEarly({ a: 1 }, async () => answer([3]));
    expect(takeEarly({ a: 2 })).toBeNull();
    expect(takeEarly({ a: 1 })).toBeNull();
  });

  test("newer messages are fetched after it only when /register knew of a newer message than its last", () => {
    noteRegistered(10);
    expect(newerThanEarly({ ...answer([5, 8]), readBeforeQueue: true })).toBe(8);
    expect(newerThanEarly({ ...answer([5, 10]), readBeforeQueue: true })).toBeNull();
    expect(newerThanEarly({ ...answer([], true), readBeforeQueue: true })).toBe(0);
    // not at the newest end (scrolling will fetch them), or fetched after the queue existed
    expect(newerThanEarly({ ...answer([5, 8], false), readBeforeQueue: true })).toBeNull();
    expect(newerThanEarly(answer([5, 8]))).toBeNull();
  });
});

describe("the first drawing's wait for the early answer", () => {
  const outcome = (p: Promise<void>, ms: number) => Promise.race([p.then(() => "settled"), Bun.sleep(ms).then(() => "waiting")]);

  test("ends when the answer comes, and the view still takes it", async () => {
    let arrive!: (a: ReturnType<typeof answer>) => void;
    fetchEarly({ a: 1 }, () => new Promise((resolve) => (arrive = resolve)));
    const waiting = earlySettled(5000);
    expect(await outcome(waiting, 20)).toBe("waiting");
    arrive(answer([4, 5]));
    expect(await outcome(waiting, 50)).toBe("settled");
    expect((await takeEarly({ a: 1 })!).messages.map((m) => m.id)).toEqual([4, 5]);
  });

  test("ends after its limit when the answer is late, and a failed answer ends it without throwing", async () => {
    fetchEarly({ a: 2 }, () => new Promise(() => {}));
    const late = earlySettled(30);
    expect(await outcome(late, 5)).toBe("waiting");
    expect(await outcome(late, 200)).toBe("settled");
    takeEarly({ a: 2 });
    fetchEarly({ a: 3 }, () => Promise.reject(new Error("offline")));
    expect(await outcome(earlySettled(5000), 50)).toBe("settled");
    await expect(takeEarly({ a: 3 })!).rejects.toThrow("offline");
  });

  test("ends at once when nothing was asked for early", async () => {
    takeEarly({});
    expect(await outcome(earlySettled(5000), 5)).toBe("settled");
  });
});
