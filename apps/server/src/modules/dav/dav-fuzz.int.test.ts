import { workspacesApi } from '@cabinet/contracts';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { send, type Call } from '../../testing/api-fuzz.ts';
import { useTestApp } from '../../testing/test-app.ts';

/**
 * WebDAV called with hostile requests, from a fixed seed (a failure found here is found again): paths with `..`,
 * encoded separators and NUL, overlong and illegal names, every method with every header it reads given nonsense, and
 * bodies that are not XML, or XML of the wrong shape. Nothing answers 500 or 503 (502 is a Destination on another
 * server, 507 a full workspace), a failure of the API's kind is in its envelope, the server stays up, and no answer
 * holds the name of something only another person may see.
 */
const SEED = 20_261_203;
const RUNS = 400;
const test = useTestApp();

it('answers hostile WebDAV requests without a server error, and never shows what is not the caller’s', async () => {
  const ada = await test.given.person('Ada');
  const eve = await test.given.person('Eve');
  await test.given.membership(eve, ada.workspace.id, 'member');
  const slug = (await ada.call(workspacesApi.get, { params: { ws: ada.workspace.id } })).body.slug;
  const secret = `secret-${Date.now().toString(36)}`;
  await test.given.folder(ada, ada.workspace.homeId, secret);
  const plans = await test.given.folder(ada, ada.workspace.rootId, 'Plans');
  await test.given.document(ada, plans.id, 'Notes');
  await test.given.upload(ada, plans.id, 'hello.txt', new TextEncoder().encode('hello'));
  const authorization = `Basic ${Buffer.from(`eve:${await test.given.appPassword(eve)}`).toString('base64')}`;

  const segment = fc.oneof(
    fc.constantFrom(slug, 'My%20files', 'Workspace', 'Shared%20with%20me', 'Plans', 'hello.txt', 'Notes.md', secret, '._hello.txt', '.DS_Store'),
    fc.constantFrom('..', '.', '%2e%2e', '%2F', 'a%2Fb', '%00', '%ff', '%E0%A4%A', 'x'.repeat(300), '%20edge', 'ok%0Aline', '%C3%A9t%C3%A9'),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
  );
  const path = fc.array(segment, { maxLength: 6 }).map((names) => `/dav/${names.join('/')}`);
  const xml = fc.oneof(
    fc.constant('<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>'),
    fc.constant(
      '<d:propertyupdate xmlns:d="DAV:" xmlns:z="urn:z"><d:set><d:prop><z:a>1</z:a></d:prop></d:set><d:remove><d:prop><d:getetag/></d:prop></d:remove></d:propertyupdate>',
    ),
    fc.constant('<d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockinfo>'),
    fc.constant('<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>'),
    fc.constant(`${'<a>'.repeat(100)}${'</a>'.repeat(100)}`),
    fc.constant('<d:propfind xmlns:d="DAV:"><d:prop><x:y xmlns:x=""/></d:prop></d:propfind>'),
    fc.string({ maxLength: 200 }),
  );
  const headerValue = fc.oneof(
    fc.constantFrom('0', '1', 'infinity', 'T', 'F', '*', 'Second-1', 'Infinite', `(<urn:uuid:${'0'.repeat(8)}>)`, '(Not <DAV:no-lock>)', '<x>'),
    fc.string({ maxLength: 40 }),
  );
  const destination = fc.oneof(
    path.map((p) => `http://127.0.0.1:${test.app.port}${p}`),
    path,
    fc.constantFrom('http://elsewhere.example/dav/x', 'ftp://x/y', '/api/v1/items', ''),
  );
  const call: fc.Arbitrary<Call> = fc
    .record({
      method: fc.constantFrom('OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'POST'),
      path,
      depth: fc.option(headerValue),
      destination: fc.option(destination),
      overwrite: fc.option(headerValue),
      if: fc.option(headerValue),
      lockToken: fc.option(headerValue),
      timeout: fc.option(headerValue),
      range: fc.option(fc.constantFrom('bytes=0-1', 'bytes=5-', 'bytes=-2', 'bytes=9-1', 'bytes=a-b')),
      body: fc.option(xml),
    })
    .map((r) => {
      const headers: Record<string, string> = { authorization };
      for (const [key, name] of [
        ['depth', 'depth'],
        ['destination', 'destination'],
        ['overwrite', 'overwrite'],
        ['if', 'if'],
        ['lockToken', 'lock-token'],
        ['timeout', 'timeout'],
        ['range', 'range'],
      ] as const) {
        const value = r[key];
        if (value !== null) headers[name] = value;
      }
      return { method: r.method, path: r.path, headers, ...(r.body !== null && r.method !== 'GET' && r.method !== 'HEAD' ? { body: r.body } : {}) };
    });

  const failures = new Set<string>();
  for (const c of fc.sample(call, { seed: SEED, numRuns: RUNS })) {
    let res;
    try {
      res = await send(test.app.port, c, { successes: true });
    } catch (error) {
      // Node refuses to send some header values; those calls never reach the server.
      if ((error as { code?: string }).code === 'ERR_INVALID_CHAR') continue;
      failures.add(`no answer (${(error as Error).message}) ← ${JSON.stringify(c).slice(0, 300)}`);
      continue;
    }
    const where = JSON.stringify([c.method, c.path.slice(0, 120), c.headers.destination?.slice(0, 80)]);
    if (res.status >= 500 && res.status !== 502 && res.status !== 507) failures.add(`${res.status} ← ${where}: ${res.body.slice(0, 200)}`);
    if (res.body.includes(secret)) failures.add(`shows another's secret ← ${where}`);
    if (c.method !== 'HEAD' && res.status >= 400 && res.type.includes('application/json') && !/"error":\{"code":"[a-z_]+"/.test(res.body))
      failures.add(`${res.status} outside the envelope ← ${where}`);
  }
  expect([...failures]).toEqual([]);
  expect((await fetch(`${test.app.url}/healthz`)).status).toBe(200);
}, 240_000);
