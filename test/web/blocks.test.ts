/** A view's messages laid out in blocks under recipient bars (assets/app/views/blocks.ts), and the blocks' keys. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { layOut, rowsCovering, type Block } from "../../assets/app/views/blocks";
import type { Message } from "../../assets/app/state/types";

const DAY = 1_700_000_000;
const message = (id: number, topic: string, sender = 5, timestamp = DAY + id): Message =>
  ({ id, sender_id: sender, sender_full_name: "", sender_email: "", timestamp, flags: [], reactions: [], submessages: [], is_me_message: false, content: "", type: "stream", stream_id: 1, subject: topic, display_recipient: "" }) as Message;
const shape = (blocks: Block[]) => blocks.map((b) => b.rows.map((r) => r.message.id));

describe("a view's blocks", () => {
  test("consecutive messages of one conversation share a block; the sender shows where it changes", () => {
    const blocks = layOut(4, [message(1, "a"), message(2, "a", 6), message(3, "a", 6), message(4, "b"), message(5, "a")]);
    expect(shape(blocks)).toEqual([[1, 2, 3], [4], [5]]);
    expect(blocks[0]!.rows.map((r) => r.showSender)).toEqual([true, true, false]);
    expect(blocks.map((b) => b.key)).toEqual(["1", "4", "5"]);
  });

  test("a block keeps its key when older rows come in above it and newer ones below, so its rows are not drawn afresh", () => {
    const first = layOut(4, [message(50, "a"), message(51, "a"), message(52, "b")]);
    const grown = layOut(4, [message(48, "a"), message(49, "a"), message(50, "a"), message(51, "a"), message(52, "b"), message(53, "b")], first);
    expect(shape(grown)).toEqual([[48, 49, 50, 51], [52, 53]]);
    expect(grown.map((b) => b.key)).toEqual(first.map((b) => b.key));
    // trimmed at the other end, it still keeps it
    const trimmed = layOut(4, [message(47, "a"), message(48, "a"), message(49, "a")], grown);
    expect(trimmed.map((b) => b.key)).toEqual([first[0]!.key]);
  });

  test("a block split in two keeps its key in one part only; the other gets a key of its own", () => {
    const first = layOut(4, [message(1, "a"), message(3, "a")]);
    const split = layOut(4, [message(1, "a"), message(2, "b"), message(3, "a")], first);
    expect(split.map((b) => b.key)).toEqual(["1", "2", "3"]);
  });

  test("over any sequence of windows, keys are unique, and a block sharing a message with the last layout has one of that layout's keys", () => {
    const topics = fc.constantFrom("a", "b", "c");
    fc.assert(
      fc.property(fc.array(topics, { minLength: 1, maxLength: 60 }), fc.array(fc.tuple(fc.nat(59), fc.nat(30)), { minLength: 1, maxLength: 12 }), (conversation, windows) => {
        const all = conversation.map((topic, i) => message(i + 1, topic, 5 + (i % 2), DAY + i * 3600));
        let previous: Block[] = [];
        for (const [from, length] of windows) {
          const shown = all.slice(Math.min(from, all.length - 1), Math.min(all.length, from + length + 1));
          const blocks = layOut(4, shown, previous);
          // the same blocks as a layout from scratch
          expect(shape(blocks)).toEqual(shape(layOut(4, shown)));
          expect(new Set(blocks.map((b) => b.key)).size).toBe(blocks.length);
          const keyWas = new Map(previous.flatMap((b) => b.rows.map((r) => [r.message.id, b.key] as const)));
          for (const b of blocks) {
            const shared = b.rows.filter((r) => keyWas.has(r.message.id)).map((r) => keyWas.get(r.message.id));
            if (shared.length > 0 && !shared.includes(b.key)) {
              // it lost its old key only to an earlier block that kept the same one
              const earlier = blocks.slice(0, blocks.indexOf(b)).map((x) => x.key);
              expect(shared.every((k) => earlier.includes(k!))).toBe(true);
            }
          }
          previous = blocks;
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("the rows a view's first frame draws", () => {
  const run = (n: number, topicOf: (i: number) => string, senderOf: (i: number) => number) => Array.from({ length: n }, (_, i) => message(i + 1, topicOf(i), senderOf(i)));

  test("one sender's run of messages in one topic needs a screen of 32 px rows: as many as the old fixed guess", () => {
    expect(rowsCovering(4, run(25, () => "a", () => 5), 800)).toBe(25);
  });

  test("messages each under a bar of their own, by turns of two senders, need about a third as many", () => {
    const rows = rowsCovering(4, run(25, (i) => `topic ${i}`, (i) => 5 + (i % 2)), 800);
    // each is at least 32 + 20 + 40 px high: 800 px take 9 of them, and one more
    expect(rows).toBe(10);
  });

  test("never more rows than the sample holds, and none from an empty one", () => {
    expect(rowsCovering(4, run(3, () => "a", () => 5), 800)).toBe(3);
    expect(rowsCovering(4, [], 800)).toBe(0);
  });
});
