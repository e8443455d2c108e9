import { expect, test } from '../../fixtures/signed-in.ts';

test('typing a name replaces the one offered: a new folder’s “Untitled folder”, a file’s name before its extension', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  const list = page.getByRole('table', { name: 'Contents of My files' });

  await page.getByRole('button', { name: 'New folder' }).click();
  await expect(page.getByLabel('Folder name')).toBeFocused();
  await page.keyboard.type('Project notes');
  await page.keyboard.press('Enter');
  await expect(list.getByRole('link', { name: 'Project notes', exact: true })).toBeVisible();

  await page.getByLabel('Files to upload').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') });
  await expect(list.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await page.getByRole('button', { name: 'Actions for notes.txt' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await expect(page.getByLabel('New name')).toBeFocused();
  await page.keyboard.type('agenda');
  await page.keyboard.press('Enter');
  await expect(list.getByRole('link', { name: 'agenda.txt', exact: true })).toBeVisible();

  // A folder's whole name is replaced, dots and all.
  await page.getByRole('button', { name: 'Actions for Project notes' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await expect(page.getByLabel('New name')).toBeFocused();
  await page.keyboard.type('Plans v1.2');
  await page.keyboard.press('Enter');
  await expect(list.getByRole('link', { name: 'Plans v1.2', exact: true })).toBeVisible();
});
