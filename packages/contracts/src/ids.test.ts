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
