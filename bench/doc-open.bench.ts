import { createServer } from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { serverProcess } from '../apps/server/src/testing/server-process.ts';
import { freePort } from '../apps/server/src/testing/test-app.ts';
import { launchChromium, signInThroughPages } from './browser.ts';
import { report } from './report.ts';
import { benchDatabase } from './setup.ts';

const PARAGRAPHS = 5000;
const RUNS = 5;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LAST = `Paragraph ${PARAGRAPHS} of the long document.`;

/** The time from navigating to `url` until each of `locators` is on the page, in turn. */
async function timeToShow(page: Page, url: string, ...locators: Array<() => ReturnType<Page['getByText']>>): Promise<number[]> {
  const start = performance.now();
  await page.goto(url);
  const times: number[] = [];
  for (const locator of locators) {
    await locator().waitFor({ state: 'attached', timeout: 120_000 });
    times.push(performance.now() - start);
  }
  return times;
}

/** When, in ms from navigation, the page reached each stage of opening the document: the answers it waited for, and its marks. */
const stagesOf = (page: Page) =>
  // No named functions inside: the page runs this as it is, without the helpers tsx adds to them.
  page.evaluate(() => {
    const at: Record<string, number> = {};
    // Resource timings (responseEnd); the bench's own types are Node's, which lack them.
    for (const r of performance.getEntriesByType('resource') as unknown as { name: string; responseEnd: number }[]) {
      if (/\/document-(?!editor-)[\w-]+\.js$/.test(r.name)) at['page code loaded'] ??= r.responseEnd;
      if (/\/document-editor-[\w-]+\.js$/.test(r.name)) at['editor code loaded'] ??= r.responseEnd;
      if (/\/api\/v1\/me$/.test(r.name)) at['person fetched'] ??= r.responseEnd;
      if (/\/api\/v1\/workspaces$/.test(r.name)) at['workspaces fetched'] ??= r.responseEnd;
      if (/\/api\/v1\/items\/[^/?]+$/.test(r.name)) at['item fetched'] ??= r.responseEnd;
    }
    for (const mark of performance.getEntriesByType('mark')) {
      if (mark.name === 'cabinet:document-snapshot') at['snapshot shown'] ??= mark.startTime;
      if (mark.name === 'cabinet:document-state') at['state arriving'] ??= mark.startTime;
      if (mark.name === 'cabinet:document-applied') at['state applied'] ??= mark.startTime;
      if (mark.name === 'cabinet:document-rendered') at['editor rendered'] ??= mark.startTime;
    }
    return at;
  });

/**
 * doc-open: the time from navigating to a 5,000-paragraph document this browser has opened before
 * until its last paragraph is shown (the snapshot this browser kept, ADR 0052), and until it is in
 * the editor (the document loaded from this browser's copy and over /collab), each against the time
 * a browser takes to show the same document as a plain HTML page (its own export, served bare); the
 * same for a document this browser has never opened; and the median time each stage of the opening
 * was reached (ADR 0047).
 */
export default async function docOpen() {
  // Built every time: a build left from before a change would be measured in its place.
  execFileSync('npm', ['run', 'build', '-w', '@cabinet/web'], { cwd: root, stdio: 'inherit' });
  // On PostgreSQL when DATABASE_URL is set (a database of its own there), else on PGlite.
  const own = process.env.DATABASE_URL ? await benchDatabase(process.env.DATABASE_URL) : undefined;
  const server = await serverProcess(own ? { DATABASE_URL: own.url } : {});
  const browser = await launchChromium();
  try {
    const email = 'doc-open@example.com';
    const token = server.person(email, 'Doc Open');
    await server.start();
    const workspace = (await server.as(token).raw('GET', '/workspaces')).body.items[0];
    const markdown = Array.from({ length: PARAGRAPHS }, (_, i) => `Paragraph ${i + 1} of the long document.`).join('\n\n');
    const imported = await fetch(`${server.url}/api/v1/workspaces/${workspace.id}/documents/import?parentId=${workspace.homeId}&fileName=long.md`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/markdown' },
      body: markdown,
    }).then((r) => r.json() as Promise<{ id: string }>);
    const html = await fetch(`${server.url}/api/v1/items/${imported.id}/export?format=html`, { headers: { authorization: `Bearer ${token}` } }).then((r) =>
      r.text(),
    );
    const bare = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
    const barePort = await freePort();
    await new Promise<void>((resolve) => bare.listen(barePort, '127.0.0.1', resolve));

    const context = await browser.newContext();
    const page = await context.newPage();
    await signInThroughPages(page, server.url, email);
    const documentUrl = `${server.url}/w/${workspace.slug}/d/${imported.id}`;
    const shown = () => page.getByText(LAST);
    const inEditor = () => page.getByLabel('Content of long').getByText(LAST);
    // Once, so the app's code is cached as it would be for someone who has used Cabinet before, and
    // the document's snapshot kept (a moment after it opened).
    await timeToShow(page, documentUrl, inEditor);
    await page.waitForFunction(() => performance.getEntriesByName('cabinet:document-kept').length > 0, null, { timeout: 60_000 });

    const values: number[] = [];
    const editable: number[] = [];
    const baselines: number[] = [];
    const stages: Record<string, number[]> = {};
    for (let run = 0; run < RUNS; run++) {
      baselines.push(...(await timeToShow(page, `http://127.0.0.1:${barePort}/`, () => page.getByText(LAST))));
      const [shownAt, editableAt] = await timeToShow(page, documentUrl, shown, inEditor);
      values.push(shownAt!);
      editable.push(editableAt!);
      for (const [stage, at] of Object.entries(await stagesOf(page))) (stages[stage] ??= []).push(at);
    }
    // Never opened in this browser: no copy and no snapshot (the copy is let go before each opening).
    const firstTimes: number[] = [];
    const firstBaselines: number[] = [];
    const copyName = `cabinet:${(await server.as(token).raw('GET', '/me')).body.user.id}:${imported.id}`;
    for (let run = 0; run < RUNS; run++) {
      firstBaselines.push(...(await timeToShow(page, `http://127.0.0.1:${barePort}/`, () => page.getByText(LAST))));
      await page.goto(`${server.url}/favicon.svg`);
      // The page's globals are not in the bench's types (Node's).
      await page.evaluate(
        (name) =>
          new Promise(
            (resolve) =>
              ((globalThis as unknown as { indexedDB: { deleteDatabase(n: string): { onsuccess: unknown } } }).indexedDB.deleteDatabase(name).onsuccess =
                resolve),
          ),
        copyName,
      );
      firstTimes.push(...(await timeToShow(page, documentUrl, inEditor)));
    }
    report(`doc-open ${PARAGRAPHS} paragraphs`, 'ms', values, baselines);
    report(`doc-open ${PARAGRAPHS} paragraphs in the editor`, 'ms', editable, baselines);
    report(`doc-open ${PARAGRAPHS} paragraphs never opened here`, 'ms', firstTimes, firstBaselines);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    for (const [stage, at] of Object.entries(stages).sort((a, b) => median(a[1]) - median(b[1])))
      console.log(`  stage ${stage.padEnd(20)} at ${median(at).toFixed(0)}ms from navigation (median of ${at.length})`);
    bare.close();
  } finally {
    await browser.close();
    await server.dispose();
    await own?.drop();
  }
}
