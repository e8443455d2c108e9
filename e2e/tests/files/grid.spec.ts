import { expect, test } from '../../fixtures/signed-in.ts';

test('shows a folder as a grid of cards that select, open and answer the keyboard, and remembers the view', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Photos');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'one.txt', mimeType: 'text/plain', buffer: Buffer.from('1') },
    { name: 'two.txt', mimeType: 'text/plain', buffer: Buffer.from('22') },
  ]);
  await expect(page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'two.txt' })).toBeVisible();

  await page.getByRole('radiogroup', { name: 'View' }).getByText('Grid').click();
  const grid = page.getByRole('grid', { name: 'Contents of My files' });
  await expect(grid.getByRole('gridcell')).toHaveCount(3);
  await grid
    .getByRole('gridcell')
    .filter({ hasText: 'one.txt' })
    .click({ position: { x: 80, y: 70 } });
  await page.keyboard.press('ArrowRight');
  await expect(grid.getByRole('gridcell', { selected: true })).toContainText('two.txt');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(page.getByText('2 selected')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('grid', { name: 'Contents of My files' })).toBeVisible();
  await page.getByRole('grid').getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
});
