import { HEARTBEAT, parseFragment, type Fragment } from "./wire";

/** One client's event queue: events with increasing ids, at most one parked long-poll. */
export type Event = { type: string; [key: string]: unknown };
export type QueuedEvent = Event & { id: number };

/**
 * What a long-poll answers with: the queue's events from `firstId` on, each as its shared JSON
 * fragment (event i has the id firstId + i).
 */
export interface Batch {
  readonly firstId: number;
  readonly fragments: readonly Fragment[];
}

export interface QueueOptions {
  userId: number;
  eventTypes: string[] | null;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  /** gets public channels' messages whether subscribed or not: all_public_streams, or a narrow (filtered by it) */
  followsPublicChannels?: boolean;
  /** narrow given at /register: [[operator, operand], ...] */
  narrow: [string, string][];
  capabilities: Record<string, boolean>;
  /** slim_presence: legacy presence events without the (deprecated) email */
  slimPresence?: boolean;
  lifespanSecs: number;
  clientName: string;
}

/**
 * Every option that decides the form of an event in formatForQueue (format.ts) but the narrow (which
 * only drops messages): markdown, gravatar, slim presence and all the client's capabilities. Queues
 * with the same key get the same bytes. Capabilities format.ts does not read only split the sharing,
 * never merge two forms.
 */
export function shapeKey(o: QueueOptions): string {
  const caps = Object.keys(o.capabilities ?? {})
    .sort()
    .map((k) => `${k}=${o.capabilities[k]}`);
  return `${o.applyMarkdown ? "m" : "-"}${o.clientGravatar ? "g" : "-"}${o.slimPresence ? "s" : "-"} ${caps.join(",")}`;
}

type Waiter = { resolve: (batch: Batch) => void; heartbeatAt: number };

/**
 * Parked long-polls whose queue got events, answered together once the current task is over
 * (setImmediate): one channel message's 1,000 answers are resolved in one pass, after the send
 * that caused them has written its own answer, and the events one action publishes (a message, then
 * its topic's follow) go out in one answer, as Zulip batches them.
 */
const woken: EventQueue[] = [];
let wakeScheduled = false;
function wake(q: EventQueue) {
  woken.push(q);
  if (!wakeScheduled) {
    wakeScheduled = true;
    setImmediate(answerWoken);
  }
}
function answerWoken() {
  wakeScheduled = false;
  const list = woken.splice(0);
  for (const q of list) q.answerIfWoken();
}

/**
 * The heartbeats of every parked long-poll on one timer, set for the earliest: a setTimeout and a
 * clearTimeout per poll cost more than this Set's add and delete, 1,000 times per broadcast. Polls
 * are parked with the same heartbeat interval, so the Set's order (the order they parked in) is the
 * order they are due, and a firing stops at the first poll not yet due; a poll parked with a shorter
 * interval than one before it breaks that order until the Set empties, and firings scan it all.
 */
class Heartbeats {
  private readonly parked = new Set<EventQueue>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  private lastDue = -Infinity;
  private ordered = true;

  add(q: EventQueue, at: number) {
    this.parked.add(q);
    if (at < this.lastDue) this.ordered = false;
    this.lastDue = at;
    if (at < this.timerAt) this.arm(at);
  }

  delete(q: EventQueue) {
    this.parked.delete(q);
    if (this.parked.size === 0) {
      this.ordered = true;
      this.lastDue = -Infinity;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.timerAt = Infinity;
    }
  }

  private arm(at: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - performance.now()));
  }

  private fire() {
    this.timer = null;
    this.timerAt = Infinity;
    const now = performance.now() + 1; // setTimeout may fire a little early: within 1 ms counts as due
    let next = Infinity;
    for (const q of this.parked) {
      const at = q.heartbeatAt;
      if (at <= now) {
        this.parked.delete(q); // (its answer comes after this task: never pushed a second heartbeat)
        q.push(HEARTBEAT);
      } else if (this.ordered) {
        next = at;
        break;
      } else next = Math.min(next, at);
    }
    if (next < Infinity) this.arm(next);
    else if (this.parked.size === 0) {
      this.ordered = true;
      this.lastDue = -Infinity;
    }
  }
}
const heartbeats = new Heartbeats();

