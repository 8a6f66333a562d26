/**
 * Telling others that the person is typing, with Zulip's timing (its shared typing_status): "start" when
 * they begin writing to a conversation and again at most every `startedWaitMs` while they keep typing,
 * "stop" once they pause for `stoppedWaitMs`, send, clear the box, or turn to another conversation.
 * The clock, the timers and the calls are passed in, so the rules can be tested without waiting.
 */

export type TypingRecipient = { type: "stream"; stream_id: number; topic: string } | { type: "direct"; to: number[] };

export interface TypingWorker {
  now(): number;
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  notify(op: "start" | "stop", to: TypingRecipient): void;
}

export function sameRecipient(a: TypingRecipient, b: TypingRecipient): boolean {
  if (a.type === "stream" && b.type === "stream") return a.stream_id === b.stream_id && a.topic.toLowerCase() === b.topic.toLowerCase();
  if (a.type === "direct" && b.type === "direct") return a.to.length === b.to.length && a.to.every((id, i) => id === b.to[i]);
  return false;
}

export class TypingStatus {
  private current: { to: TypingRecipient; nextStart: number; idle: unknown } | null = null;

  constructor(
    private readonly worker: TypingWorker,
    private readonly timing: () => { startedWaitMs: number; stoppedWaitMs: number },
  ) {}

  /** Called on each keystroke with where the message goes, or null when nothing is being written. */
  update(to: TypingRecipient | null): void {
    const cur = this.current;
    if (cur && to && sameRecipient(cur.to, to)) {
      const now = this.worker.now();
      if (now > cur.nextStart) this.ping(now);
      this.worker.clearTimeout(cur.idle);
      cur.idle = this.idleTimer();
      return;
    }
    if (cur) this.stop();
    if (!to) return;
    this.current = { to, nextStart: 0, idle: this.idleTimer() };
    this.ping(this.worker.now());
  }

  /** The person sent, cleared or left: "stop" if "start" was said. */
  stop(): void {
    const cur = this.current;
    if (!cur) return;
    this.worker.clearTimeout(cur.idle);
    this.current = null;
    this.worker.notify("stop", cur.to);
  }

  private ping(now: number) {
    this.current!.nextStart = now + this.timing().startedWaitMs;
    this.worker.notify("start", this.current!.to);
  }

  private idleTimer() {
    return this.worker.setTimeout(() => this.stop(), this.timing().stoppedWaitMs);
  }
}
