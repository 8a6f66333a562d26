/** The message list's window over a view's loaded messages (assets/app/views/window.ts). */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { around, newer, older, range, STEP, trimmed, WINDOW, type Window } from "../../assets/app/views/window";

/** ids 1000, 1003, 1006, … (gaps, as a narrow's ids have) */
const idsOf = (n: number) => Array.from({ length: n }, (_, i) => 1000 + 3 * i);
const shown = (ids: number[], w: Window) => {
  const [start, end] = range(ids, w);
  return ids.slice(start, end);
};

describe("the message list's window", () => {
  test("a short list is shown whole and follows its end", () => {
    const ids = idsOf(40);
    const w = around(ids, "bottom");
    expect(w).toEqual({ from: 1000, to: null });
    expect(shown([...ids, 2000], w)).toEqual([...ids, 2000]);
    expect([older(ids, w), newer(ids, w)]).toEqual([null, null]);
  });

  test("a long list opens on its newest WINDOW messages, or around a message with it a third of the way down", () => {
    const ids = idsOf(1000);
    expect(shown(ids, around(ids, "bottom"))).toEqual(ids.slice(-WINDOW));
    const w = around(ids, ids[500]!);
    const rows = shown(ids, w);
    expect({ length: rows.length, at: rows.indexOf(ids[500]!) }).toEqual({ length: WINDOW, at: Math.floor(WINDOW / 3) });
    // near either end, the window stops at it
    expect(shown(ids, around(ids, ids[3]!))).toEqual(ids.slice(0, WINDOW));
    expect(around(ids, ids[998]!).to).toBeNull();
  });

  test("moving older takes STEP loaded messages above and gives up as many at the bottom; newer is the reverse, back to following the end", () => {
    const ids = idsOf(1000);
    const w = around(ids, "bottom");
    const up = older(ids, w)!;
    expect(shown(ids, up)).toEqual(ids.slice(1000 - WINDOW - STEP, 1000 - STEP));
    expect(up.to).toBe(ids[1000 - STEP - 1]);
    const down = newer(ids, up)!;
    expect(down).toEqual(w);
    expect(newer(ids, down)).toBeNull();
  });

  test("a window that follows the end keeps at most WINDOW + STEP rows as messages arrive; one scrolled up keeps its rows", () => {
    const ids = idsOf(WINDOW);
    const w = around(ids, "bottom");
    const grown = [...ids, ...Array.from({ length: STEP + 5 }, (_, i) => 5000 + i)];
    expect(shown(grown, trimmed(grown, w)).length).toBe(WINDOW);
    expect(trimmed(grown, { from: ids[0]!, to: ids[10]! })).toEqual({ from: ids[0]!, to: ids[10]! });
  });

  test("whatever the moves and the messages that arrive or are deleted, the window is contiguous, in the list, and never over WINDOW + STEP", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 900 }), fc.array(fc.constantFrom("older", "newer", "arrive", "delete"), { maxLength: 60 }), (n, moves) => {
        let ids = idsOf(n);
        let w = around(ids, "bottom");
        let next = 10_000;
        for (const m of moves) {
          if (m === "arrive") ids = [...ids, next++];
          else if (m === "delete" && ids.length) ids = ids.filter((_, i) => i !== Math.floor(ids.length / 2));
          else w = (m === "older" ? older(ids, w) : newer(ids, w)) ?? w;
          w = trimmed(ids, w);
          const [start, end] = range(ids, w);
          expect(end - start).toBeLessThanOrEqual(WINDOW + STEP);
          expect(start).toBeGreaterThanOrEqual(0);
          expect(end).toBeLessThanOrEqual(ids.length);
          if (w.to === null) expect(end).toBe(ids.length);
        }
      }),
    );
  });
});
