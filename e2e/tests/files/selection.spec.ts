import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';

test('selects several items with the mouse and keyboard, downloads them as one zip, renames with F2 and trashes with Delete', async ({ page }) => {
  await signUp(page);
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('alpha') },
    { name: 'b.txt', mimeType: 'text/plain', buffer: Buffer.from('bravo') },
    { name: 'c.txt', mimeType: 'text/plain', buffer: Buffer.from('charlie') },
  ]);
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('link', { name: 'c.txt' })).toBeVisible();

  // Click one row, Shift-click another: the range is selected.
  await list.getByRole('row', { name: /a\.txt/ }).getByRole('cell').nth(2).click();
  await list.getByRole('row', { name: /b\.txt/ }).getByRole('cell').nth(2).click({ modifiers: ['Shift'] });
  await expect(page.getByText('2 selected')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download' }).click()]);
  const zip = readFileSync((await download.path())!);
  expect(zip.includes(Buffer.from('alpha'))).toBe(true);
  expect(zip.includes(Buffer.from('bravo'))).toBe(true);
  expect(zip.includes(Buffer.from('charlie'))).toBe(false);

  // Ctrl-A selects everything; Escape clears.
  await list.getByRole('row', { name: /a\.txt/ }).press('Control+a');
  await expect(page.getByText('3 selected')).toBeVisible();
  await list.getByRole('row', { name: /a\.txt/ }).press('Escape');
  await expect(page.getByText(/selected$/)).toBeHidden();

  // Arrows move, F2 renames the row in focus.
  await list.getByRole('row', { name: /a\.txt/ }).getByRole('cell').nth(2).click();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('F2');
  await page.getByLabel('New name').fill('bee.txt');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(list.getByRole('link', { name: 'bee.txt' })).toBeVisible();

  // Details of a file.
  await page.getByRole('button', { name: 'Actions for c.txt' }).click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'c.txt' });
  await expect(details.getByRole('table', { name: 'Details' })).toContainText('7 bytes');
  await expect(details).toContainText('You');
  await page.keyboard.press('Escape');

  // Delete moves the selection to the trash (bee.txt is still selected, c.txt joins it), with one Undo for both.
  await list.getByRole('checkbox', { name: 'Select c.txt' }).check();
  await expect(page.getByText('2 selected')).toBeVisible();
  await list.getByRole('row', { name: /c\.txt/ }).press('Delete');
  await expect(list.getByRole('link', { name: 'c.txt' })).toBeHidden();
  await expect(list.getByRole('link', { name: 'bee.txt' })).toBeHidden();
  await page.getByRole('alert').filter({ hasText: '2 items moved to the trash' }).getByRole('button', { name: 'Undo' }).click();
  await expect(list.getByRole('link', { name: 'c.txt' })).toBeVisible();
  await expect(list.getByRole('link', { name: 'bee.txt' })).toBeVisible();
});
