import { describe, expect, it } from 'vitest';
import { signInFailures } from './sign-in-failures.ts';

describe('signInFailures', () => {
  it('refuses an address after the tenth failure until the first leaves the window', () => {
    const limit = signInFailures({ max: 10, windowMs: 600_000, addresses: 100 });
    for (let i = 0; i < 9; i++) limit.failed('a', 1_000 + i);
    expect(limit.wait('a', 2_000)).toBe(0);
    limit.failed('a', 2_000);
    expect(limit.wait('a', 2_000)).toBe(599);
    expect(limit.wait('b', 2_000)).toBe(0);
    expect(limit.wait('a', 601_000)).toBe(0);
  });

  it('forgets the oldest address past its bound', () => {
    const limit = signInFailures({ max: 1, windowMs: 60_000, addresses: 2 });
    limit.failed('a', 0);
    limit.failed('b', 0);
    limit.failed('c', 0);
    expect([limit.wait('a', 1), limit.wait('b', 1), limit.wait('c', 1)]).toEqual([0, 60, 60]);
  });
});
