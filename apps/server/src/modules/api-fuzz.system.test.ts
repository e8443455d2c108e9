import {
  commentsApi,
  configApi,
  CSRF_COOKIE,
  CSRF_HEADER,
  ERROR_STATUS,
  grantsApi,
  itemsApi,
  meApi,
  tokensApi,
  uploadsApi,
  uuidv7,
  workspacesApi,
  ZErrorEnvelope,
} from '@cabinet/contracts';
import fc from 'fast-check';
import { request } from 'node:http';
import { beforeAll, expect, it } from 'vitest';
import { signUp, type TestBrowser } from '../testing/browser.ts';
import type { Person } from '../testing/given.ts';
import { anonymous, callingRoutes } from '../testing/route-call.ts';
import { useTestApp } from '../testing/test-app.ts';

/**
 * Every operation of the OpenAPI document, called many times with hostile values — NUL, control
 * characters, lone surrogates, huge strings, wrong types, odd path segments, broken cursors and
 * JSON — as a signed-in person (API token, and browser session with CSRF). Nothing may answer
 * 5xx, and every failure is the error envelope of PRODUCT.md §8. The seed is fixed: a failure
 * found here is found again on the next run.
 */
const SEED = 20_261_123;
const RUNS_PER_OPERATION = 30;

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: JsonSchema;
}
interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const hostileStrings = [
  '\u0000',
  'a\u0000b',
  '\u0001\u0008\u001b\u007f',
  'name\u0085\u009f',
  '\ud800',
  'x\udfff',
  '\u202e\ufeff\uffff',
  '.',
  '..',
  '../../etc/passwd',
  '/',
  '%00',
  ' padded ',
  '',
  'x'.repeat(70_000),
  '🚀'.repeat(300),
  'Robert"); DROP TABLE items;--',
  '{"$gt":""}',
];
const hostileNumbers = [-1, 0, -(2 ** 63), 2 ** 63, Number.MAX_SAFE_INTEGER + 2, 1e308, 0.5, -0.0];
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...hostileStrings),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...hostileNumbers),
  fc.constantFrom(null, true, false, [], {}, [[[[[]]]]], { nested: { deeper: ['\u0000'] } }),
);
/** Text with one character no field may hold: NUL most often (the database refuses it), another control character, a lone surrogate. */
const taintedText = fc
  .tuple(
    fc.string({ maxLength: 8 }),
    fc.oneof(
      { weight: 3, arbitrary: fc.constant('\u0000') },
      { weight: 2, arbitrary: fc.constantFrom('\u0001', '\u001f', '\u007f', '\u0085', '\u009f', '\ud800', '\udfff') },
    ),
    fc.string({ maxLength: 8 }),
  )
  .map(([a, c, b]) => a + c + b);
