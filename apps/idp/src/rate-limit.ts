/**
 * Attempts per key in a sliding minute, kept in memory: the embedded provider serves one
 * machine; account lockout (in the database) is what holds across instances.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly perMinute: number) {}

  /** Records an attempt; returns seconds to wait when over the limit, or 0. */
  hit(key: string, now = Date.now()): number {
    const since = now - 60_000;
    const recent = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (recent.length >= this.perMinute) {
      this.hits.set(key, recent);
      return Math.max(1, Math.ceil((recent[0]! - since) / 1000));
    }
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > 10_000) this.prune(since);
    return 0;
  }

  private prune(since: number) {
    for (const [key, times] of this.hits) if (!times.some((t) => t > since)) this.hits.delete(key);
  }
}
