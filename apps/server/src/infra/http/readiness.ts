/**
 * Whether an instance takes new requests, and how long it keeps taking them once told to stop (ADR 0078).
 *
 * A load balancer sends requests to an instance until its health checks of `/readyz` have failed a few times
 * (haproxy and Kubernetes: three). An instance that stopped listening at once on SIGTERM refused, or reset,
 * requests the balancer had already sent it: a request sent into a connection the closing server then dropped
 * comes back to its caller as a connection cut off, which neither haproxy nor the caller may safely send again.
 * So a stopping instance first answers `/readyz` with 503 while it goes on serving, for as long as its checkers
 * need to see that — four of their intervals, as measured from their own checks — and only then closes.
 *
 * An instance no one checks (one machine, `npm start`) stops at once; `DRAIN_SECONDS` sets the time outright.
 */
export class Readiness {
  /** Each checker (by its address) with when it last asked, newest last (eight at most). */
  private readonly checkers = new Map<string, number[]>();
  private draining = false;

  /** How many of a checker's intervals a stopping instance waits: the failures it needs, and one for its timing. */
  static readonly INTERVALS = 4;
  /** The longest a measured wait lasts (a Kubernetes pod's default grace is 30 s); checks further apart are not a balancer's. */
  static readonly MAX_MS = 20_000;
  /** Checks older than this say nothing of a balancer still there. */
  static readonly RECENT_MS = 60_000;

  /** Notes a check of `/readyz` from `address`. */
  checked(address: string, now = Date.now()): void {
    const times = this.checkers.get(address) ?? [];
    times.push(now);
    if (times.length > 8) times.shift();
    // Kept in the order they last asked, 64 at most (anyone may ask, from as many addresses as they like).
    this.checkers.delete(address);
    this.checkers.set(address, times);
    if (this.checkers.size > 64) this.forget(now);
    for (const oldest of this.checkers.keys()) {
      if (this.checkers.size <= 64) break;
      this.checkers.delete(oldest);
    }
  }

  get stopping(): boolean {
    return this.draining;
  }

  /**
   * How long to go on serving after being told to stop: `setting` seconds when given; else four of the longest
   * interval between two checks from one address within the last minute (at most 20 s); else nothing.
   */
  drainMs(setting: number | undefined, now = Date.now()): number {
    if (setting !== undefined) return setting * 1000;
    this.forget(now);
    let longest = 0;
    for (const times of this.checkers.values())
      for (let i = 1; i < times.length; i++) {
        const gap = times[i]! - times[i - 1]!;
        if (now - times[i - 1]! <= Readiness.RECENT_MS && gap <= Readiness.MAX_MS) longest = Math.max(longest, gap);
      }
    return Math.min(Readiness.MAX_MS, longest * Readiness.INTERVALS);
  }

  /**
   * Starts answering `/readyz` with 503 and resolves after `ms` (`drainMs`: the time balancers need to see it), or at
   * once when `hurry` resolves first (a second signal: the person at the terminal wants it stopped now).
   */
  async drain(ms: number, hurry: Promise<unknown>): Promise<void> {
    this.draining = true;
    if (ms <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, ms))), hurry]);
    clearTimeout(timer);
  }

  private forget(now: number) {
    for (const [address, times] of this.checkers) if (now - times.at(-1)! > Readiness.RECENT_MS) this.checkers.delete(address);
  }
}
