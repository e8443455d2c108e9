import fc from 'fast-check';
import { expect, it } from 'vitest';
import { safeReturnTo } from './auth.routes.ts';

const SITE = 'https://cabinet.example.com';

it('only ever returns to a path on this site', () => {
  expect(safeReturnTo('/w/team/my?x=1', SITE)).toBe('/w/team/my?x=1');
  expect(safeReturnTo('/w/a%2Fb#c', SITE)).toBe('/w/a%2Fb#c');
  const bad = [
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    undefined,
    42,
    '/auth/callback',
    '/signin?x',
    '/\t/evil.example/',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/ \t/evil.example',
    '/\\/evil.example',
    '/\t\\evil.example',
    '/x\nSet-Cookie: a=b',
    '/x\u0000',
    '/x\u0085',
    '/./auth/callback',
    '/a/../signin',
    '/SIGNIN',
    '/Auth/callback',
    '/.//evil.example',
    '/..//evil.example/',
    '/a/..//evil.example',
    '/%2e//evil.example',
    '/./\\evil.example',
  ];
  for (const value of bad) expect(safeReturnTo(value, SITE), JSON.stringify(value)).toBe('/');
});

// Characters a browser drops or reads as a separator when it resolves a Location header.
const tricky = fc.constantFrom(
  '/',
  '\\',
  '\t',
  '\n',
  '\r',
  ' ',
  '.',
  '..',
  '%2e',
  ':',
  '@',
  '%',
  '%2F',
  '%5C',
  '%09',
  '?',
  '#',
  'evil.example',
  'a',
  '\u0000',
  '\u007f',
  '\u0085',
  'é',
);

it('whatever it is given, answers a path that a browser resolves to this site, without control characters', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.array(tricky, { maxLength: 12 }).map((parts) => parts.join('')),
      ),
      (value) => {
        const answer = safeReturnTo(value, SITE);
        expect(answer.startsWith('/')).toBe(true);
        expect(answer).not.toMatch(/\p{Cc}/u);
        // What a browser does with the Location header: resolve it against the page's URL.
        expect(new URL(answer, `${SITE}/auth/callback`).origin).toBe(SITE);
        expect(() => new Headers({ location: answer })).not.toThrow();
      },
    ),
    { seed: 10, numRuns: 5000 },
  );
});
