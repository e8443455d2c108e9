import type { Page } from '@playwright/test';
import { expect, test } from '../../fixtures/signed-in.ts';

const files = ['a.txt', 'b.txt', 'c.txt', 'd.txt'];

async function myFilesWith(page: Page) {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByLabel('Files to upload').setInputFiles(files.map((name) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(name) })));
  const list = page.getByRole('table', { name: 'Contents of My files' });
  for (const name of files) await expect(list.getByRole('link', { name })).toBeVisible();
  return list;
}

const row = (list: ReturnType<Page['getByRole']>, name: string) => list.getByRole('row', { name: new RegExp(name.replace('.', '\\.')) });

test('Delete trashes the row the keyboard is on, offers Undo, and the focus moves to the next row, never to the page', async ({ page }) => {
  const list = await myFilesWith(page);
  // Arrows move focus and selection together.
  await row(list, 'a.txt').getByRole('cell').nth(2).click();
  await page.keyboard.press('ArrowDown');
  await expect(row(list, 'b.txt')).toBeFocused();
  await expect(row(list, 'b.txt')).toHaveAttribute('aria-selected', 'true');
  // Tab on to the next row: it is the one marked now, and the one Delete takes.
  // b.txt's link, its menu button, then c.txt's link.
  for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
  await expect(list.getByRole('link', { name: 'c.txt' })).toBeFocused();
  await expect(row(list, 'c.txt')).toHaveAttribute('aria-selected', 'true');
  await expect(row(list, 'b.txt')).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('Delete');
  await expect(list.getByRole('link', { name: 'c.txt' })).toBeHidden();
  await expect(list.getByRole('link', { name: 'b.txt' })).toBeVisible();
  await expect(page.getByText('“c.txt” moved to the trash')).toBeVisible();
  // The row after the trashed one has the focus.
  await expect(row(list, 'd.txt')).toBeFocused();

  // The last row: the one before takes the focus.
  await page.keyboard.press('Delete');
  await expect(list.getByRole('link', { name: 'd.txt' })).toBeHidden();
  await expect(row(list, 'b.txt')).toBeFocused();
  await page.getByRole('alert').filter({ hasText: '“d.txt” moved to the trash' }).getByRole('button', { name: 'Undo' }).click();
  await expect(list.getByRole('link', { name: 'd.txt' })).toBeVisible();

  // From the row's menu: the focus goes to the next row, not the page.
  await page.getByRole('button', { name: 'Actions for a.txt' }).click();
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await expect(list.getByRole('link', { name: 'a.txt' })).toBeHidden();
  await expect(row(list, 'b.txt')).toBeFocused();

  // Everything at once: one notification for all, and the list gone, its heading has the focus.
  await row(list, 'b.txt').press('Control+a');
  await expect(page.getByText('2 selected')).toBeVisible();
  await page.keyboard.press('Delete');
  await expect(page.getByText('This folder is empty')).toBeVisible();
  await expect(page.getByText('2 items moved to the trash')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
});
