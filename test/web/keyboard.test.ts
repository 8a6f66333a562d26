/** Where the keyboard goes (assets/app/keyboard/navigation.ts): j/k through a view, n to unread topics, p to unread conversations. */
import { describe, expect, test } from "bun:test";
import { nextUnreadDm, nextUnreadTopic, step, unreadTopics } from "../../assets/app/keyboard/navigation";
import type { Place, State } from "../../assets/app/state/types";
import { sampleState } from "./fixtures";

const at = (stream_id: number, topic: string): Place => ({ kind: "channel", stream_id, topic });
const inDm = (key: string): Place => ({ kind: "dm", key });

function withUnread(places: Record<number, Place>, change: (s: State) => State = (s) => s): State {
  return change({ ...sampleState(), unread: { messages: places, mentions: [] } });
}

describe("j and k", () => {
  test("move one message at a time and stop at the ends; with none selected, start from the newest", () => {
    const ids = [3, 5, 8];
    expect(step(ids, 5, 1)).toBe(8);
    expect(step(ids, 5, -1)).toBe(3);
    expect(step(ids, 8, 1)).toBe(8);
    expect(step(ids, 3, -1)).toBe(3);
    expect(step(ids, null, 1)).toBe(8);
    expect(step(ids, 99, -1)).toBe(8);
    expect(step([], null, 1)).toBeNull();
  });
});

describe("n: the next unread topic", () => {
  // general (12) is not pinned; a third subscribed channel "alpha" (15) sorts before it by name
  const alpha = (s: State): State => ({
    ...s,
    channels: { ...s.channels, 15: { stream_id: 15, name: "alpha", description: "", invite_only: false, is_web_public: false, is_archived: false } },
    subscriptions: { ...s.subscriptions, 15: { stream_id: 15, name: "alpha", description: "", invite_only: false, is_web_public: false, is_archived: false, color: "#fff", is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null, wildcard_mentions_notify: null } },
  });
  const state = withUnread({ 1: at(12, "old"), 2: at(12, "new"), 9: at(12, "newest"), 3: at(15, "a"), 4: at(13, "in muted channel"), 5: at(14, "not subscribed"), 6: inDm("5") }, alpha);

  test("visits channels in the sidebar's order, each one's topics newest first, leaving out muted and unsubscribed ones", () => {
    expect(unreadTopics(state)).toEqual([
      { stream_id: 15, topic: "a" },
      { stream_id: 12, topic: "newest" },
      { stream_id: 12, topic: "new" },
      { stream_id: 12, topic: "old" },
    ]);
    // pinned channels come first
    const pinned = { ...state, subscriptions: { ...state.subscriptions, 12: { ...state.subscriptions[12]!, pin_to_top: true } } };
    expect(unreadTopics(pinned)[0]).toEqual({ stream_id: 12, topic: "newest" });
  });

  test("goes to the one after the current topic, round to the first; from elsewhere, this channel's first", () => {
    expect(nextUnreadTopic(state, { stream_id: 12, topic: "newest" })).toEqual({ stream_id: 12, topic: "new" });
    expect(nextUnreadTopic(state, { stream_id: 12, topic: "OLD" })).toEqual({ stream_id: 15, topic: "a" });
    expect(nextUnreadTopic(state, { stream_id: 12 })).toEqual({ stream_id: 12, topic: "newest" });
    expect(nextUnreadTopic(state, { stream_id: 12, topic: "read already" })).toEqual({ stream_id: 12, topic: "newest" });
    expect(nextUnreadTopic(state, null)).toEqual({ stream_id: 15, topic: "a" });
    // muting a topic takes it out of the round
    const muted = { ...state, user_topics: { "12:newest": { stream_id: 12, topic: "newest", policy: 1 } } };
    expect(nextUnreadTopic(muted, { stream_id: 15, topic: "a" })).toEqual({ stream_id: 12, topic: "new" });
  });

  test("nowhere when nothing else is unread", () => {
    expect(nextUnreadTopic(withUnread({ 1: at(12, "only") }), { stream_id: 12, topic: "only" })).toBeNull();
    expect(nextUnreadTopic(withUnread({}), null)).toBeNull();
  });
});

describe("p: the next conversation with unread messages", () => {
  test("newest conversation first, then round", () => {
    const state = withUnread({ 10: inDm("5"), 20: inDm("5,6"), 15: inDm("6"), 3: at(12, "x") });
    expect(nextUnreadDm(state, null)).toBe("5,6");
    expect(nextUnreadDm(state, "5,6")).toBe("6");
    expect(nextUnreadDm(state, "6")).toBe("5");
    expect(nextUnreadDm(state, "5")).toBe("5,6");
    expect(nextUnreadDm(state, "9")).toBe("5,6");
    expect(nextUnreadDm(withUnread({ 10: inDm("5") }), "5")).toBeNull();
    expect(nextUnreadDm(withUnread({}), null)).toBeNull();
  });
});
