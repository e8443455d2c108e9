import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { signUp } from '../../testing/browser.ts';
import { TcpProxy } from '../../testing/tcp-proxy.ts';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { freePort, startTestApp, type TestApp } from '../../testing/test-app.ts';

let proxy: TcpProxy;
let direct: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  direct = await createTestDatabase();
  const url = new URL(direct.url!);
  proxy = new TcpProxy(url.hostname, Number(url.port || 5432), await freePort());
  await proxy.up();
  url.host = `127.0.0.1:${proxy.port}`;
  // Cabinet talks to PostgreSQL only through the proxy, so cutting it is the database going away.
  const throughProxy = await openDatabase({ databaseUrl: url.href, dataDir: '' });
  t = await startTestApp({}, { db: { database: throughProxy, url: url.href, drop: () => throughProxy.close() } });
});
afterAll(async () => {
  await t.close();
  await t.db.drop();
  await proxy.down();
  await direct.drop();
});

it('answers database_unavailable while PostgreSQL is unreachable, and recovers when it returns', async () => {
  const { browser } = await signUp(t.url);
  expect((await browser.api('GET', '/api/v1/me')).status).toBe(200);

  await proxy.down();
  const during = await browser.api('GET', '/api/v1/workspaces');
  expect(during.status).toBe(503);
  expect(during.body.error.code).toBe('database_unavailable');
  expect(JSON.stringify(during.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
  const ready = await fetch(`${t.url}/readyz`);
  expect(ready.status).toBe(503);
  expect(((await ready.json()) as { checks: { database: string } }).checks.database).toBe('unavailable');

  await proxy.up();
  expect((await browser.api('GET', '/api/v1/workspaces')).status).toBe(200);
  expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
});
