import type { TItemLock } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { lockHolder, lockLabel } from './locks.ts';

const lock = (client: string | null, name = 'Bob'): TItemLock => ({
  by: { id: 'bob', name },
  client,
  expiresAt: '2026-05-01T10:00:00.000Z',
  scope: 'exclusive',
  breakable: false,
});

describe('a lock in words', () => {
  it('names the holder and the client they took it with, or "you" for the reader’s own', () => {
    expect(lockLabel(lock('Finder'), 'ada')).toBe('Locked by Bob (Finder)');
    expect(lockLabel(lock('Finder'), 'bob')).toBe('Locked by you (Finder)');
  });

  it('leaves out a client that is not known, and a name that is empty', () => {
    expect(lockLabel(lock(null), 'ada')).toBe('Locked by Bob');
    expect(lockHolder(lock('rclone', ''), undefined)).toBe('someone (rclone)');
  });
});
