import { expect, it } from 'vitest';
import { parseRange } from './local-routes.ts';

it('reads the byte ranges browsers and players send', () => {
  expect(parseRange(undefined, 100)).toBeNull();
  expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
  expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
  expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
  expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
  expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
  expect(parseRange('bytes=9-1', 100)).toBe('unsatisfiable');
  expect(parseRange('items=0-1', 100)).toBeNull();
});
