/**
 * Which versions of a file the retention job keeps (PRODUCT.md §9, ADR 0041), as a pure function:
 * every version of the last 24 hours; then the newest of each hour up to 7 days old, of each day up
 * to 30 days old, of each week after that; at most `max` in all, the oldest going first. The
 * current version and named (pinned) versions are always kept, and count towards `max`.
 *
 * Buckets are fixed slices of time (hours, days, weeks since the epoch, UTC), not slices of age:
 * a version kept once stays kept until its slice widens, and running the selection again on what
 * it kept keeps all of it (the job may run at any time, as often as it likes).
 */
export interface RetainedVersion {
  id: string;
  createdAt: Date;
  pinned: boolean;
  current: boolean;
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const WEEK = 7 * DAY;

/** The slice of time a version of this age is one of, or null in the first 24 hours (all kept). */
export function bucketOf(createdAt: number, now: number): string | null {
  const age = now - createdAt;
  if (age <= DAY) return null;
  if (age <= 7 * DAY) return `h${Math.floor(createdAt / HOUR)}`;
  if (age <= 30 * DAY) return `d${Math.floor(createdAt / DAY)}`;
  return `w${Math.floor(createdAt / WEEK)}`;
}

/** The ids of the versions to keep. */
export function versionsToKeep(versions: readonly RetainedVersion[], now: Date, max: number): Set<string> {
  const at = now.getTime();
  const newestFirst = [...versions].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  const keep = new Set<string>();
  const taken = new Set<string>();
  for (const v of newestFirst) {
    if (v.current || v.pinned) {
      keep.add(v.id);
      continue;
    }
    const bucket = bucketOf(v.createdAt.getTime(), at);
    if (bucket === null) keep.add(v.id);
    else if (!taken.has(bucket)) {
      taken.add(bucket);
      keep.add(v.id);
    }
  }
  // At most `max`: the oldest of the others go first; the current and named ones stay whatever their number.
  let over = keep.size - max;
  for (let i = newestFirst.length - 1; i >= 0 && over > 0; i--) {
    const v = newestFirst[i]!;
    if (keep.has(v.id) && !v.current && !v.pinned) {
      keep.delete(v.id);
      over--;
    }
  }
  return keep;
}
