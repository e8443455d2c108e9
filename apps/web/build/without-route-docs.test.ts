import { describe, expect, it } from 'vitest';
import { stripRouteDocs } from './without-route-docs.ts';

/** The declaration's object as the code is left, parsed back (it must still be valid code). */
const left = (code: string) => new Function('defineRoute', `return ${stripRouteDocs(code)};`)((o: unknown) => o) as Record<string, unknown>;

describe('stripRouteDocs', () => {
  it('drops summary and description wherever they stand, leaving valid code and every other field', () => {
    const cases = [
      "defineRoute({ summary: 's', method: 'GET', path: '/a' })",
      "defineRoute({ method: 'GET', summary: 's', path: '/a' })",
      "defineRoute({ method: 'GET', path: '/a', summary: 's' })",
      "defineRoute({ method: 'GET', path: '/a', summary: 's', })",
      "defineRoute({ method: 'GET', path: '/a', summary: 's', description: 'a' + 'b' })",
      "defineRoute({ method: 'GET', path: '/a', summary: 's', description: 'd', })",
      "defineRoute({ summary: 's', description: `d`, method: 'GET', path: '/a' })",
      "defineRoute({ method: 'GET', summary: 's', path: '/a', description: 'd' })",
    ];
    for (const code of cases) expect(left(code), code).toEqual({ method: 'GET', path: '/a' });
  });

  it('leaves braces when nothing else is declared, and other calls and objects alone', () => {
    expect(left("defineRoute({ summary: 's', description: 'd', })")).toEqual({});
    const other = "({ a: defineRoute({ summary: 's', path: '/b' }), b: { summary: 'kept' }, c: notARoute({ summary: 'kept' }) })";
    expect(stripRouteDocs(other)).toBe("({ a: defineRoute({ path: '/b' }), b: { summary: 'kept' }, c: notARoute({ summary: 'kept' }) })");
  });
});
