import { meApi, workspacesApi } from '@cabinet/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAppBehindProxy, type AppBehindProxy } from '../../testing/app-behind-proxy.ts';
import { signUp } from '../../testing/browser.ts';
import type { TestApp } from '../../testing/test-app.ts';

// Cabinet talks to PostgreSQL only through the proxy, so cutting it is the database going away.
let behind: AppBehindProxy;
let proxy: AppBehindProxy['proxy'];
let t: TestApp;

beforeAll(async () => {
  behind = await startAppBehindProxy();
  ({ proxy, t } = behind);
});
afterAll(() => behind.close());

it('answers database_unavailable while PostgreSQL is unreachable, and recovers when it returns', async () => {
  const { browser } = await signUp(t.url);
  expect((await browser.call(meApi.get)).status).toBe(200);

  await proxy.down();
  const during = await browser.call(workspacesApi.list);
  expect(during.status).toBe(503);
  expect(during.error?.code).toBe('database_unavailable');
  expect(JSON.stringify(during.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
  const ready = await fetch(`${t.url}/readyz`);
  expect(ready.status).toBe(503);
  expect(((await ready.json()) as { checks: { database: string } }).checks.database).toBe('unavailable');

  await proxy.up();
  expect((await browser.call(workspacesApi.list)).status).toBe(200);
  expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
});