export class EventQueue {
  /**
   * The events not yet acknowledged, as fragments shared with every queue that got the same form of
   * the event (format.ts): a queue holds one reference per event, not a copy. Their ids run on from
   * `firstId` without gaps, so none is stored.
   */
  private fragments: Fragment[] = [];
  private firstId = 0;
  private waiter: Waiter | null = null;
  /** the parked long-poll is to be answered at the end of this task (wake) */
  private woken = false;
  private eventTypes: Set<string> | null;
  /** The options that decide an event's form here (format.ts): queues with the same one share it. */
  readonly shape: string;
  lastTouched: number;

  constructor(
    readonly id: string,
    readonly options: QueueOptions,
    now: number,
  ) {
    this.eventTypes = options.eventTypes ? new Set(options.eventTypes) : null;
    this.shape = shapeKey(options);
    this.lastTouched = now;
  }

  get userId() {
    return this.options.userId;
  }

  wants(type: string): boolean {
    if (type === "heartbeat" || this.eventTypes === null) return true;
    // Zulip: a client that asked for user_topic never gets the legacy muted_topics event (it may ask
    // for both, to get muted_topics only from servers older than user_topic)
    if (type === "muted_topics" && this.eventTypes.has("user_topic")) return false;
    return this.eventTypes.has(type);
  }

  /** Adds an event (already formatted for this queue, wire.ts) and answers a parked long-poll. */
  push(fragment: Fragment): void {
    this.fragments.push(fragment);
    if (this.waiter && !this.woken) {
      this.woken = true;
      wake(this);
    }
  }

  get size(): number {
    return this.fragments.length;
  }

  /** The queued events as objects (tests and diagnostics; a long-poll answers with the fragments). */
  get events(): QueuedEvent[] {
    return this.fragments.map((f, i) => parseFragment(f, this.firstId + i));
  }

  /** The queue's contents now. */
  batch(): Batch {
    return { firstId: this.firstId, fragments: this.fragments.slice() };
  }

  get lastEventId(): number {
    return this.firstId + this.fragments.length - 1;
  }

  /** The id of the newest event dropped as acknowledged (-1: none yet), as Zulip's newest_pruned_id. */
  get newestPrunedId(): number {
    return this.firstId - 1;
  }

  /** Drops events the client has acknowledged (id <= lastEventId). */
  acknowledge(lastEventId: number): void {
    const n = Math.min(this.fragments.length, lastEventId - this.firstId + 1);
    if (n > 0) {
      this.fragments.splice(0, n);
      this.firstId += n;
    }
  }

  /** Parks a long-poll: resolves with the queue's contents on the next event or at the heartbeat. */
  wait(heartbeatMs: number, now: number): Promise<Batch> {
    this.release(); // at most one waiting request per queue: the older one is answered now
    this.lastTouched = now;
    return new Promise((resolve) => {
      const heartbeatAt = performance.now() + heartbeatMs;
      this.waiter = { resolve, heartbeatAt };
      heartbeats.add(this, heartbeatAt);
    });
  }

  /** When the parked long-poll's heartbeat is due (performance.now() time; Infinity: none parked). */
  get heartbeatAt(): number {
    return this.waiter?.heartbeatAt ?? Infinity;
  }

  get connected(): boolean {
    return this.waiter !== null;
  }

  /** wake's pass: answers the parked poll unless it was answered since (a newer poll parked then waits on). */
  answerIfWoken(): void {
    if (this.woken) this.release();
  }

  /** Answers the parked long-poll, if any, with what the queue holds now. */
  release(): void {
    this.woken = false; // (a wake for a poll answered since finds no waiter)
    const w = this.waiter;
    if (!w) return;
    this.waiter = null;
    heartbeats.delete(this);
    w.resolve(this.batch());
  }

  touch(now: number) {
    this.lastTouched = now;
  }

  expired(now: number, defaultLifespanSecs: number): boolean {
    const secs = this.options.lifespanSecs > 0 ? this.options.lifespanSecs : defaultLifespanSecs;
    return !this.waiter && now - this.lastTouched >= secs * 1000;
  }
}
