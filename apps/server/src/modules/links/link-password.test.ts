import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { DERIVATIONS_AT_ONCE, DERIVATIONS_WAITING, hashLinkPassword, verifyLinkPassword } from './link-password.ts';

describe('link passwords', () => {
  it('are checked a few at a time: a flood beyond the few that may wait is refused at once with rate_limited, and checking goes on afterwards', async () => {
    const stored = await hashLinkPassword('right password');
    const flood = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => verifyLinkPassword(i === 0 ? 'right password' : `guess ${i}`, stored)));
    const checked = flood.filter((r) => r.status === 'fulfilled');
    const refused = flood.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(checked).toHaveLength(DERIVATIONS_AT_ONCE + DERIVATIONS_WAITING);
    expect(checked.map((r) => r.value)).toEqual([true, ...Array<boolean>(checked.length - 1).fill(false)]);
    expect(refused).toHaveLength(40 - DERIVATIONS_AT_ONCE - DERIVATIONS_WAITING);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect(r.reason).toMatchObject({ code: 'rate_limited', details: { retryAfter: expect.any(Number) } });
    }
    expect(await verifyLinkPassword('right password', stored)).toBe(true);
    // Ten derivations two at a time on a busy machine take a while.
  }, 60_000);
});
