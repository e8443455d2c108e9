import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

test('an editor who loses the network keeps typing, and both sides merge when it returns, even after the page was closed', async ({
  page: pageA,
  context: a,
  browser,
  account,
}) => {
  const editorA = await newDocument(pageA, 'Field notes');
  await pageA.keyboard.type('Shared start.');

  // The same person in another browser.
  const b = await browser.newContext({ storageState: account.storageState });
  const pageB = await b.newPage();
  await pageB.goto(pageA.url());
  const editorB = pageB.getByLabel('Content of Field notes');
  await expect(editorB).toContainText('Shared start.');

  await a.setOffline(true);
  await expect(pageA.getByRole('status').filter({ hasText: 'Offline — changes will sync' })).toBeVisible();
  await pageA.keyboard.press('Enter');
  await pageA.keyboard.type('Written on the train.');
  await editorB.click();
  await pageB.keyboard.press('Control+End');
  await pageB.keyboard.press('Enter');
  await pageB.keyboard.type('Written at the office.');
  // Neither sees the other's line while apart.
  await expect(editorB).not.toContainText('Written on the train.');
  await expect(editorA).not.toContainText('Written at the office.');

  await a.setOffline(false);
  for (const editor of [editorA, editorB]) {
    await expect(editor).toContainText('Written on the train.');
    await expect(editor).toContainText('Written at the office.');
  }
  await expect(pageA.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

  // Offline again, and the page is closed before the network returns: the words wait in this browser.
  await a.setOffline(true);
  await expect(pageA.getByRole('status').filter({ hasText: 'Offline — changes will sync' })).toBeVisible();
  await editorA.click();
  await pageA.keyboard.press('Control+End');
  await pageA.keyboard.press('Enter');
  await pageA.keyboard.type('Kept in this browser.');
  // IndexedDB writes finish a moment after the keystroke; a person does not close the tab within one.
  await pageA.waitForTimeout(500);
  const url = pageA.url();
  await pageA.close();
  await a.setOffline(false);
  const again = await a.newPage();
  await again.goto(url);
  await expect(again.getByLabel('Content of Field notes')).toContainText('Kept in this browser.');
  await expect(editorB).toContainText('Kept in this browser.');
  await expect(again.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await b.close();
});
