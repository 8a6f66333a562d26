/** Fixed-window request counting per key (a user id or an IP address). 0 requests = unlimited. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one request; returns what the X-RateLimit-* headers need and whether it is allowed. */
  hit(key: string): { allowed: boolean; remaining: number; resetMs: number; retryAfterMs: number } {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 100_000) this.prune(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    return { allowed: w.count <= this.limit, remaining: Math.max(0, this.limit - w.count), resetMs: w.start + this.windowMs, retryAfterMs: w.start + this.windowMs - now };
  }

  private prune(now: number) {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}

/**
 * Failed attempts per key in a sliding window: a key with `limit` failures in the last `windowMs`
 * waits until the oldest of them leaves the window. Each failure carries a tag (where it came from),
 * so a success can forgive its own tag's failures and nobody else's. 0 failures = unlimited.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, { at: number; tag: string }[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Seconds until `key` may try again; 0 when it may try now. */
  waitSecs(key: string): number {
    if (this.limit <= 0) return 0;
    const recent = this.recent(key);
    return recent.length < this.limit ? 0 : (recent[recent.length - this.limit]!.at + this.windowMs - this.now()) / 1000;
  }

  /** Counts a failure of `key`; returns true when it used the key's last attempt. */
  fail(key: string, tag = ""): boolean {
    if (this.limit <= 0) return false;
    const recent = this.recent(key);
    recent.push({ at: this.now(), tag });
    if (recent.length > this.limit) recent.splice(0, recent.length - this.limit);
    if (!this.failures.has(key) && this.failures.size >= 100_000) this.prune();
    this.failures.set(key, recent);
    return recent.length >= this.limit;
  }

  /** Forgets the failures of `key` that came with `tag`. */
  forgive(key: string, tag: string): void {
    const kept = this.failures.get(key)?.filter((f) => f.tag !== tag);
    if (kept?.length) this.failures.set(key, kept);
    else this.failures.delete(key);
  }

  private recent(key: string): { at: number; tag: string }[] {
    const since = this.now() - this.windowMs;
    return (this.failures.get(key) ?? []).filter((f) => f.at > since);
  }

  private prune() {
    const since = this.now() - this.windowMs;
    for (const [k, list] of this.failures) if (list[list.length - 1]!.at <= since) this.failures.delete(k);
  }
}
