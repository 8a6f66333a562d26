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

type Waiter = { resolve: (batch: Batch) => void; timer: ReturnType<typeof setTimeout> };

export class EventQueue {
  /**
   * The events not yet acknowledged, as fragments shared with every queue that got the same form of
   * the event (format.ts): a queue holds one reference per event, not a copy. Their ids run on from
   * `firstId` without gaps, so none is stored.
   */
  private fragments: Fragment[] = [];
  private firstId = 0;
  private waiter: Waiter | null = null;
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
    if (this.waiter) this.release();
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
      const timer = setTimeout(() => this.push(HEARTBEAT), heartbeatMs);
      this.waiter = { resolve, timer };
    });
  }

  get connected(): boolean {
    return this.waiter !== null;
  }

  /** Answers the parked long-poll, if any, with what the queue holds now. */
  release(): void {
    const w = this.waiter;
    if (!w) return;
    this.waiter = null;
    clearTimeout(w.timer);
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
