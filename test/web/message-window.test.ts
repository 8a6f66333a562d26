/** The message list's window over a view's loaded messages (assets/app/views/window.ts). */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { around, newer, older, opening, range, STEP, toward, trimmed, WINDOW, type Window } from "../../assets/app/views/window";

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

describe("an opening's first frame and the rest of its window", () => {
  test("the first frame holds the newest rows, or rows about a message with a third of them above it, inside the window it opens", () => {
    const ids = idsOf(1000);
    expect(shown(ids, opening(ids, "bottom", 20))).toEqual(ids.slice(-20));
    expect(opening(ids, "bottom", 20).to).toBeNull();
    const rows = shown(ids, opening(ids, ids[500]!, 30));
    expect({ first: rows[0], length: rows.length, at: rows.indexOf(ids[500]!) }).toEqual({ first: ids[490], length: 30, at: 10 });
    // at the ends of the list, the rows stop there (a message at the top, the newest at the bottom)
    expect(shown(ids, opening(ids, ids[2]!, 30))).toEqual(ids.slice(0, 30));
    expect(shown(ids, opening(ids, ids[998]!, 30))).toEqual(ids.slice(970));
    // never more than the window
    expect(shown(ids, opening(ids, "bottom", 5000))).toEqual(shown(ids, around(ids, "bottom")));
  });

  test("the window grows to the opening's by STEP rows on each side, then stops; moved out of it (scrolled), it stops too", () => {
    const ids = idsOf(1000);
    const goal = around(ids, ids[500]!);
    let w = opening(ids, ids[500]!, 30);
    const sizes: number[] = [];
    for (let next = toward(ids, w, goal); next; next = toward(ids, w, goal)) {
      w = next;
      sizes.push(shown(ids, w).length);
    }
    expect(w).toEqual(goal);
    expect(sizes).toEqual([80, 130, 161, 186, 200]);
    expect(toward(ids, older(ids, goal)!, goal)).toBeNull();
  });

  test("whatever the list and the target, the first frame's rows are contiguous, hold the target, and grow to exactly the window it opens", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 700 }), fc.integer({ min: 0, max: 699 }), fc.integer({ min: 1, max: 250 }), fc.boolean(), (n, at, rows, bottom) => {
        const ids = idsOf(n);
        const target = bottom ? ("bottom" as const) : ids[Math.min(at, n - 1)]!;
        const goal = around(ids, target);
        let w = opening(ids, target, rows);
        const first = shown(ids, w);
        expect(first.length).toBe(Math.min(rows, shown(ids, goal).length));
        expect(first.includes(bottom ? ids[n - 1]! : (target as number))).toBe(true);
        for (let next = toward(ids, w, goal); next; next = toward(ids, w, goal)) w = next;
        expect(shown(ids, w)).toEqual(shown(ids, goal));
      }),
    );
  });
});
