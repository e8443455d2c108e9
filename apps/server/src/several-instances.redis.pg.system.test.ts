import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { grantsApi, itemsApi, uploadsApi, urlOf, workspacesApi, notificationsApi, type TWorkspace } from '@cabinet/contracts';
import { documentText } from '@cabinet/doc-schema/server';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './db/client.ts';
import { addParagraph, collabClients, until } from './testing/collab-client.ts';
import { watch } from './testing/event-watch.ts';
import { sha256Hex, type Person } from './testing/given.ts';
import { callingRoutes, withToken } from './testing/route-call.ts';
import { cabinet } from './testing/cabinet-command.ts';
import { serverProcess, untilReady } from './testing/server-process.ts';
import { TcpProxy } from './testing/tcp-proxy.ts';
import { createTestDatabase, type TestDatabase } from './testing/test-database.ts';
import { storageSettings, testS3Settings } from './testing/test-s3.ts';
import { freePort } from './testing/test-app.ts';

/*
 * Two `cabinet serve` processes on one PostgreSQL and one Redis, behind a load balancer on loopback (issue 24, part 6):
 * Debian's haproxy when it is installed (.ci/run installs it), else a relay in this file that takes turns. Each process
 * reaches PostgreSQL and Redis through a relay of its own that can be cut, to stage either one restarting.
 */

type Instance = Awaited<ReturnType<typeof serverProcess>>;

let db: TestDatabase;
let direct: Database;
let pgRelay: TcpProxy;
let redisRelay: TcpProxy;
let front: { url: string; stop(): Promise<void> };
let a: Instance;
let b: Instance;
let ada: { token: string; ws: TWorkspace };
let bea: { token: string; email: string };
const outboxes: string[] = [];
const dirs: string[] = [];

const as = (url: string, token: string) => callingRoutes(withToken(url, token));

beforeAll(async () => {
  db = await createTestDatabase();
  await db.database.close();
  const url = new URL(db.url!);
  pgRelay = new TcpProxy(url.hostname, Number(url.port || 5432), await freePort());
  await pgRelay.up();
  url.host = `127.0.0.1:${pgRelay.port}`;
  const redis = new URL(process.env.TEST_REDIS_URL!);
  redisRelay = new TcpProxy(redis.hostname, Number(redis.port || 6379), await freePort());
  await redisRelay.up();
  redis.host = `127.0.0.1:${redisRelay.port}`;
  direct = await openDatabase({ databaseUrl: db.url!, dataDir: '' });

  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  // Several instances share their bytes: a bucket when the test S3 server runs, else one folder (as a shared disk would).
  const s3 = testS3Settings();
  const shared = s3 ? undefined : mkdtempSync(path.join(os.tmpdir(), 'cabinet-instances-'));
  const settings = {
    DATABASE_URL: url.href,
    REDIS_URL: redis.href,
    REDIS_PREFIX: `instances-${randomBytes(4).toString('hex')}`,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: publicUrl,
    NOTIFICATION_MAIL_DELAY_MINUTES: '0',
    // Told to stop, an instance drains until haproxy, checking every 400 ms, has seen three checks fail (ADR 0078).
    DRAIN_SECONDS: '3',
    ...(s3 ? await storageSettings(s3, port) : {}),
  };
  const dataDir = () => {
    const dir = shared ?? mkdtempSync(path.join(os.tmpdir(), 'cabinet-instance-'));
    if (!dirs.includes(dir)) dirs.push(dir);
    return dir;
  };
  a = await serverProcess({ ...settings, DATA_DIR: dataDir() });
  b = await serverProcess({ ...settings, DATA_DIR: dataDir() });
  outboxes.push(...dirs.map((d) => path.join(d, 'outbox')));
  await a.start();
  await b.start();
  front = await loadBalancer(port, [a.url, b.url]);
  // The command in a process of its own, as an operator runs it (serverProcess's `cli` waits on it: the relays in this
  // process would not forward its connections meanwhile).
  const person = async (email: string, name: string) => {
    const env = { ...settings, DATA_DIR: dirs[0]! };
    const made = await cabinet(['user', 'create', '--email', email, '--name', name, '--password', 'several-instances-1'], env);
    if (made.code !== 0) throw new Error(made.stderr);
    const token = await cabinet(['token', 'create', '--email', email, '--name', 'tests'], env);
    if (token.code !== 0) throw new Error(token.stderr);
    return token.stdout.trim();
  };
  ada = { token: await person('ada@example.com', 'Ada'), ws: undefined as never };
  ada.ws = (await as(front.url, ada.token).call(workspacesApi.list)).body.items[0]!;
  bea = { token: await person('bea@example.com', 'Bea'), email: 'bea@example.com' };
}, 240_000);

