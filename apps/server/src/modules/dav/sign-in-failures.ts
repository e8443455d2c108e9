/**
 * Wrong passwords from one address, counted so that a WebDAV client cannot be used to guess app passwords: after
 * `max` failures in `windowMs`, the address is refused (429) until the oldest failure leaves the window. Kept in
 * memory per instance (a guess costs a request either way), for at most `addresses` addresses: the oldest go first.
 */
export function signInFailures(o: { max: number; windowMs: number; addresses: number }) {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number) => (failures.get(key) ?? []).filter((at) => now - at < o.windowMs);
  return {
    /** Seconds until the address may try again, or 0 when it may now. */
    wait(key: string, now = Date.now()): number {
      const times = recent(key, now);
      if (times.length < o.max) return 0;
      return Math.max(1, Math.ceil((times[0]! + o.windowMs - now) / 1000));
    },
    failed(key: string, now = Date.now()): void {
      const times = recent(key, now);
      failures.delete(key);
      failures.set(key, [...times, now].slice(-o.max));
      if (failures.size > o.addresses) failures.delete(failures.keys().next().value!);
    },
  };
}
