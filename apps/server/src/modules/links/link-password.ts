import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '../../errors.ts';
import { limiter, LimiterFull } from '../../lib/limiter.ts';

// scrypt at N=2^15, r=8, p=1 (32 MiB, tens of milliseconds): slow for a guesser with the table, quick enough per visit.
const PARAMS = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_LENGTH = 32;

/**
 * Derivations at once in this process (each holds 32 MiB and one of libuv's four threads, which
 * file reads share), and how many may wait for them; past that a password is refused for now
 * (`rate_limited`), so a flood of tries from many addresses costs neither memory nor the threads.
 */
export const DERIVATIONS_AT_ONCE = 2;
export const DERIVATIONS_WAITING = 8;
const slots = limiter(DERIVATIONS_AT_ONCE, DERIVATIONS_WAITING);

async function derive(password: string, salt: Buffer, o: ScryptOptions): Promise<Buffer> {
  try {
    return await slots(
      () =>
        new Promise<Buffer>((resolve, reject) =>
          scrypt(password.normalize('NFC'), salt, KEY_LENGTH, o, (error, key) => (error ? reject(error) : resolve(key))),
        ),
    );
  } catch (error) {
    if (error instanceof LimiterFull)
      throw new AppError('rate_limited', 'Too many link passwords are being checked right now. Try again in a moment.', { retryAfter: 2 });
    throw error;
  }
}

/** `scrypt$N$r$p$salt$key` (base64url), so the cost can rise later without breaking stored hashes. */
export async function hashLinkPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyLinkPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
