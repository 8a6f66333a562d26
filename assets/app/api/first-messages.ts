/**
 * The first message list is asked for together with /register instead of after it (Zulip inlines its
 * initial state in the page; this saves at least a round trip): boot.tsx starts it for the view the URL
 * names, and the view's first GET /messages with the very same parameters takes that answer
 * (calls.ts); any other first request drops it. Such an answer may have been read a moment before the
 * event queue existed, so it is marked, and the view asks for what came after it when /register's
 * max_message_id is newer than its last message (newerThanEarly). boot.tsx waits a moment for that answer
 * before drawing the app (earlySettled), so the view opens with its messages in the first frame: drawn
 * without them, the page is laid out and painted twice, and on a busy machine the answer's own handling
 * queues behind the first drawing.
 */
import type { MessagesAnswer } from "../state/fetched";

export type EarlyAnswer = MessagesAnswer & { readBeforeQueue?: true };

let early: { params: string; answer: Promise<EarlyAnswer> } | null = null;
let registerMaxId = Number.POSITIVE_INFINITY;

export const paramsKey = (params: object) => JSON.stringify(params);

/** Starts the first list's request (before /register has answered). */
export function fetchEarly(params: object, request: () => Promise<MessagesAnswer>): void {
  const answer = request().then((a): EarlyAnswer => ({ ...a, readBeforeQueue: true }));
  answer.catch(() => {}); // a failure reaches the view that takes it; unclaimed, it is nobody's
  early = { params: paramsKey(params), answer };
}

/**
 * Resolves when the early answer has come (or failed), or after `ms`, whichever is first; at once when
 * none was asked for. It never rejects: the view that takes the answer sees its failure.
 */
export function earlySettled(ms: number): Promise<void> {
  if (!early) return Promise.resolve();
  const answer = early.answer;
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    answer.then(done, done);
  });
}

/** /register's max_message_id: the newest message that existed when the queue did. */
export const noteRegistered = (maxMessageId: number) => void (registerMaxId = maxMessageId);

/** The early answer when `params` are the ones it was asked with; the first request takes or drops it. */
export function takeEarly(params: object): Promise<EarlyAnswer> | null {
  const found = early && early.params === paramsKey(params) ? early.answer : null;
  early = null;
  return found;
}

/** The id to fetch newer messages from, when an early answer may have missed some; null when it cannot have. */
export function newerThanEarly(answer: EarlyAnswer): number | null {
  if (!answer.readBeforeQueue || !answer.found_newest) return null;
  const last = answer.messages[answer.messages.length - 1]?.id ?? 0;
  return registerMaxId > last ? last : null;
}
