import { expect, test } from '../../fixtures/signed-in.ts';

test('a name is required: a new folder, a new document or a rename without one is refused, and says so; typing a name replaces the one offered', async ({
  page,
}) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  for (const [button, label] of [
    ['New folder', 'Folder name'],
    ['New document', 'Document name'],
  ] as const) {
    await page.getByRole('button', { name: button }).click();
    const dialog = page.getByRole('dialog', { name: button });
    await expect(dialog.getByLabel(label)).toHaveValue('');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Enter a name');
    await expect(dialog.getByLabel(label)).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByLabel(label)).toBeFocused();
    await page.keyboard.press('Escape');
  }
  await expect(page.getByText('This folder is empty')).toBeVisible();

  await page.getByLabel('Files to upload').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') });
  await page.getByRole('button', { name: 'Actions for notes.txt' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByLabel('New name').fill('  ');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Rename “notes.txt”' }).getByRole('alert')).toHaveText('Enter a name');
  await page.keyboard.press('Escape');

  // Typing a name replaces the one offered: a file's name before its extension, a folder's whole name.
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await page.getByRole('button', { name: 'New folder' }).click();
  await expect(page.getByLabel('Folder name')).toBeFocused();
  await page.keyboard.type('Project notes');
  await page.keyboard.press('Enter');
  await expect(list.getByRole('link', { name: 'Project notes', exact: true })).toBeVisible();

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
