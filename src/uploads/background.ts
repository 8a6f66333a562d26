/**
 * Background work after an upload (thumbnailing), per app: a small queue with bounded concurrency
 * whose pending jobs tests (and shutdown) can wait for.
 */
export class BackgroundQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly concurrency: number,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** Queues a job; it runs when a slot is free. */
  push(job: () => Promise<void>): void {
    const p = this.slot()
      .then(job)
      .catch(this.onError)
      .finally(() => {
        this.running--;
        this.waiting.shift()?.();
        this.pending.delete(p);
      });
    this.pending.add(p);
  }

  private slot(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => (this.running++, resolve())));
  }

  /** Resolves once every queued job (including jobs queued meanwhile) has finished. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}
