/**
 * The event loop: long-polls GET /events and hands each batch to the store. When the server cannot be
 * reached it retries with growing pauses (1 s, 2 s, 4 s … 30 s), saying so in `connection`; when the
 * queue is gone (BAD_EVENT_QUEUE_ID: the server restarted, or the tab slept past the queue's lifetime)
 * it registers again through `reregister`, which rebuilds the state and reloads the view.
 */
import { signal } from "@preact/signals";
import type { ServerEvent } from "../state/apply-event";
import { api, ApiError } from "./http";

export type Connection = { state: "connected" } | { state: "retrying"; retryAt: number; failures: number } | { state: "reconnecting" };

export const connection = signal<Connection>({ state: "connected" });

export interface Queue {
  queueId: string;
  lastEventId: number;
}

export interface EventLoopHooks {
  onEvents(events: ServerEvent[]): void;
  /** registers again (a new queue) and rebuilds what the app shows */
  reregister(): Promise<Queue>;
}

/** A poll that has not answered in this long (the server's heartbeat comes every ~50 s) is given up. */
const POLL_TIMEOUT_MS = 90_000;
const MAX_PAUSE_MS = 30_000;

export class EventLoop {
  private stopped = false;
  private wake: (() => void) | null = null;
  private poll: AbortController | null = null;

  constructor(
    private queue: Queue,
    private readonly hooks: EventLoopHooks,
  ) {}

  start(): this {
    void this.run();
    addEventListener("online", this.retryNow);
    document.addEventListener("visibilitychange", this.retryWhenShown);
    return this;
  }

  stop(): void {
    this.stopped = true;
    this.poll?.abort();
    this.wake?.();
    removeEventListener("online", this.retryNow);
    document.removeEventListener("visibilitychange", this.retryWhenShown);
  }

  /** Ends a pause between retries at once (the banner's "Try now", the browser coming back online). */
  readonly retryNow = () => this.wake?.();

  private readonly retryWhenShown = () => {
    if (document.visibilityState === "visible") this.retryNow();
  };

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        const events = await this.next();
        failures = 0;
        connection.value = { state: "connected" };
        if (events.length) this.hooks.onEvents(events);
      } catch (e) {
        if (this.stopped) return;
        // the session ended: http.ts takes the page to the login screen; nothing to poll for
        if (e instanceof ApiError && e.status === 401) return;
        if (e instanceof ApiError && e.code === "BAD_EVENT_QUEUE_ID") {
          connection.value = { state: "reconnecting" };
          try {
            this.queue = await this.hooks.reregister();
            failures = 0;
            connection.value = { state: "connected" };
            continue;
          } catch (again) {
            if (again instanceof ApiError && again.status === 401) return; // the queue went with the session
            // not reachable yet: pause like any failure, then try the queue (and so registering) again
          }
        }
        failures++;
        const pause = Math.min(MAX_PAUSE_MS, 1000 * 2 ** (failures - 1)) * (0.8 + Math.random() * 0.4);
        connection.value = { state: "retrying", retryAt: Date.now() + pause, failures };
        await this.sleep(pause);
      }
    }
  }

  private async next(): Promise<ServerEvent[]> {
    this.poll = new AbortController();
    const timer = setTimeout(() => this.poll?.abort(), POLL_TIMEOUT_MS);
    try {
      const r = await api<{ events: ServerEvent[] }>("GET", "/events", { queue_id: this.queue.queueId, last_event_id: this.queue.lastEventId }, this.poll.signal);
      for (const e of r.events) if (typeof e.id === "number" && e.id > this.queue.lastEventId) this.queue.lastEventId = e.id;
      return r.events.filter((e) => e.type !== "heartbeat");
    } finally {
      clearTimeout(timer);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}
