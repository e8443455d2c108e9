import { readFileSync } from 'node:fs';
import { expect, test } from '../../fixtures/signed-in.ts';

test('moves and copies through the folder picker, and keeps versions of a file', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Reports');
  await page.getByRole('button', { name: 'Create' }).click();
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await page.getByLabel('Files to upload').setInputFiles({ name: 'q1.txt', mimeType: 'text/plain', buffer: Buffer.from('first draft') });
  await expect(list.getByRole('link', { name: 'q1.txt' })).toBeVisible();

  // A new version, then the old one is still there to download.
  await page.getByRole('button', { name: 'Actions for q1.txt' }).click();
  await page.getByRole('menuitem', { name: 'Versions' }).click();
  const versions = page.getByRole('dialog', { name: /Versions of q1\.txt/ });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), versions.getByRole('button', { name: 'Upload a new version' }).click()]);
  await chooser.setFiles({ name: 'anything.txt', mimeType: 'text/plain', buffer: Buffer.from('final text, longer') });
  await expect(versions.getByText('Version 2')).toBeVisible();
  const [old] = await Promise.all([page.waitForEvent('download'), versions.getByRole('link', { name: 'Download version 1' }).click()]);
  expect(readFileSync((await old.path())!).toString()).toBe('first draft');
  await page.keyboard.press('Escape');
  await expect(list.getByRole('row', { name: /q1\.txt/ })).toContainText('18 B');

  // Copy into the same folder keeps both; move the copy into Reports.
  await page.getByRole('button', { name: 'Actions for q1.txt' }).click();
  await page.getByRole('menuitem', { name: 'Copy to…' }).click();
  await page.getByRole('dialog', { name: 'Copy “q1.txt”' }).getByRole('button', { name: 'Copy here' }).click();
  await expect(list.getByRole('link', { name: 'q1 (2).txt' })).toBeVisible();
  await page.getByRole('button', { name: 'Actions for q1 (2).txt' }).click();
  await page.getByRole('menuitem', { name: 'Move to…' }).click();
  const picker = page.getByRole('dialog', { name: 'Move “q1 (2).txt”' });
  await picker.getByRole('listitem').filter({ hasText: 'Reports' }).click();
  await expect(picker.getByText('Reports', { exact: true })).toBeVisible();
  await picker.getByRole('button', { name: 'Move here' }).click();
  await expect(list.getByRole('link', { name: 'q1 (2).txt' })).toBeHidden();
  await list.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('table', { name: 'Contents of Reports' }).getByRole('link', { name: 'q1 (2).txt' })).toBeVisible();
});
