import { expect, it } from 'vitest';
import { safeReturnTo } from './auth.routes.ts';

it('only ever returns to a path on this site', () => {
  expect(safeReturnTo('/w/team/my?x=1')).toBe('/w/team/my?x=1');
  for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', undefined, 42, '/auth/callback', '/signin?x']) {
    expect(safeReturnTo(bad)).toBe('/');
  }
});
