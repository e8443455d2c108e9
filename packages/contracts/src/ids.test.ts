import { expect, it } from 'vitest';
import { ZId } from './common.ts';
import { uuidv7 } from './ids.ts';

it('makes UUIDv7 ids that sort by creation time', () => {
  const a = uuidv7(1_700_000_000_000);
  const b = uuidv7(1_700_000_000_001);
  expect(ZId.safeParse(a).success).toBe(true);
  expect(a[14]).toBe('7');
  expect(a < b).toBe(true);
});

it('gives every id its own random bits, across refills of the bytes drawn in bulk', () => {
  const ids = Array.from({ length: 2000 }, () => uuidv7(1_700_000_000_000));
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(ZId.safeParse(id).success && id[14] === '7' && '89ab'.includes(id[19]!)).toBe(true);
  // Same millisecond, so only the random part tells them apart: no two share it.
  expect(new Set(ids.map((id) => id.slice(15))).size).toBe(ids.length);
});
