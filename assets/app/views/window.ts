/**
 * Which of a view's loaded messages are in the page: a window of at most a few hundred consecutive ones,
 * as Zulip renders a list in chunks. Scrolling near an edge of the window moves it by a step over
 * messages already loaded (or the list fetches more first); the far side is trimmed so the page holds
 * at most WINDOW + STEP rows however far the person scrolls. Pure: ids in, window out.
 */

/** The rows kept in the page, and how many more come in or go out at a time. */
export const WINDOW = 200;
export const STEP = 25;

/**
 * Message ids: from `from` through `to`; `to: null` runs to the end of the loaded list, so messages
 * appended there (new ones, or a fetched newer page) join the window.
 */
export interface Window {
  from: number;
  to: number | null;
}

/** The first index of `ids` (ascending) whose id is at least `id`. */
function lowerBound(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The window's part of `ids` as [start, end) indexes. */
export function range(ids: readonly number[], w: Window): [number, number] {
  const start = lowerBound(ids, w.from);
  const end = w.to === null ? ids.length : lowerBound(ids, w.to + 1);
  return [start, Math.max(start, end)];
}

function fromIndexes(ids: readonly number[], start: number, end: number): Window {
  return { from: ids[start] ?? 0, to: end >= ids.length ? null : ids[end - 1]! };
}

/** The window that shows `target` (a message about a third down, as the list places it) or the newest. */
export function around(ids: readonly number[], target: number | "bottom"): Window {
  if (target === "bottom") return fromIndexes(ids, Math.max(0, ids.length - WINDOW), ids.length);
  const at = Math.min(lowerBound(ids, target), Math.max(0, ids.length - 1));
  const start = Math.max(0, Math.min(at - Math.floor(WINDOW / 3), ids.length - WINDOW));
  return fromIndexes(ids, start, Math.min(ids.length, start + WINDOW));
}

/**
 * The part of `around(ids, target)` drawn in a view's first frame: `rows` rows, the newest ones or those
 * about the target (a third above it, as the list places it a third down). MessageList grows `rows` until
 * they fill the screen; the rest of the window comes in after the first paint, a step at a time.
 */
export function opening(ids: readonly number[], target: number | "bottom", rows: number): Window {
  const [first, last] = range(ids, around(ids, target));
  const n = Math.max(1, rows);
  if (target === "bottom") return fromIndexes(ids, Math.max(first, last - n), last);
  const at = Math.min(lowerBound(ids, target), Math.max(0, ids.length - 1));
  const start = Math.max(first, Math.min(at - Math.floor(n / 3), last - n));
  return fromIndexes(ids, start, Math.min(last, start + n));
}

/**
 * A step of a window inside `goal` towards it (an opening's first frame drew part of its window): up to
 * STEP more rows on each side; null once it is the goal, or when it moved out of it (the person scrolled).
 */
export function toward(ids: readonly number[], w: Window, goal: Window): Window | null {
  const [start, end] = range(ids, w);
  const [first, last] = range(ids, goal);
  if (start < first || end > last || (start === first && end === last)) return null;
  return fromIndexes(ids, Math.max(first, start - STEP), Math.min(last, end + STEP));
}

/** A step towards older loaded messages, the newest side trimmed; null when the window starts at the list's start. */
export function older(ids: readonly number[], w: Window): Window | null {
  const [start, end] = range(ids, w);
  if (start === 0) return null;
  const from = Math.max(0, start - STEP);
  return fromIndexes(ids, from, Math.min(end, from + WINDOW));
}

/** A step towards newer loaded messages, the oldest side trimmed; null when the window reaches the list's end. */
export function newer(ids: readonly number[], w: Window): Window | null {
  const [start, end] = range(ids, w);
  if (w.to === null || end >= ids.length) return null;
  const to = Math.min(ids.length, end + STEP);
  return fromIndexes(ids, Math.max(start, to - WINDOW), to);
}

/**
 * A window that follows the end and grew past WINDOW + STEP (new messages, a fetched newer page) gives
 * up its oldest rows; any other window is kept as it is.
 */
export function trimmed(ids: readonly number[], w: Window): Window {
  const [start, end] = range(ids, w);
  if (w.to !== null || end - start <= WINDOW + STEP) return w;
  return fromIndexes(ids, end - WINDOW, end);
}
