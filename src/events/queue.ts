/** One client's event queue: events with increasing ids, at most one parked long-poll. */
export type Event = { type: string; [key: string]: unknown };
export type QueuedEvent = Event & { id: number };

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

type Waiter = { resolve: (events: QueuedEvent[]) => void; timer: ReturnType<typeof setTimeout> };

export class EventQueue {
  readonly events: QueuedEvent[] = [];
  private nextId = 0;
  private waiter: Waiter | null = null;
  private eventTypes: Set<string> | null;
  lastTouched: number;

  constructor(
    readonly id: string,
    readonly options: QueueOptions,
    now: number,
  ) {
    this.eventTypes = options.eventTypes ? new Set(options.eventTypes) : null;
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

  /** Adds an event (if this queue wants its type) and answers a parked long-poll. */
  push(event: Event): void {
    const queued = { ...event, id: this.nextId++ } as QueuedEvent;
    this.events.push(queued);
    if (this.waiter) this.release();
  }

  get lastEventId(): number {
    return this.nextId - 1;
  }

  /** The id of the newest event dropped as acknowledged (-1: none yet), as Zulip's newest_pruned_id. */
  newestPrunedId = -1;

  /** Drops events the client has acknowledged (id <= lastEventId). */
  acknowledge(lastEventId: number): void {
    let n = 0;
    while (n < this.events.length && this.events[n]!.id <= lastEventId) n++;
    if (n) {
      this.newestPrunedId = this.events[n - 1]!.id;
      this.events.splice(0, n);
    }
  }

  /** Parks a long-poll: resolves with the queue's contents on the next event or at the heartbeat. */
  wait(heartbeatMs: number, now: number): Promise<QueuedEvent[]> {
    this.release(); // at most one waiting request per queue: the older one is answered now
    this.lastTouched = now;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.push({ type: "heartbeat" }), heartbeatMs);
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
    w.resolve(this.events.slice());
  }

  touch(now: number) {
    this.lastTouched = now;
  }

  expired(now: number, defaultLifespanSecs: number): boolean {
    const secs = this.options.lifespanSecs > 0 ? this.options.lifespanSecs : defaultLifespanSecs;
    return !this.waiter && now - this.lastTouched >= secs * 1000;
  }
}
