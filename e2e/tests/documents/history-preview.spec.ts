import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';

test('the history preview shows every row of a table, the empty last one too, at 360 px', async ({ page }) => {
  const editor = await newDocument(page, 'Roster');
  await page.keyboard.type('/table');
  await page.keyboard.press('Enter');
  await expect(editor.locator('table tr')).toHaveCount(3);
  // A header and a row filled; the last row left empty, as a person leaves room to add one.
  for (const [i, cell] of ['Name', 'Role', 'Shift', 'Ada', 'Lead', 'Early'].entries()) {
    if (i > 0) await page.keyboard.press('Tab');
    await page.keyboard.type(cell);
  }
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  const url = page.url();
  // Leaving the document records a revision.
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My files' }).click();
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto(url);
  await page.getByRole('button', { name: 'History' }).click();
  const drawer = page.getByRole('dialog', { name: 'Revision history' });
  await drawer.getByRole('list', { name: 'Revisions' }).getByRole('button').first().click();
  const table = drawer.getByLabel('Revision compared with the current document').getByRole('table');
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(3);
  // Each row as tall as the header row (a line of text), the last one whole on screen.
  const header = (await rows.first().boundingBox())!;
  for (const row of await rows.all()) {
    const box = (await row.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(header.height - 1);
  }
  await rows.last().scrollIntoViewIfNeeded();
  await expect(rows.last()).toBeInViewport({ ratio: 1 });
  await screensInEachLook(page, 'history-table');
});
