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
  await page.keyboard.type(line);
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
