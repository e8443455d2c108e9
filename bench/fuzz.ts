import { randomBytes } from 'node:crypto';
import { commentsApi, CSRF_COOKIE, CSRF_HEADER, grantsApi, itemsApi, linksApi, meApi, tokensApi, uploadsApi, uuidv7, workspacesApi } from '@cabinet/contracts';
import fc from 'fast-check';
import { apiFuzzer, describeCall, rank, readOperations, send, wrongAnswer, type Call } from '../apps/server/src/testing/api-fuzz.ts';
import { signUp, type TestBrowser } from '../apps/server/src/testing/browser.ts';
import { putParts, sha256Hex, type Person } from '../apps/server/src/testing/given.ts';
import { startBenchApp } from './setup.ts';

/*
 * `npm run fuzz [-- --calls N] [--seed S]`: the long fuzz (issue 24, part 7). At least N calls (10,000 unless said)
 * generated from the OpenAPI document with hostile values (apps/server/src/testing/api-fuzz.ts), sent by two people —
 * each through an API token and a browser session, each with a folder of their own named as a secret — and by a
 * visitor holding a public link of the first. Counts the answers by status; fails on any 5xx, any failure outside the
 * error envelope, and any leak: the second person's secret in an answer to the first or to the visitor, the first's in
 * an answer to the second. On PostgreSQL when DATABASE_URL is set, else PGlite. The seed is printed: a failure is
 * found again with it.
 */

const argument = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const CALLS = Number(argument('--calls') ?? 10_000);
const SEED = Number(argument('--seed') ?? Math.floor(Math.random() * 2 ** 31));

interface Caller {
  name: string;
  /** Adds who they are to a call. */
  as(call: Call): Call;
  known: Record<string, string[]>;
  /** Secrets that must never be in an answer to them. */
  mustNotSee: string[];
  /** Their own secret: answers showing it prove the answers are read. */
  own?: string;
}

/** A person signed up through the embedded provider, with an API token, a few things of each kind, and a secret folder. */
async function person(url: string, name: string) {
  const { browser } = await signUp(url, { name });
  const token = (await browser.call(tokensApi.create, { body: { name: 'fuzz' } })).body.token;
  const spareToken = (await browser.call(tokensApi.create, { body: { name: 'spare' } })).body.id;
  const me = (await browser.call(meApi.get)).body;
  const ws = (await browser.call(workspacesApi.list)).body.items[0]!;
  const make = async (kind: 'folder' | 'document', name: string, parentId: string) =>
    (await browser.call(itemsApi.create, { params: { ws: ws.id }, body: { kind, name, parentId } })).body.id;
  const secret = `secret-${name.toLowerCase()}-${randomBytes(6).toString('hex')}`;
  const hidden = await make('folder', secret, ws.homeId);
  const hiddenDoc = await make('document', `${secret} notes`, hidden);
  const folder = await make('folder', 'Plans', ws.rootId);
  const doc = await make('document', 'Notes', folder);
  const trashed = await make('folder', 'Old', ws.rootId);
  await browser.call(itemsApi.trash, { params: { id: trashed } });
  const started = await browser.call(uploadsApi.start, { params: { ws: ws.id }, body: { parentId: folder, name: 'pending.bin', size: 3 } });
  const bytes = new TextEncoder().encode(`hello from ${name}`);
  const upload = await browser.call(uploadsApi.start, {
    params: { ws: ws.id },
    body: { parentId: folder, name: 'hello.txt', size: bytes.length, sha256: sha256Hex(bytes) },
  });
  await putParts({ call: browser.call } as Person, upload.body, bytes);
  const file = (await browser.call(uploadsApi.complete, { params: { id: upload.body.id }, body: {} })).body.item.id;
  const thread = (await browser.call(commentsApi.add, { params: { id: doc }, body: { body: 'First' } })).body;
  const grant = (await browser.call(grantsApi.create, { params: { id: folder }, body: { principal: { type: 'workspace' }, role: 'viewer' } })).body.id;
  const link = (await browser.call(linksApi.create, { params: { id: folder }, body: { kind: 'view' } })).body;
  const linkToken = link.url?.split('/').pop() ?? '';
  return {
    name,
    browser,
    token,
    userId: me.user.id,
    email: me.user.email,
    secret,
    linkToken,
    known: {
      document: [doc, hiddenDoc],
      file: [file],
      upload: [started.body.id],
      apiToken: [spareToken],
      ws: [ws.id, ws.slug],
      id: [folder, doc, file, hidden, hiddenDoc, trashed, ws.rootId, ws.homeId, started.body.id, thread.id, uuidv7()],
      commentId: [thread.comments[0]!.id, uuidv7()],
      grantId: [grant, uuidv7()],
      revisionId: [uuidv7()],
      parentId: [folder, ws.rootId, ws.homeId, trashed, hidden],
      threadId: [thread.id],
      token: [linkToken],
      linkId: [link.id],
    } as Record<string, string[]>,
  };
}

