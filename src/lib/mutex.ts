/** A FIFO async mutex: run() calls execute one at a time, in call order. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  run<T>(fn: () => Promise<T>): Promise<T> {
    this.waiting++;
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => this.waiting--,
      () => this.waiting--,
    );
    return result;
  }

  get pending(): number {
    return this.waiting;
  }
}
