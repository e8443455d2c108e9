import { expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.ts';

it('allows the configured attempts per minute per key, then says how long to wait', () => {
  const limiter = new RateLimiter(3);
  const t0 = 1_000_000;
  expect([limiter.hit('ip', t0), limiter.hit('ip', t0 + 1), limiter.hit('ip', t0 + 2)]).toEqual([0, 0, 0]);
  expect(limiter.hit('ip', t0 + 10_000)).toBe(50);
  expect(limiter.hit('other', t0 + 10_000)).toBe(0);
  expect(limiter.hit('ip', t0 + 60_001)).toBe(0);
});
