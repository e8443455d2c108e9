import { uploadHere } from '../../fixtures/search.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

test('the owner sets the language of search in the workspace settings; texts are read again in it, and the audit log says so', async ({ page, workspace }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  await uploadHere(page, [{ name: 'stadtplan.txt', mimeType: 'text/plain', buffer: Buffer.from('Die alten Häuser am Fluss') }]);
  await page.getByRole('button', { name: 'Actions for stadtplan.txt' }).click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  await expect(page.getByRole('table', { name: 'Details' }).getByRole('row', { name: /Search/ })).toContainText('Text indexed', { timeout: 60_000 });
  await page.keyboard.press('Escape');
  // In English, "Häuser" is not a form of "Haus".
  await page.goto(`/w/${workspace.slug}/search?q=haus`);
  await expect(page.getByRole('heading', { name: 'No results for “haus”' })).toBeVisible();

  await page.getByRole('link', { name: 'Members and settings' }).click();
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.slug}/settings/search$`));
  const section = page.getByRole('region', { name: 'Search language' });
  await expect(section.getByText('Texts are indexed in English.')).toBeVisible();
  const save = section.getByRole('button', { name: 'Save search language' });
  await expect(save).toBeDisabled();
  await section.getByRole('combobox', { name: 'Language of documents and files' }).click();
  await page.getByRole('option', { name: 'German', exact: true }).click();
  await save.click();
  await expect(page.getByText(/Search language saved/)).toBeVisible();
  await expect(section.getByText('Texts are indexed in German.')).toBeVisible({ timeout: 30_000 });

  // Now "haus" finds the houses.
  await page.goto(`/w/${workspace.slug}/search?q=haus`);
  await expect(page.getByRole('list', { name: 'Search results' }).getByRole('listitem').filter({ hasText: 'stadtplan.txt' })).toBeVisible();

  await page.goto(`/w/${workspace.slug}/settings/audit`);
  await expect(page.getByText('set the language of search to German')).toBeVisible();
});