const hostileText = fc.oneof(
  { weight: 3, arbitrary: taintedText },
  { weight: 1, arbitrary: fc.constantFrom(...hostileStrings) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);
/** Cursors that decode to a position of the wrong shape, with wrong types, or no position at all. */
const base64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const hostileCursor = fc.oneof(
  fc
    .record(
      {
        f: fc.oneof(fc.boolean(), hostile),
        k: fc.oneof(fc.string(), hostile),
        i: fc.oneof(fc.uuid(), hostile),
        at: fc.oneof(
          fc.date().map((d) => d.toString()),
          hostile,
        ),
        id: fc.oneof(fc.uuid(), hostile),
      },
      { requiredKeys: [] },
    )
    .map((o) => base64url(JSON.stringify(o))),
  fc.jsonValue({ maxDepth: 2 }).map((v) => base64url(JSON.stringify(v) ?? '')),
  hostileText.map(base64url),
  hostileText,
  fc.uuid(),
);
const hostileSegments = [
  '%00',
  '..',
  '%2e%2e',
  '.',
  '%2F',
  '%',
  '%zz',
  '%ff%fe',
  '%C0%AE',
  '%ed%a0%80',
  'x'.repeat(5000),
  'null',
  '-1',
  '0',
  'UNDEFINED',
  '019A0000-0000-7000-8000-00000000000Z',
];
const hostileQueryValues = ['%00', '%ff', '%ed%a0%80', '-1', '1e309', 'NaN', '0x10', '99999999999999999999', '%E2%80%AE', 'a'.repeat(5000)];
const malformedBodies = [
  '{',
  '{"a":',
  'null',
  '[]',
  '"text"',
  '1',
  '{"name":"\\ud800"}',
  '{"name":"\\u0000"}',
  '\u0000',
  '\ufeff{}',
  '['.repeat(5000),
  `{"x":"${'y'.repeat(2_000_000)}"}`,
];

/** Percent-encodes any string byte by byte (a lone surrogate goes as the bytes Node gives it, not a URIError). */
const encode = (s: string) =>
  Array.from(Buffer.from(s, 'utf8'), (b) =>
    /[A-Za-z0-9._~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`,
  ).join('');

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
    token: [spareToken],
    ws: [workspace.id, workspace.slug],
    id: [folder, doc, file, trashed, workspace.rootId, workspace.homeId, pending, spareToken, thread.id, uuidv7()],
    commentId: [thread.comments[0]!.id, uuidv7()],
    grantId: [grant, uuidv7()],
    revisionId: [uuidv7()],
    parentId: [folder, workspace.rootId, workspace.homeId, trashed],
    threadId: [thread.id],
  });

  // Its route declares no answer body (it is the description of the others): read as the shape looked at here.
  const doc3 = (await callingRoutes(anonymous(test.app.url)).call(configApi.openApi)).body as {
    paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
  };
  operations = Object.entries(doc3.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      parameters: op.parameters ?? [],
      ...(op.requestBody ? { body: Object.values(op.requestBody.content)[0]!.schema } : {}),
    })),
  );
}, 180_000);

/** A plausible value for a schema: what a well-meaning caller sends. */
function plausible(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  if (schema.anyOf ?? schema.oneOf) return fc.oneof(...(schema.anyOf ?? schema.oneOf)!.map((s) => plausible(s, name)));
  if (schema.allOf?.length) return plausible(Object.assign({}, ...schema.allOf), name);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (name === 'cursor') return hostileCursor;
      if (known[name]) return fc.constantFrom(...known[name]!);
      if (schema.format === 'uuid') return fc.constantFrom(...known.id!);
      if (schema.format === 'date-time')
        return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'email') return fc.constantFrom('someone@example.com', 'ada@tests.example');
      return fc.string({ minLength: schema.minLength ?? 1, maxLength: Math.min(schema.maxLength ?? 20, 20) });
    case 'integer':
    case 'number':
      return fc.integer({ min: Math.max(schema.minimum ?? -10, -1e6), max: Math.min(schema.maximum ?? 1000, 1e6) });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(plausible(schema.items ?? {}, name), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object': {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, value(s, k)])), {
        requiredKeys: Object.keys(props).filter((k) => required.has(k)),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Mostly plausible, sometimes hostile, sometimes with a field missing or an unknown one added. */
function value(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  const base = plausible(schema, name);
  const isObject = schema.type === 'object';
  return fc.oneof(
    { weight: schema.type === 'object' ? 6 : 3, arbitrary: base },
    { weight: 1, arbitrary: hostile },
    ...(schema.type === 'string' ? [{ weight: 3, arbitrary: hostileText }] : []),
    ...(isObject
      ? [
          {
            weight: 1,
            arbitrary: fc.tuple(base, fc.constantFrom('extra', '__proto__', 'constructor'), hostile).map(([o, k, v]) => ({ ...(o as object), [k]: v })),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(base, fc.nat())
              .map(([o, i]) => Object.fromEntries(Object.entries(o as object).filter((_, j) => j !== i % Math.max(1, Object.keys(o as object).length)))),
          },
        ]
      : []),
  );
}

/** Which fixture an `{id}` names on a path, so that most calls reach the code behind the lookup. */
const ID_KINDS: [RegExp, string][] = [
  [/^\/api\/v1\/items\/\{id\}\/(revisions|export|comments)/, 'document'],
  [/^\/api\/v1\/items\/\{id\}\/(content|versions)/, 'file'],
  [/^\/api\/v1\/uploads\/\{id\}/, 'upload'],
  [/^\/api\/v1\/tokens\/\{id\}/, 'token'],
];

const pathSegment = (path: string, p: Parameter) => {
  const kind = p.name === 'id' ? ID_KINDS.find(([pattern]) => pattern.test(path))?.[1] : undefined;
  const fitting = kind ? fc.constantFrom(...known[kind]!) : plausible(p.schema, p.name);
  return fc.oneof(
    { weight: 4, arbitrary: fitting.map((v) => encode(String(v))) },
    { weight: 1, arbitrary: plausible(p.schema, p.name).map((v) => encode(String(v))) },
    { weight: 1, arbitrary: fc.constantFrom(...hostileSegments) },
    { weight: 1, arbitrary: hostileText.map(encode) },
  );
};

const queryPair = (p: Parameter) =>
  fc.oneof(
    { weight: 4, arbitrary: value(p.schema, p.name).map((v) => (v === undefined ? '' : `${p.name}=${encode(typeof v === 'string' ? v : JSON.stringify(v))}`)) },
    { weight: 1, arbitrary: fc.constantFrom(...hostileQueryValues).map((v) => `${p.name}=${v}`) },
    { weight: 1, arbitrary: fc.constant(`${p.name}=1&${p.name}=2`) },
    { weight: 1, arbitrary: fc.constant('') },
  );

function callsFor(op: Operation): fc.Arbitrary<Omit<Call, 'headers'> & { headers: Record<string, string> }> {
  const params = op.parameters;
  const segments = fc.record(Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, pathSegment(op.path, p)])));
  const query = fc.tuple(...params.filter((p) => p.in === 'query').map(queryPair), fc.constantFrom('', '', 'cursor=%00', 'unknown=%ff'));
  const headers = fc.record(
    Object.fromEntries(
      params
        .filter((p) => p.in === 'header')
        .map((p) => [
          p.name,
          fc.oneof(
            fc.constantFrom('"1"', 'W/"2"', '"-1"', '"abc"', '*', '"1e400"'),
            fc.string({ unit: 'binary-ascii', maxLength: 20 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
          ),
        ]),
    ),
    { requiredKeys: [] },
  );
  const body: fc.Arbitrary<{ body?: string; type?: string }> = op.body
    ? fc.oneof(
        { weight: 6, arbitrary: value(op.body).map((v) => ({ body: JSON.stringify(v) ?? 'null', type: 'application/json' })) },
        { weight: 1, arbitrary: fc.constantFrom(...malformedBodies).map((b) => ({ body: b, type: 'application/json' })) },
        { weight: 1, arbitrary: plausible(op.body).map((v) => ({ body: JSON.stringify(v), type: 'text/plain' })) },
        { weight: 1, arbitrary: fc.constant({}) },
      )
    : fc.oneof(
        { weight: 4, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.constantFrom(...malformedBodies).map((b) => ({ body: b, type: 'application/json' })) },
      );
  return fc.tuple(segments, query, headers, body).map(([seg, q, h, b]) => {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => seg[name] as string);
    const search = q.filter(Boolean).join('&');
    return {
      method: op.method,
      path: search ? `${path}?${search}` : path,
      headers: { ...(h as Record<string, string>), ...(b.type ? { 'content-type': b.type } : {}) },
      ...(b.body !== undefined ? { body: b.body } : {}),
    };
  });
}

/** Sends a call with its path exactly as written (fetch would resolve `..` and re-encode), on a connection of its own. */
function send(call: Call): Promise<{ status: number; type: string; body: string; requestId: string }> {
  const headers = call.body === undefined ? call.headers : { ...call.headers, 'content-length': String(Buffer.byteLength(call.body)) };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: test.app.port, method: call.method, path: call.path, headers, agent: false }, (res) => {
      const type = String(res.headers['content-type'] ?? '');
      const requestId = String(res.headers['x-request-id'] ?? '');
      // A success may be a byte stream or live events: only failures are read.
      if ((res.statusCode ?? 0) < 400) {
        res.destroy();
        return resolve({ status: res.statusCode ?? 0, type, body: '', requestId });
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type, body: Buffer.concat(chunks).toString('utf8'), requestId }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(call.body);
  });
}

const asToken = (call: Call): Call => ({ ...call, headers: { ...call.headers, authorization: `Bearer ${token}` } });
const asBrowser = (call: Call): Call => ({
  ...call,
  headers: { ...call.headers, cookie: browser.cookieHeader(), origin: test.app.url, [CSRF_HEADER]: browser.cookies.get(CSRF_COOKIE) ?? '' },
});

/** A call as a failure message shows it: escaped, so NUL and surrogates print. */
const describe = (call: Call) => JSON.stringify([call.method, call.path.slice(0, 200), call.body?.slice(0, 200)]);

/** Reading first, then changing, then deleting, and what signs the caller out last, so the fixtures and the callers last as long as they can. */
const rank = (op: Operation) =>
  /signout|revoke-others|^\/api\/v1\/(sessions|tokens)\/\{id\}$/.test(op.path) && op.method !== 'GET'
    ? 4
    : op.method === 'DELETE' || /\/(trash|empty)\b/.test(op.path)
      ? 3
      : op.method === 'GET'
        ? 1
        : 2;

it('answers hostile input on every operation of the OpenAPI document without a 5xx, always in the error envelope', async () => {
  expect(operations.length).toBeGreaterThan(30);
  // One example per kind of failure on each operation, so a report stays readable.
  const failures = new Map<string, string>();
  const fail = (op: Operation, status: number | string, message: string) =>
    failures.has(`${status} ${op.method} ${op.path}`) || failures.set(`${status} ${op.method} ${op.path}`, message);
  let signedIn = 0;
  const ordered = [...operations].sort((a, b) => rank(a) - rank(b));
  for (const [index, op] of ordered.entries()) {
    const calls = fc.sample(callsFor(op), { seed: SEED + index, numRuns: RUNS_PER_OPERATION });
    for (const [i, call] of calls.entries()) {
      const sent = i % 2 === 0 ? asToken(call) : asBrowser(call);
      let res;
      try {
        res = await send(sent);
      } catch (error) {
        // Node refuses to send some header values; those calls never reach the server.
        if ((error as { code?: string }).code === 'ERR_INVALID_CHAR') continue;
        fail(op, 'no answer', `no answer (${(error as Error).message}) ← ${describe(call)}`);
        continue;
      }
      if (rank(op) < 4 && res.status !== 401) signedIn++;
      const where = describe(call);
      if (res.status >= 500) fail(op, res.status, `${res.status} ← ${where} → ${JSON.stringify(res.body.slice(0, 300))}`);
      else if (res.status >= 400) {
        const parsed = res.type.includes('application/json') ? ZErrorEnvelope.safeParse(JSON.parse(res.body)) : undefined;
        if (!parsed?.success) fail(op, res.status, `${res.status} without the error envelope ← ${where} → ${JSON.stringify(res.body.slice(0, 300))}`);
        else if (ERROR_STATUS[parsed.data.error.code] !== res.status) fail(op, res.status, `${res.status} for ${parsed.data.error.code} ← ${where}`);
        else if (parsed.data.error.requestId !== res.requestId) fail(op, res.status, `${res.status} with another request's id ← ${where}`);
      }
    }
  }
  expect([...failures.values()]).toEqual([]);
  // The calls reached the code behind authentication, not only the sign-in check.
  expect(signedIn).toBeGreaterThan(operations.length * RUNS_PER_OPERATION * 0.5);
}, 240_000);