const withToken =
  (token: string) =>
  (call: Call): Call => ({ ...call, headers: { ...call.headers, authorization: `Bearer ${token}` } });
const withBrowser =
  (browser: TestBrowser, origin: string) =>
  (call: Call): Call => ({
    ...call,
    headers: { ...call.headers, cookie: browser.cookieHeader(), origin, [CSRF_HEADER]: browser.cookies.get(CSRF_COOKIE) ?? '' },
  });
/** Both of a person's ways in, call by call. */
const either = (a: (c: Call) => Call, b: (c: Call) => Call) => {
  let n = 0;
  return (call: Call) => (n++ % 2 === 0 ? a(call) : b(call));
};
/** Two lists of ids and slugs as one: a person aims at their own things and at the other's. */
const merged = (a: Record<string, string[]>, b: Record<string, string[]>) =>
  Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, [...(a[k] ?? []), ...(b[k] ?? [])]]));

async function main(): Promise<void> {
  const app = await startBenchApp();
  const { url, port } = app.t;
  let exitCode = 0;
  try {
    const ada = await person(url, 'Ada');
    const bea = await person(url, 'Bea');
    const operations = await readOperations(url);
    const callers: Caller[] = [
      {
        name: 'Ada',
        as: either(withToken(ada.token), withBrowser(ada.browser, url)),
        known: merged(ada.known, bea.known),
        mustNotSee: [bea.secret],
        own: ada.secret,
      },
      {
        name: 'Bea',
        as: either(withToken(bea.token), withBrowser(bea.browser, url)),
        known: merged(bea.known, ada.known),
        mustNotSee: [ada.secret],
        own: bea.secret,
      },
      // The visitor knows Ada's link and every id of both; only the link's folder is theirs to see.
      { name: 'a link visitor', as: (call) => call, known: merged(ada.known, bea.known), mustNotSee: [ada.secret, bea.secret] },
    ];
    const ordered = [...operations].sort((a, b) => rank(a) - rank(b));
    const perOperation = Math.ceil(CALLS / (ordered.length * callers.length));
    const statuses = new Map<string, number>();
    const failures = new Map<string, string>();
    let sent = 0;
    let ownSeen = 0;
    const started = Date.now();
    console.log(`fuzz: seed ${SEED}, ${operations.length} operations × ${callers.length} callers × ${perOperation} calls`);
    for (const [index, op] of ordered.entries()) {
      for (const [c, caller] of callers.entries()) {
        const calls = fc.sample(apiFuzzer(caller.known).callsFor(op), { seed: SEED + index * 7 + c, numRuns: perOperation });
        for (const call of calls) {
          let res;
          try {
            res = await send(port, caller.as(call), { successes: true });
          } catch (error) {
            if ((error as { code?: string }).code === 'ERR_INVALID_CHAR') continue;
            failures.set(`no answer ${op.method} ${op.path}`, `${caller.name}: ${(error as Error).message} ← ${describeCall(call)}`);
            continue;
          }
          sent++;
          const klass = `${Math.floor(res.status / 100)}xx`;
          statuses.set(klass, (statuses.get(klass) ?? 0) + 1);
          const wrong = wrongAnswer(res);
          if (wrong) failures.set(`${res.status} ${op.method} ${op.path}`, `${caller.name}: ${wrong} ← ${describeCall(call)}`);
          if (caller.own && res.body.includes(caller.own)) ownSeen++;
          const leaked = caller.mustNotSee.find((secret) => res.body.includes(secret));
          if (leaked) failures.set(`leak ${op.method} ${op.path}`, `${caller.name} was shown ${leaked} ← ${describeCall(call)}`);
        }
      }
      if (index % 20 === 19) console.log(`  ${sent.toLocaleString('en')} calls, ${failures.size} failures`);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const counts = [...statuses]
      .sort()
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    const leaks = [...failures.keys()].filter((k) => k.startsWith('leak')).length;
    const fives = [...failures.keys()].filter((k) => k.startsWith('5')).length;
    console.log(
      `fuzz: ${sent} calls in ${seconds} s (${counts}); operations with a 5xx: ${fives}; leaks: ${leaks}; other failures: ${failures.size - fives - leaks}; ` +
        `answers showing a person their own secret (so answers are read): ${ownSeen}`,
    );
    for (const [key, message] of failures) console.log(`  ✗ ${key}: ${message.slice(0, 500)}`);
    if (failures.size || sent < CALLS) exitCode = 1;
  } finally {
    await app.close();
  }
  process.exit(exitCode);
}

await main();
