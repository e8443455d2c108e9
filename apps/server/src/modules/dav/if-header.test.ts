import { describe, expect, it } from 'vitest';
import { ifHeaderHolds, parseIfHeader, submittedTokens, type IfCondition } from './if-header.ts';

const TOKEN = 'opaquelocktoken:4f1c2d3e-0000-4000-8000-000000000001';
const ETAG = '"v-0192a"';

/** A resource holding one lock (TOKEN) and one entity tag (ETAG), whatever the list is about. */
const locked = async (_resource: string | null, c: IfCondition) => (c.kind === 'token' ? c.value === TOKEN : c.value === ETAG);

describe('the If header', () => {
  it('reads untagged and tagged lists, Not, tokens and entity tags', () => {
    expect(parseIfHeader(`(<${TOKEN}> [${ETAG}]) (Not <DAV:no-lock> [W/"x y)]"])`)).toStrictEqual([
      {
        resource: null,
        conditions: [
          { not: false, kind: 'token', value: TOKEN },
          { not: false, kind: 'etag', value: ETAG },
        ],
      },
      {
        resource: null,
        conditions: [
          { not: true, kind: 'token', value: 'DAV:no-lock' },
          { not: false, kind: 'etag', value: 'W/"x y)]"' },
        ],
      },
    ]);
    expect(parseIfHeader(`<http://127.0.0.1:8080/dav/acme/Workspace/litmus/lockcoll/> (<${TOKEN}>)\t</dav/a> (Not <x:y>)`)).toStrictEqual([
      { resource: 'http://127.0.0.1:8080/dav/acme/Workspace/litmus/lockcoll/', conditions: [{ not: false, kind: 'token', value: TOKEN }] },
      { resource: '/dav/a', conditions: [{ not: true, kind: 'token', value: 'x:y' }] },
    ]);
  });

  it('reads several lists per tag and several tags, Not in any case, an entity tag spaced inside its brackets', () => {
    expect(parseIfHeader(`<http://h/a> (<${TOKEN}>) (nOt<x:y>) <http://h/b> ([ "e"])`)).toStrictEqual([
      { resource: 'http://h/a', conditions: [{ not: false, kind: 'token', value: TOKEN }] },
      { resource: 'http://h/a', conditions: [{ not: true, kind: 'token', value: 'x:y' }] },
      { resource: 'http://h/b', conditions: [{ not: false, kind: 'etag', value: '"e"' }] },
    ]);
  });

  it('asks about the resource each list names', async () => {
    const asked: (string | null)[] = [];
    const holds = await ifHeaderHolds(parseIfHeader(`<http://h/a> (<${TOKEN}>) <http://h/b> (<${TOKEN}>)`), async (resource) => {
      asked.push(resource);
      return resource === 'http://h/b';
    });
    expect([holds, asked]).toStrictEqual([true, ['http://h/a', 'http://h/b']]);
  });

  it.each([
    ['< http://h/a > (<x:y>)', 'a tag with spaces'],
    ['', 'no list'],
    ['()', 'an empty list'],
    [`(<${TOKEN}>) <http://h/a> (<${TOKEN}>)`, 'untagged then tagged'],
    [`<http://h/a> (<${TOKEN}>) (<${TOKEN}>`, 'a list not closed'],
    ['<http://h/a>', 'a tag without a list'],
    ['(<>)', 'an empty token'],
    ['([abc])', 'an entity tag without quotes'],
    ['(["abc")', 'an entity tag not closed'],
    [`<${TOKEN}`, 'a tag not closed'],
    ['(Nothing)', 'a condition of neither kind'],
  ])('refuses %j (%s)', (header) => {
    expect(() => parseIfHeader(header)).toThrow(/If header is malformed/);
  });

  it('holds when any list holds, each list when all of its conditions do', async () => {
    // As litmus sends them: cond_put, fail_cond_put, cond_put_with_not, cond_put_corrupt_token, complex_cond_put, fail_complex_cond_put.
    const cases: [string, boolean][] = [
      [`(<${TOKEN}> [${ETAG}])`, true],
      [`(<DAV:no-lock> [${ETAG}])`, false],
      [`(<${TOKEN}>) (Not <DAV:no-lock>)`, true],
      [`(<${TOKEN}x>) (Not <DAV:no-lock>)`, true],
      [`(<${TOKEN}> [${ETAG}]) (Not <DAV:no-lock> [${ETAG}])`, true],
      [`(<${TOKEN}> ["v-0192b"]) (Not <DAV:no-lock> ["v-0192b"])`, false],
      ['(<DAV:no-lock>)', false],
    ];
    for (const [header, expected] of cases) expect([header, await ifHeaderHolds(parseIfHeader(header), locked)]).toStrictEqual([header, expected]);
  });

  it('submits every token it names, under Not too', () => {
    expect(submittedTokens(parseIfHeader(`(<${TOKEN}x>) (Not <DAV:no-lock> [${ETAG}])`))).toStrictEqual(new Set([`${TOKEN}x`, 'DAV:no-lock']));
  });
});
