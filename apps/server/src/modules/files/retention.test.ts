import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketOf, DAY, HOUR, versionsToKeep, WEEK, type RetainedVersion } from './retention.ts';

const NOW = new Date('2030-01-01T00:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const v = (id: string, age: number, more: Partial<RetainedVersion> = {}): RetainedVersion => ({
  id,
  createdAt: ago(age),
  pinned: false,
  current: false,
  ...more,
});

/** A file's versions: ages up to a year, some named, one current. */
const files = fc
  .array(fc.record({ age: fc.integer({ min: 0, max: 365 * DAY }), pinned: fc.boolean() }), { minLength: 1, maxLength: 60 })
  .chain((vs) => fc.record({ vs: fc.constant(vs), current: fc.integer({ min: 0, max: vs.length - 1 }) }))
  .map(({ vs, current }) => vs.map((x, i) => v(`v${i}`, x.age, { pinned: x.pinned && i % 4 === 0, current: i === current })));

describe('version retention', () => {
  it('keeps everything of the last day, then the newest of each hour, day and week', () => {
    const keep = versionsToKeep(
      [
        v('a', 5 * 60_000),
        v('b', 23 * HOUR),
        v('c', 2 * DAY),
        v('d', 2 * DAY + 1),
        v('e', 12 * DAY),
        v('f', 12 * DAY + 2 * HOUR),
        v('g', 100 * DAY),
        v('h', 100 * DAY + HOUR),
        v('i', 200 * DAY, { pinned: true }),
        v('j', 300 * DAY, { current: true }),
      ],
      NOW,
      100,
    );
    // c and d share an hour (the newest, c, stays) unless the hour boundary falls between them.
    const sameHour = bucketOf(ago(2 * DAY).getTime(), NOW.getTime()) === bucketOf(ago(2 * DAY + 1).getTime(), NOW.getTime());
    expect(keep.has('a') && keep.has('b') && keep.has('c')).toBe(true);
    expect(keep.has('d')).toBe(!sameHour);
    expect(keep.has('e')).toBe(true);
    expect(keep.has('i') && keep.has('j')).toBe(true);
  });

  it('keeps the current and named versions, whatever their age and the maximum', () => {
    fc.assert(
      fc.property(files, fc.integer({ min: 1, max: 120 }), (vs, max) => {
        const keep = versionsToKeep(vs, NOW, max);
        for (const x of vs) if (x.current || x.pinned) expect(keep.has(x.id)).toBe(true);
      }),
    );
  });

  it('keeps at most the maximum, unless named and current versions alone pass it; the ones dropped for it are the oldest', () => {
    fc.assert(
      fc.property(files, fc.integer({ min: 1, max: 30 }), (vs, max) => {
        const keep = versionsToKeep(vs, NOW, max);
        const fixed = vs.filter((x) => x.current || x.pinned).length;
        expect(keep.size).toBeLessThanOrEqual(Math.max(max, fixed));
        const free = versionsToKeep(vs, NOW, 1_000_000);
        const dropped = vs.filter((x) => free.has(x.id) && !keep.has(x.id));
        const kept = vs.filter((x) => keep.has(x.id) && !x.current && !x.pinned);
        for (const d of dropped) for (const k of kept) expect(d.createdAt.getTime()).toBeLessThanOrEqual(k.createdAt.getTime());
      }),
    );
  });

  it('keeps every version of the last 24 hours (below the maximum), and at most one other per slice of time', () => {
    fc.assert(
      fc.property(files, (vs) => {
        const keep = versionsToKeep(vs, NOW, 1_000_000);
        const slices = new Map<string, number>();
        for (const x of vs) {
          const bucket = bucketOf(x.createdAt.getTime(), NOW.getTime());
          if (bucket === null) expect(keep.has(x.id)).toBe(true);
          else if (keep.has(x.id) && !x.current && !x.pinned) slices.set(bucket, (slices.get(bucket) ?? 0) + 1);
        }
        for (const n of slices.values()) expect(n).toBe(1);
      }),
    );
  });

  it('is stable: what it keeps, it keeps again, at the same time or later (never bringing one back)', () => {
    fc.assert(
      fc.property(files, fc.integer({ min: 1, max: 120 }), fc.integer({ min: 0, max: 60 * DAY }), (vs, max, later) => {
        const keep = versionsToKeep(vs, NOW, max);
        const kept = vs.filter((x) => keep.has(x.id));
        expect(versionsToKeep(kept, NOW, max)).toEqual(keep);
        const next = versionsToKeep(kept, new Date(NOW.getTime() + later), max);
        for (const id of next) expect(keep.has(id)).toBe(true);
      }),
    );
  });

  it('buckets by hour up to 7 days, by day up to 30, by week after', () => {
    expect(bucketOf(ago(DAY).getTime(), NOW.getTime())).toBeNull();
    expect(bucketOf(ago(3 * DAY).getTime(), NOW.getTime())).toMatch(/^h/);
    expect(bucketOf(ago(8 * DAY).getTime(), NOW.getTime())).toMatch(/^d/);
    expect(bucketOf(ago(31 * DAY).getTime(), NOW.getTime())).toBe(`w${Math.floor(ago(31 * DAY).getTime() / WEEK)}`);
  });
});