afterAll(async () => {
  await front?.stop();
  await a?.dispose();
  await b?.dispose();
  await direct?.close();
  await pgRelay?.down();
  await redisRelay?.down();
  await db?.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('two instances behind a load balancer', () => {
  it('tells a watcher on one instance what is done through the other, and a person notified on either', async () => {
    const adaPerson = { token: ada.token } as Person;
    const onB = await watch(b.url, adaPerson, ada.ws.id);
    await onB.ready();
    const notices = await streamOf(`${a.url}${urlOf(notificationsApi.events)}`, bea.token);
    try {
      const made = await as(a.url, ada.token).call(itemsApi.create, {
        params: { ws: ada.ws.id },
        body: { kind: 'folder', name: 'Made on A', parentId: ada.ws.rootId },
      });
      expect(made.status).toBe(201);
      await onB.until((e) => e.itemId === made.body.id);
      // Shared through B, Bea hears of it on a stream A serves.
      const shared = await as(b.url, ada.token).call(grantsApi.create, {
        params: { id: made.body.id },
        body: { principal: { type: 'user', email: bea.email }, role: 'viewer' },
      });
      expect(shared.status).toBe(201);
      await notices.until((text) => text.includes('event: notifications'));
      const listed = await as(a.url, bea.token).call(notificationsApi.list, { query: {} });
      expect(listed.body.items.map((n) => n.item?.name)).toContain('Made on A');
    } finally {
      await onB.close();
      notices.close();
    }
  });

  it('makes one document of edits typed on both instances', async () => {
    const doc = await as(front.url, ada.token).call(itemsApi.create, {
      params: { ws: ada.ws.id },
      body: { kind: 'document', name: 'Together', parentId: ada.ws.rootId },
    });
    await editorsMeet(doc.body.id, ['From A', 'From B']);
  });

  it('completes through one instance an upload started through the other', async () => {
    const bytes = randomBytes(6 * 1024 * 1024 + 123);
    const start = await as(a.url, ada.token).call(uploadsApi.start, {
      params: { ws: ada.ws.id },
      body: { parentId: ada.ws.rootId, name: 'across.bin', size: bytes.length, sha256: sha256Hex(bytes) },
    });
    expect(start.status).toBe(201);
    const signed = await as(b.url, ada.token).call(uploadsApi.signParts, {
      params: { id: start.body.id },
      body: { partNumbers: Array.from({ length: start.body.partCount }, (_, i) => i + 1) },
    });
    for (const part of signed.body.parts) {
      const res = await fetch(part.url, {
        method: 'PUT',
        body: bytes.subarray((part.partNumber - 1) * start.body.partSize, part.partNumber * start.body.partSize),
      });
      expect(res.ok).toBe(true);
    }
    const done = await as(b.url, ada.token).call(uploadsApi.complete, { params: { id: start.body.id }, body: {} });
    expect(done.status).toBe(200);
    const res = await fetch(`${a.url}/api/v1/items/${done.body.item.id}/content`, { headers: { authorization: `Bearer ${ada.token}` } });
    expect(res.status).toBe(200);
    expect(sha256Hex(new Uint8Array(await res.arrayBuffer()))).toBe(sha256Hex(bytes));
  });

  it('runs each background job once, whichever instance takes it', async () => {
    // Bea has unread notifications (the share above); the mailing job is made due again and again while both poll.
    for (let i = 0; i < 10; i++) {
      await sql`UPDATE jobs SET run_at = now() WHERE kind = 'notifications.mail'`.execute(direct.db);
      await new Promise((r) => setTimeout(r, 500));
    }
    await expect.poll(() => mailsTo(bea.email), { timeout: 30_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 3000));
    expect(mailsTo(bea.email)).toBe(1);
  });

  it('loses no acknowledged request while each instance restarts in turn', async () => {
    const made: string[] = [];
    const failures: string[] = [];
    let running = true;
    const writer = async (n: number) => {
      for (let i = 0; running; i++) {
        const res = await as(front.url, ada.token)
          .call(itemsApi.create, { params: { ws: ada.ws.id }, body: { kind: 'folder', name: `rolling ${n}-${i}`, parentId: ada.ws.rootId } })
          // A request cut off says why (undici's cause: the socket closed by whom, and when), so that a failure here can be told apart.
          .catch((error: unknown) => ({ status: 0, body: undefined, error: { code: `${String(error)} (${String((error as { cause?: unknown }).cause)})` } }));
        if (res.status === 201 && res.body) made.push((res.body as { id: string }).id);
        else failures.push(`${res.status} ${JSON.stringify(res.error)}`);
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    for (const instance of [a, b]) {
      await new Promise((r) => setTimeout(r, 1500));
      await instance.stop();
      await new Promise((r) => setTimeout(r, 1000));
      await instance.start();
    }
    await new Promise((r) => setTimeout(r, 1500));
    running = false;
    await Promise.all(writers);
    expect(made.length).toBeGreaterThan(20);
    const stored = await direct.db.selectFrom('items').select('id').where('id', 'in', made).execute();
    expect(stored.length).toBe(made.length);
    // Nothing but the balancer saying, for a moment, that no instance answered its checks (a machine busy with other
    // tests makes /readyz slow): no error from Cabinet, no request cut off.
    expect(failures.filter((f) => !f.startsWith('503 "Service Unavailable"'))).toEqual([]);
    expect(failures.length).toBeLessThan(made.length / 20);
  });

  it('answers database_unavailable while PostgreSQL restarts and Redis is away, then goes on without a restart of its own', async () => {
    const adaPerson = { token: ada.token } as Person;
    await pgRelay.down();
    await redisRelay.down();
    try {
      for (const instance of [a, b]) {
        const during = await as(instance.url, ada.token).call(workspacesApi.list);
        expect(during.status).toBe(503);
        expect(during.error?.code).toBe('database_unavailable');
      }
    } finally {
      await pgRelay.up();
      await redisRelay.up();
    }
    for (const instance of [a, b])
      await expect.poll(async () => (await as(instance.url, ada.token).call(workspacesApi.list)).status, { timeout: 20_000 }).toBe(200);
    // The live stream across instances, and co-editing through Redis, work again.
    await expect.poll(async () => (await fetch(`${b.url}/readyz`)).status, { timeout: 20_000 }).toBe(200);
    const onB = await watch(b.url, adaPerson, ada.ws.id);
    try {
      // The stream opens with what changed in the last minute and `ready`, or, after the hundreds of changes above, a reset.
      await expect.poll(() => onB.order.some((m) => m === 'ready' || m === 'reset'), { timeout: 20_000 }).toBe(true);
      // Until B listens again, what it misses it says with a reset (a page then reads again); then each change comes live.
      const made: string[] = [];
      await expect
        .poll(
          async () => {
            const folder = await as(a.url, ada.token).call(itemsApi.create, {
              params: { ws: ada.ws.id },
              body: { kind: 'folder', name: `After the outage ${made.length}`, parentId: ada.ws.rootId },
            });
            expect(folder.status).toBe(201);
            made.push(folder.body.id);
            await new Promise((r) => setTimeout(r, 500));
            return onB.events.some((e) => made.includes(e.itemId));
          },
          { timeout: 30_000, interval: 500 },
        )
        .toBe(true);
    } finally {
      await onB.close();
    }
    const doc = await as(a.url, ada.token).call(itemsApi.create, {
      params: { ws: ada.ws.id },
      body: { kind: 'document', name: 'After Redis', parentId: ada.ws.rootId },
    });
    await editorsMeet(doc.body.id, ['Typed on A after Redis came back', 'Typed on B after Redis came back']);
  });
});

/** An editor of `documentId` on each instance, each typing its line: both end with the same document, holding both. */
async function editorsMeet(documentId: string, lines: [onA: string, onB: string]): Promise<void> {
  const [clientsA, clientsB] = [collabClients(a.url), collabClients(b.url)];
  try {
    const onA = clientsA.connect(documentId, ada.token);
    const onB = clientsB.connect(documentId, ada.token);
    await until(() => onA.outcome.synced && onB.outcome.synced, 'both editors to sync', 20_000);
    addParagraph(onA.document, lines[0]);
    addParagraph(onB.document, lines[1]);
    const both = (d: typeof onA.document) => documentText(d).includes(lines[0]) && documentText(d).includes(lines[1]);
    await until(() => both(onA.document) && both(onB.document), 'the edits to meet across the instances', 20_000);
    expect(documentText(onA.document)).toBe(documentText(onB.document));
  } finally {
    clientsA.destroyAll();
    clientsB.destroyAll();
  }
}

/** Mails in the instances' outboxes to `email`. */
function mailsTo(email: string): number {
  let n = 0;
  for (const dir of new Set(outboxes)) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    } catch {
      continue;
    }
    for (const f of files) if ((JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { to?: string }).to === email) n++;
  }
  return n;
}

/** A Server-Sent Events stream's text as it comes. */
async function streamOf(url: string, token: string) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  expect(res.status).toBe(200);
  let text = '';
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += value;
    }
  })();
  return {
    async until(found: (text: string) => boolean, timeoutMs = 15_000) {
      const started = Date.now();
      while (!found(text)) {
        if (Date.now() - started > timeoutMs) throw new Error(`not heard; heard ${text}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => controller.abort(),
  };
}

/**
 * A load balancer on `port` in front of `backends`: haproxy (checking /readyz every 400 ms, out after three failures, a request whose connection
 * was refused sent to the other), else the tests' relay taking turns between them (testing/tcp-proxy.ts).
 */
async function loadBalancer(port: number, backends: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const url = `http://127.0.0.1:${port}`;
  const ready = () => untilReady(url, 30_000, 'the load balancer did not start');
  if (spawnSync('haproxy', ['-v']).status === 0) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-haproxy-'));
    const servers = backends.map((b, i) => `  server s${i} ${new URL(b).host} check`).join('\n');
    writeFileSync(
      path.join(dir, 'haproxy.cfg'),
      `defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  option redispatch
  retries 3
  retry-on conn-failure
  option http-server-close
frontend web
  bind 127.0.0.1:${port}
  default_backend cabinet
backend cabinet
  balance roundrobin
  option httpchk GET /readyz
  timeout check 5s
  default-server inter 400ms fall 3 rise 2
${servers}
`,
    );
    const child: ChildProcess = spawn('haproxy', ['-db', '-f', path.join(dir, 'haproxy.cfg')], { stdio: 'ignore' });
    await ready();
    return {
      url,
      async stop() {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const [first, ...rest] = backends.map((b) => new URL(b));
  const relay = new TcpProxy(
    first!.hostname,
    Number(first!.port),
    port,
    rest.map((u) => ({ host: u.hostname, port: Number(u.port) })),
  );
  await relay.up();
  await ready();
  return { url, stop: () => relay.down() };
}
