import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS } from './fixtures/chromium.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.E2E_PORT ?? 8787);
const baseURL = `http://localhost:${port}`;
// With the test S3 server (TEST_S3_*, as .ci/run sets them), the tests tagged @s3 (uploads in parts, a PDF
// read by ranges) run a second time against an app whose bytes are in a bucket.
const s3 = process.env.TEST_S3_ENDPOINT ? { port: port + 1, url: `http://localhost:${port + 1}` } : undefined;
// A fresh installation every run: its own data folder and embedded database.
// Debian's headless shell when it is installed (as .ci/run installs it): the same engine without the
// full browser's windowing, so the tests' browsers leave the app more of a small machine's time.
const chromium = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p));
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'cabinet-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: './tests',
  outputDir: path.join(root, 'test-results'),
  fullyParallel: false,
  // Three browsers on two cores: a test waits on the app, a socket or a timer a sixth of its time, and a third worker
  // fills it (the browser tests alone, 111 of them: 363 s with two workers, 314 s with three, 321 s with four).
  workers: 3,
  retries: process.env.CI ? 1 : 0,
  // Generous waits: these machines are shared and a page may wait seconds for a core. Nothing here
  // measures speed (the benchmarks do); a wait only fails when what it waits for never comes.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // The list as it goes, and every test's time in a file (test-results/playwright.json) to see where a run's time went.
  reporter: [['list'], ['json', { outputFile: path.join(root, 'test-results', 'playwright.json') }]],
  use: {
    baseURL,
    // Recorded when a failed test runs again, not for every test (it costs each page's time).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    // As someone who asked for less motion: no transitions to draw (ADR 0054).
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: chromium,
      // Without V8's optimising compilers (Maglev, TurboFan) in the pages: a test's page lives seconds, too short for
      // them to pay back what they spend compiling in the background (the renderers' CPU, most of a run's Chromium:
      // ~16 % less, measured on 19 tests). JavaScript means the same either way; the benchmarks keep them (bench/browser.ts).
      // The compositor's GPU work and the network service in the browser's own process rather than two more: on this kind
      // of machine a switch between processes costs dearly, and fewer of them cut the browser's CPU ~4 % (19 tests, twice).
      args: [...CHROMIUM_ARGS, '--js-flags=--max-opt=1', '--in-process-gpu', '--enable-features=NetworkServiceInProcess2'],
    },
  },
  // The @s3 project first: Playwright hands out test files in the projects' order, and its three tests, last, ran alone
  // at the end while the other worker had finished (~30 s of one idle core).
  projects: [
    ...(s3
      ? [
          {
            name: 'chromium-s3',
            // The tests tagged @s3: the bytes' ways that differ when they are in a bucket (parts sent to it, a PDF read
            // from it by ranges); the rest of what a browser does is the same whatever holds the bytes.
            grep: /@s3/,
            use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: s3.url },
          },
        ]
      : []),
    { name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } },
  ],
  webServer: [
    {
      // As `npm start` starts it, once the browser app is built (npm run test:e2e builds it first).
      command: 'node apps/server/bin/cabinet.mjs serve',
      cwd: root,
      url: `${baseURL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        PUBLIC_URL: baseURL,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
        IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '1000',
        // Small parts, so a test file of a few MB is uploaded in several.
        UPLOAD_PART_SIZE: '5MiB',
      },
    },
    ...(s3
      ? [
          {
            command: 'node e2e/fixtures/serve-on-s3.mjs',
            cwd: root,
            url: `${s3.url}/readyz`,
            timeout: 120_000,
            reuseExistingServer: false,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
            env: {
              PORT: String(s3.port),
              PUBLIC_URL: s3.url,
              DATA_DIR: `${dataDir}-s3`,
              DATABASE_URL: '',
              LOG_LEVEL: 'warn',
              IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '1000',
              UPLOAD_PART_SIZE: '5MiB',
            },
          },
        ]
      : []),
  ],
});
