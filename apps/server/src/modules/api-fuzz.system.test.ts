import { commentsApi, CSRF_COOKIE, CSRF_HEADER, grantsApi, itemsApi, meApi, tokensApi, uploadsApi, uuidv7, workspacesApi } from '@cabinet/contracts';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { apiFuzzer, describeCall, rank, readOperations, send, wrongAnswer, type Call, type Operation } from '../testing/api-fuzz.ts';
import { signUp, type TestBrowser } from '../testing/browser.ts';
import type { Person } from '../testing/given.ts';
import { useTestApp } from '../testing/test-app.ts';

/**
 * Every operation of the OpenAPI document, called many times with hostile values (testing/api-fuzz.ts) as a signed-in
 * person (API token, and browser session with CSRF). Nothing may answer 5xx, and every failure is the error envelope
 * of PRODUCT.md §8. The seed is fixed: a failure found here is found again on the next run. `npm run fuzz` runs the long
 * one, with two people and a link visitor.
 */
const SEED = 20_261_123;
const RUNS_PER_OPERATION = 30;

const test = useTestApp();
let browser: TestBrowser;
let token: string;
let operations: Operation[];
/** Real ids and slugs, so that most calls get past "not found" and into the code behind it. */
const known: Record<string, string[]> = {};

beforeAll(async () => {
  ({ browser } = await signUp(test.app.url, { name: 'Fuzz Person' }));
  token = (await browser.call(tokensApi.create, { body: { name: 'fuzz' } })).body.token;
  const spareToken = (await browser.call(tokensApi.create, { body: { name: 'spare' } })).body.id;
  const me = (await browser.call(meApi.get)).body;
  const workspaces = (await browser.call(workspacesApi.list)).body.items;
  expect(workspaces).toHaveLength(1);
  const workspace = workspaces[0]!;
  const person: Person = {
    id: me.user.id,
    token,
    workspace: { id: workspace.id, rootId: workspace.rootId, homeId: workspace.homeId },
    call: browser.call,
    raw: browser.raw,
  };
  const folder = (await test.given.folder(person, workspace.rootId, 'Plans')).id;
  const doc = (await test.given.document(person, folder, 'Notes')).id;
  const trashed = (await test.given.folder(person, workspace.rootId, 'Old')).id;
  await person.call(itemsApi.trash, { params: { id: trashed } });
  const file = (await test.given.upload(person, folder, 'hello.txt', new TextEncoder().encode('hello fuzz'))).body.item.id;
  const pending = (await person.call(uploadsApi.start, { params: { ws: workspace.id }, body: { parentId: folder, name: 'pending.bin', size: 3 } })).body.id;
  const thread = (await person.call(commentsApi.add, { params: { id: doc }, body: { body: 'First' } })).body;
  expect(thread.comments).toHaveLength(1);
  const grant = (await person.call(grantsApi.create, { params: { id: folder }, body: { principal: { type: 'workspace' }, role: 'viewer' } })).body.id;

  Object.assign(known, {
    document: [doc],
    file: [file],
    upload: [pending],
    apiToken: [spareToken],
    ws: [workspace.id, workspace.slug],
    id: [folder, doc, file, trashed, workspace.rootId, workspace.homeId, pending, spareToken, thread.id, uuidv7()],
    commentId: [thread.comments[0]!.id, uuidv7()],
    grantId: [grant, uuidv7()],
    revisionId: [uuidv7()],
    parentId: [folder, workspace.rootId, workspace.homeId, trashed],
    threadId: [thread.id],
  });

  operations = await readOperations(test.app.url);
}, 180_000);

const asToken = (call: Call): Call => ({ ...call, headers: { ...call.headers, authorization: `Bearer ${token}` } });
const asBrowser = (call: Call): Call => ({
  ...call,
  headers: { ...call.headers, cookie: browser.cookieHeader(), origin: test.app.url, [CSRF_HEADER]: browser.cookies.get(CSRF_COOKIE) ?? '' },
});

it('answers hostile input on every operation of the OpenAPI document without a 5xx, always in the error envelope', async () => {
  expect(operations.length).toBeGreaterThan(30);
  // One example per kind of failure on each operation, so a report stays readable.
  const failures = new Map<string, string>();
  const fail = (op: Operation, status: number | string, message: string) =>
    failures.has(`${status} ${op.method} ${op.path}`) || failures.set(`${status} ${op.method} ${op.path}`, message);
  const fuzzer = apiFuzzer(known);
  let signedIn = 0;
  const ordered = [...operations].sort((a, b) => rank(a) - rank(b));
  for (const [index, op] of ordered.entries()) {
    const calls = fc.sample(fuzzer.callsFor(op), { seed: SEED + index, numRuns: RUNS_PER_OPERATION });
    for (const [i, call] of calls.entries()) {
      const sent = i % 2 === 0 ? asToken(call) : asBrowser(call);
      let res;
      try {
        res = await send(test.app.port, sent);
      } catch (error) {
        // Node refuses to send some header values; those calls never reach the server.
        if ((error as { code?: string }).code === 'ERR_INVALID_CHAR') continue;
        fail(op, 'no answer', `no answer (${(error as Error).message}) ← ${describeCall(call)}`);
        continue;
      }
      if (rank(op) < 4 && res.status !== 401) signedIn++;
      const wrong = wrongAnswer(res);
      if (wrong) fail(op, res.status, `${wrong} ← ${describeCall(call)}`);
    }
  }
  expect([...failures.values()]).toEqual([]);
  // The calls reached the code behind authentication, not only the sign-in check.
  expect(signedIn).toBeGreaterThan(operations.length * RUNS_PER_OPERATION * 0.5);
}, 240_000);
