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
