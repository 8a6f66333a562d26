import { badEventQueueId, badRequest } from "../errors";
import { EventQueue, type Batch, type Event, type QueueOptions } from "./queue";
import { Fanout } from "./fanout";
import { HEARTBEAT } from "./wire";

/** Seven days: the longest queue_lifespan_secs a client may ask for. */
export const MAX_QUEUE_LIFESPAN_SECS = 7 * 24 * 3600;

/**
 * The in-process registry of event queues. Actions call publish() after their transaction commits;
 * every queue of each recipient that wants the event type gets it.
 */
export class EventHub {
  private readonly queues = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  /** Queues registered with all_public_streams or a narrow: they also get public channels' messages (Zulip's realm_clients_all_streams). */
  private readonly allPublic = new Set<EventQueue>();

  constructor(
    private readonly now: () => number,
    readonly settings: { idleSecs: number; heartbeatMs: () => number; emptyTopicName: () => string },
  ) {}

  register(options: QueueOptions): EventQueue {
    const id = crypto.randomUUID();
    const queue = new EventQueue(id, options, this.now());
    this.queues.set(id, queue);
    let set = this.byUser.get(options.userId);
    if (!set) this.byUser.set(options.userId, (set = new Set()));
    set.add(queue);
    if (options.allPublicStreams || options.followsPublicChannels) this.allPublic.add(queue);
    return queue;
  }

  /** The caller's own queue, or BAD_EVENT_QUEUE_ID (unknown, expired or someone else's). */
  get(queueId: string, userId: number): EventQueue {
    const q = this.queues.get(queueId);
    if (!q || q.userId !== userId) throw badEventQueueId(queueId);
    return q;
  }

  delete(queueId: string, userId: number): void {
    const q = this.get(queueId, userId);
    this.remove(q);
  }

  /** Sends one event to every queue of each user in `userIds`. */
  publish(event: Event, userIds: Iterable<number>, extra?: { queueId?: string; extra: Record<string, unknown> }): void {
    const fanout = this.fanout();
    const memo = Fanout.memo();
    for (const userId of userIds) {
      const set = this.byUser.get(userId);
      if (!set) continue;
      for (const q of set) this.deliver(q, event, fanout, memo, extra);
    }
  }

  /** Sends each user their own version of an event (per-user flags and the like). */
  publishEach(userIds: Iterable<number>, build: (userId: number) => Event | null): void {
    // one Fanout for all: the users' events share their message dict, serialized once per form
    const fanout = this.fanout();
    for (const userId of userIds) {
      const set = this.byUser.get(userId);
      if (!set) continue;
      const event = build(userId);
      if (!event) continue;
      const memo = Fanout.memo();
      for (const q of set) this.deliver(q, event, fanout, memo);
    }
  }

  private fanout(): Fanout {
    return new Fanout(this.settings.emptyTopicName());
  }

  private deliver(q: EventQueue, event: Event, fanout: Fanout, memo: ReturnType<typeof Fanout.memo>, extra?: { queueId?: string; extra: Record<string, unknown> }) {
    if (!q.wants(event.type)) return;
    const fragments = extra && extra.queueId === q.id ? fanout.fragmentsWith(event, q, extra.extra) : fanout.fragments(event, q, memo);
    if (fragments) for (const f of fragments) q.push(f);
  }

  /** Whether some queue of the user takes events of this type. */
  wantsType(userId: number, type: string): boolean {
    for (const q of this.byUser.get(userId) ?? []) if (q.wants(type)) return true;
    return false;
  }

  /** Whether a queue of the user that receives messages is polling now or polled since `sinceMs` (missed-message notifications). */
  hasLiveMessageQueue(userId: number, sinceMs: number): boolean {
    for (const q of this.byUser.get(userId) ?? []) if (q.wants("message") && (q.connected || q.lastTouched >= sinceMs)) return true;
    return false;
  }

  hasQueues(userId: number): boolean {
    return (this.byUser.get(userId)?.size ?? 0) > 0;
  }

  /** Users who have at least one queue: lets actions skip building events nobody will read. */
  get connectedUsers(): ReadonlySet<number> {
    return new Set(this.byUser.keys());
  }

  /**
   * Long-poll: acknowledge, then answer at once if there are events or dont_block, else park. As
   * Zulip's fetch_events, an id older than what was already dropped, or one the queue never had, is
   * refused: the client has lost track of the queue and must register again.
   */
  async poll(queue: EventQueue, lastEventId: number, dontBlock: boolean): Promise<Batch> {
    if (lastEventId < queue.newestPrunedId) throw badRequest(`An event newer than ${lastEventId} has already been pruned!`);
    queue.acknowledge(lastEventId);
    if (lastEventId !== queue.newestPrunedId) throw badRequest(`Event ${lastEventId} was not in this queue`);
    queue.touch(this.now());
    if (queue.size > 0 || dontBlock) return queue.batch();
    const batch = await queue.wait(this.settings.heartbeatMs(), this.now());
    queue.touch(this.now());
    return batch;
  }

  /** Drops every queue of a user (deactivation). */
  dropUser(userId: number): void {
    for (const q of [...(this.byUser.get(userId) ?? [])]) this.remove(q);
  }

  /** Garbage-collects queues idle longer than their lifespan. Returns how many went. */
  gc(): number {
    const now = this.now();
    let n = 0;
    for (const q of [...this.queues.values()]) {
      if (q.expired(now, this.settings.idleSecs)) {
        this.remove(q);
        n++;
      }
    }
    return n;
  }

  /**
   * Shutdown: answer every parked long-poll so in-flight requests can finish. At once, not after the
   * current task as an event's answers are (queue.ts wake): the process may end right after.
   */
  releaseAll(): void {
    for (const q of this.queues.values()) {
      if (!q.connected) continue;
      q.push(HEARTBEAT);
      q.release();
    }
  }

  get size() {
    return this.queues.size;
  }

  /** Long-polls parked now (read by /metrics: a walk over the queues). */
  get heldPolls(): number {
    let n = 0;
    for (const q of this.queues.values()) if (q.connected) n++;
    return n;
  }

  /** Whether any queue was registered with all_public_streams. */
  get hasAllPublicQueues(): boolean {
    return this.allPublic.size > 0;
  }

  /**
   * Sends an event to the all_public_streams queues of users not in `exclude` (a public channel's
   * message to those who registered for every public channel).
   */
  publishToAllPublicQueues(event: Event, exclude: ReadonlySet<number>): void {
    const fanout = this.fanout();
    const memo = Fanout.memo();
    for (const q of this.allPublic) if (!exclude.has(q.userId)) this.deliver(q, event, fanout, memo);
  }

  private remove(q: EventQueue) {
    this.allPublic.delete(q);
    q.release();
    this.queues.delete(q.id);
    const set = this.byUser.get(q.userId);
    set?.delete(q);
    if (set && set.size === 0) this.byUser.delete(q.userId);
  }
}
