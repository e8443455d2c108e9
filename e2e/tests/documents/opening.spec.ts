import type { Page } from '@playwright/test';
import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

/** How many bytes of updates this browser's copy of the open document holds (IndexedDB, as y-indexeddb keeps it). */
const storedBytes = (page: Page) =>
  page.evaluate(async (documentId) => {
    const name = (await indexedDB.databases()).map((d) => d.name ?? '').find((n) => n.endsWith(`:${documentId}`));
    if (!name) throw new Error('No copy of the document in this browser');
    return new Promise<number>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const all = open.result.transaction('updates').objectStore('updates').getAll();
        all.onerror = () => reject(all.error);
        all.onsuccess = () => {
          open.result.close();
          resolve((all.result as Uint8Array[]).reduce((sum, update) => sum + update.byteLength, 0));
        };
      };
    });
  }, page.url().split('/d/')[1]!);

test('a code block is highlighted in its language, the grammar loaded when the block needs it, after a reload too', async ({ page }) => {
  const editor = await newDocument(page, 'Snippets');
  await page.keyboard.type('```js ');
  await page.keyboard.type('const answer = 42;');
  await expect(editor.locator('pre code .hljs-keyword').first()).toHaveText('const');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

  // A fresh page has no grammar loaded: the document's block asks for its own.
  await page.reload();
  await expect(page.getByLabel('Content of Snippets').locator('pre code .hljs-keyword').first()).toHaveText('const');
});

test('opening a document again does not store it again in this browser: the copy keeps what it had, and the edits', async ({ page }) => {
  const editor = await newDocument(page, 'Reopened');
  const line = 'A line long enough that a second copy of the document would show. '.repeat(6);
  // In one input, as a paste would come: typed key by key, the line took 16 s of the test.
  await page.keyboard.insertText(line);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  const first = await storedBytes(page);
  expect(first).toBeGreaterThan(line.length);

  for (let open = 0; open < 3; open++) {
    await page.reload();
    await expect(editor).toContainText(line.trim());
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  }
  // Each opening notes the (empty) state it started from, a few bytes; never the document again.
  expect(await storedBytes(page)).toBeLessThan(first + 100);

  // Edits still reach the copy, and the server.
  const before = await storedBytes(page);
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('And again.');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await expect.poll(() => storedBytes(page)).toBeGreaterThan(before);
  await page.reload();
  await expect(editor).toContainText('And again.');
});

test('a document opened again shows at once what this browser last showed of it, read-only, until the editor holds it; then the editor alone', async ({
  page,
}) => {
  const editor = await newDocument(page, 'Kept');
  // Kept after what was typed: the opening may have kept the document already.
  const kept = async () => {
    const typed = await page.evaluate(() => performance.now());
    await page.waitForFunction((t) => performance.getEntriesByName('cabinet:document-kept').some((e) => e.startTime > t), typed);
  };
  await page.keyboard.type('Words this browser showed last.');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await kept();

  // The editor's code held back: the page shows the document meanwhile, under its name, and nothing to type into.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/document-editor-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.reload();
  await expect(page.getByText('Words this browser showed last.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Kept', level: 1 })).toBeVisible();
  await expect(editor).toHaveCount(0);
  release();
  await expect(editor).toContainText('Words this browser showed last.');
  await expect(page.getByText('Words this browser showed last.')).toHaveCount(1);

  // Typed into at once, and kept again: the next opening shows the new text before the editor.
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' And more.');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await kept();
  const next = new Promise<void>((resolve) => (release = resolve));
  await page.unroute(/\/assets\/document-editor-[\w-]+\.js$/);
  await page.route(/\/assets\/document-editor-[\w-]+\.js$/, async (route) => {
    await next;
    await route.continue();
  });
  // The folder path comes after the snapshot is shown, too: its row was kept for it.
  await page.route(/\/api\/v1\/items\/[\w-]+\/ancestors$/, async (route) => {
    await next;
    await route.continue();
  });
  await page.reload();
  const shown = page.getByText('Words this browser showed last. And more.');
  await expect(shown).toBeVisible();
  await expect(editor).toHaveCount(0);
  // Shown where the editor will show it: room is left for its status row and toolbar, as it took over last time.
  const before = (await shown.boundingBox())!;
  release();
  await expect(editor).toContainText('Words this browser showed last. And more.');
  await expect(page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My files' })).toBeVisible();
  const after = (await editor.getByText('Words this browser showed last. And more.').boundingBox())!;
  expect(Math.abs(after.y - before.y), `the text moved from ${before.y} to ${after.y} px`).toBeLessThanOrEqual(1);
  expect(after.x).toBe(before.x);
});
