/** Unread counts as the web app shows them (assets/app/state/unread.ts): Zulip's muting rules. */
import { describe, expect, test } from "bun:test";
import { unreadCounts } from "../../assets/app/state/unread";
import type { Place } from "../../assets/app/state/types";
import { sampleState } from "./fixtures";

const at = (stream_id: number, topic: string): Place => ({ kind: "channel", stream_id, topic });

describe("unread counts", () => {
  test("count channels, topics and conversations; muted topics stay out of their channel and the total", () => {
    const s = sampleState();
    s.unread = {
      messages: { 1: at(12, "lunch"), 2: at(12, "Lunch"), 3: at(12, "noise"), 4: { kind: "dm", key: "5" }, 5: { kind: "dm", key: "5,6" }, 6: at(14, "old") },
      mentions: [2],
    };
    s.user_topics = { "12:noise": { stream_id: 12, topic: "noise", policy: 1 } };
    const c = unreadCounts(s);
    expect(c.byTopic).toEqual({ "12:lunch": 2, "12:noise": 1, "14:old": 1 });
    expect(c.byChannel).toEqual({ 12: 2 }); // channel 14 is not subscribed
    expect(c.byDm).toEqual({ 5: 1, "5,6": 1 });
    expect({ total: c.total, dms: c.dms, channels: c.channels, mentions: c.mentions }).toEqual({ total: 4, dms: 2, channels: 2, mentions: 1 });
  });

  test("a muted channel counts only the topics unmuted or followed in it", () => {
    const s = sampleState();
    s.unread = { messages: { 1: at(13, "sketches"), 2: at(13, "colours"), 3: at(13, "fonts") }, mentions: [] };
    s.user_topics = { "13:colours": { stream_id: 13, topic: "colours", policy: 2 }, "13:fonts": { stream_id: 13, topic: "fonts", policy: 3 } };
    const c = unreadCounts(s);
    expect(c.byChannel).toEqual({ 13: 2 });
    expect(c.total).toBe(2);
  });
});
