/**
 * Instant re-uploads (ADR 0042): an upload whose bytes the workspace already holds completes by
 * naming the same blob, once the uploader proves it holds those bytes too. Knowing a file's
 * SHA-256 is not enough (the "hash claim" attack): the proof is the SHA-256 of a fresh nonce
 * followed by a few ranges of the file chosen at random by the server, which it checks against
 * the stored blob by reading those ranges alone.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { DedupChallenge } from '../../db/schema.ts';
import type { StorageDriver } from '../../infra/storage/driver.ts';

/** How many ranges a challenge asks for, and how long each is at most. */
export const CHALLENGE_RANGES = 4;
export const CHALLENGE_RANGE_BYTES = 64 * 1024;

/** A fresh challenge for a file of `size` bytes: a nonce and ranges (ends inclusive), in file order. A file of 64 KiB or less is asked whole. */
export function makeChallenge(size: number): DedupChallenge {
  const nonce = randomBytes(32).toString('hex');
  if (size <= 0) return { nonce, ranges: [] };
  const length = Math.min(CHALLENGE_RANGE_BYTES, size);
  const ranges = Array.from({ length: size === length ? 1 : CHALLENGE_RANGES }, () => {
    const start = size === length ? 0 : randomInt(0, size - length + 1);
    return { start, end: start + length - 1 };
  }).sort((a, b) => a.start - b.start);
  return { nonce, ranges };
}

/** The answer to a challenge from bytes at hand: SHA-256 of the nonce (its text, UTF-8) and then each range's bytes, in order, as hex. */
export function proofOf(challenge: DedupChallenge, rangeBytes: Uint8Array[]): string {
  const hash = createHash('sha256').update(challenge.nonce, 'utf8');
  for (const bytes of rangeBytes) hash.update(bytes);
  return hash.digest('hex');
}

/** The answer the stored blob gives, read through the storage driver by ranges alone. */
export async function storedProof(storage: StorageDriver, key: string, challenge: DedupChallenge): Promise<string> {
  const parts: Uint8Array[] = [];
  for (const range of challenge.ranges) {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read(key, range)) chunks.push(chunk as Buffer);
    parts.push(Buffer.concat(chunks));
  }
  return proofOf(challenge, parts);
}

/** Whether a proof is the expected one (compared in constant time). */
export function proofMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(given.toLowerCase(), 'hex');
  return a.length === b.length && a.length === 32 && timingSafeEqual(a, b);
}

/** A challenge as stored (jsonb reads back as an object; a driver may hand back its text). */
export const challengeOf = (stored: DedupChallenge | string | null): DedupChallenge | null =>
  typeof stored === 'string' ? (JSON.parse(stored) as DedupChallenge) : stored;
