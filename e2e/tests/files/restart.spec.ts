import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Route } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';

/**
 * An upload survives the server going away: this file runs a Cabinet of its own, kills it with
 * SIGKILL while parts are on their way, starts it again on the same data, and the browser's
 * upload carries on by itself to the right bytes.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const port = Number(process.env.E2E_PORT ?? 8787) + 7;
const baseURL = `http://localhost:${port}`;
const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let dataDir: string;
let server: ChildProcess | undefined;

async function startServer(): Promise<void> {
  server = spawn(process.execPath, ['apps/server/bin/cabinet.mjs', 'serve'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      STORAGE_DRIVER: 'local',
      LOG_LEVEL: 'warn',
      UPLOAD_PART_SIZE: '5MiB',
      IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '1000',
    },
  });
  // A fresh data folder's first start makes the embedded database and runs every migration: beside the other tests on
  // a slow day that took over a minute (the first start of a session's last CI run failed so).
  for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
    const ready = await fetch(`${baseURL}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('Cabinet did not start');
}

async function killServer(): Promise<void> {
  const running = server;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((r) => running.once('exit', r));
  running.kill('SIGKILL');
  await exited;
}

test.use({ baseURL });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-e2e-restart-'));
  await startServer();
});

test.afterAll(async () => {
  await killServer();
  rmSync(dataDir, { recursive: true, force: true });
});

test('an upload carries on by itself after the server is killed and started again', async ({ page }) => {
  test.setTimeout(300_000);
  await signUp(page);
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();

  // Two parts go through; the others wait at the door until the server is gone.
  const held: Route[] = [];
  let passed = 0;
  await page.route('**/storage/parts/**', async (route) => {
    if (passed < 2) {
      passed++;
      await route.continue();
    } else held.push(route);
  });

  const bytes = randomBytes(23 * MiB + 5);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-e2e-files-'));
  writeFileSync(path.join(dir, 'survivor.bin'), bytes);
  await page.getByLabel('Files to upload').setInputFiles(path.join(dir, 'survivor.bin'));
  await expect.poll(() => held.length).toBeGreaterThan(0);

  await killServer();
  // The parts sent while the server is away fail; the uploader waits and tries again.
  await page.unroute('**/storage/parts/**');
  for (const route of held) await route.continue().catch(() => {});
  await page.waitForTimeout(1500);
  await expect(page.getByRole('region', { name: 'Uploads' }).getByText('Uploads complete')).toBeHidden();
  await startServer();

  const uploads = page.getByRole('region', { name: 'Uploads' });
  await expect(uploads.getByText('Uploads complete')).toBeVisible({ timeout: 90_000 });
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('link', { name: 'survivor.bin' })).toBeVisible();

  await page.getByRole('button', { name: 'Actions for survivor.bin' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download' }).click()]);
  expect(sha(readFileSync((await download.path())!))).toBe(sha(bytes));
  rmSync(dir, { recursive: true, force: true });
});
