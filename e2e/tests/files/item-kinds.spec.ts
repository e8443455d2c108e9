import type { Locator } from '@playwright/test';
import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';

/** The class of an item's icon (Tabler names its icons in the class), which says what it looks like; the menu's icon is in a button. */
const iconOf = (scope: Locator) => scope.locator('svg.tabler-icon:not(button *)').first().getAttribute('class');

test('a document has its own icon and no byte size, in the list, the grid and its details', async ({ page }) => {
  await newDocument(page, 'Minutes');
  await page.keyboard.type('Decisions taken.');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My files' }).click();
  await page.getByLabel('Files to upload').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('link', { name: 'notes.txt' })).toBeVisible();

  const doc = list.getByRole('row', { name: /Minutes/ });
  const file = list.getByRole('row', { name: /notes\.txt/ });
  expect(await iconOf(doc)).not.toBe(await iconOf(file));
  await expect(file.getByRole('cell').nth(3)).toHaveText('5 B');
  await expect(doc.getByRole('cell').nth(3)).toHaveText('—');
  await screensInEachLook(page, 'item-kinds-list');

  await page.getByRole('button', { name: 'Actions for Minutes' }).click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'Minutes' }).getByRole('table', { name: 'Details' });
  await expect(details.getByRole('row', { name: /Type/ })).toContainText('Document');
  await expect(details.getByRole('row', { name: /Size/ }).getByRole('cell')).toHaveText('—');
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 360, height: 800 });
  await page.getByRole('radiogroup', { name: 'View' }).getByText('Grid').click();
  const grid = page.getByRole('grid', { name: 'Contents of My files' });
  const docCard = grid.getByRole('gridcell', { name: /Minutes/ });
  const fileCard = grid.getByRole('gridcell', { name: /notes\.txt/ });
  expect(await iconOf(docCard)).not.toBe(await iconOf(fileCard));
  await expect(fileCard).toContainText('5 B ·');
  await expect(docCard).not.toContainText(' B ·');
  await screensInEachLook(page, 'item-kinds-grid');
});
