import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { serverProcess } from '../apps/server/src/testing/server-process.ts';
import { freePort } from '../apps/server/src/testing/test-app.ts';
import { launchChromium, signInThroughPages } from './browser.ts';
import { report } from './report.ts';

const PARAGRAPHS = 5000;
const RUNS = 5;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LAST = `Paragraph ${PARAGRAPHS} of the long document.`;

async function timeToShow(page: Page, url: string, locator: () => ReturnType<Page['getByText']>): Promise<number> {
  const start = performance.now();
  await page.goto(url);
  await locator().waitFor({ state: 'attached', timeout: 120_000 });
  return performance.now() - start;
}

/**
 * doc-open: the time from navigating to a 5,000-paragraph document until its last paragraph is in
 * the editor (Chromium, the built app, loading the document over /collab), against the time a
 * browser takes to show the same document as a plain HTML page (its own export, served bare).
 */
export default async function docOpen() {
  if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) execFileSync('npm', ['run', 'build', '-w', '@cabinet/web'], { cwd: root, stdio: 'inherit' });
  const server = await serverProcess();
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
    // Once, so the app's code is cached as it would be for someone who has used Cabinet before.
    await timeToShow(page, documentUrl, () => page.getByLabel('Content of long').getByText(LAST));

    const values: number[] = [];
    const baselines: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      baselines.push(await timeToShow(page, `http://127.0.0.1:${barePort}/`, () => page.getByText(LAST)));
      values.push(await timeToShow(page, documentUrl, () => page.getByLabel('Content of long').getByText(LAST)));
    }
    report(`doc-open ${PARAGRAPHS} paragraphs`, 'ms', values, baselines);
    bare.close();
  } finally {
    await browser.close();
    await server.dispose();
  }
}
