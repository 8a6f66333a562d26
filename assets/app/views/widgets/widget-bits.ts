/** What the poll and the to-do list share: sending an event, the next index of one's own, focusing a new field. */
import { useRef } from "preact/hooks";

export type Send = (data: object) => void;

/**
 * The next index for something the person adds: one past the state's, and past what they added but
 * the server has not confirmed yet (two quick additions must not share a key).
 */
export function useNextIndex(fromState: number): () => number {
  const used = useRef(0);
  return () => {
    const idx = Math.max(fromState, used.current + 1);
    used.current = idx;
    return idx;
  };
}

/** A ref that focuses a field when it appears (one function, so it runs once, not at every render). */
export const focusOnMount = (el: HTMLInputElement | null) => el?.focus();
