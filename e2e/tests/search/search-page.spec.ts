import type { Page } from '@playwright/test';
import { joinAsMember, makeItem, uploadHere } from '../../fixtures/search.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

/** Picks an option of one of the search page's filters. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('search', { name: 'Search this workspace' }).getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('words inside an uploaded text file and part of a name are found on the search page, marked; type and modified filters narrow them, in the address', async ({
  page,
  workspace,
}) => {
  await makeItem(page, workspace, 'document', 'Quarry budget');
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  await uploadHere(page, [{ name: 'field-notes.txt', mimeType: 'text/plain', buffer: Buffer.from('The heron nests by the old quarry every spring.\n') }]);

  // The file's details say when its words can be found.
  await page.getByRole('button', { name: 'Actions for field-notes.txt' }).click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  await expect(page.getByRole('table', { name: 'Details' }).getByRole('row', { name: /Search/ })).toContainText('Text indexed');
  await page.keyboard.press('Escape');

  // Enter in the header's field opens the search page; it says what can be searched before anything is typed.
  await page.getByRole('banner').getByRole('searchbox', { name: 'Search' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.slug}/search$`));
  await expect(page.getByText('Use quotes for a phrase, -word to leave a word out.')).toBeVisible();
  await page.keyboard.type('quarry');
  await expect(page).toHaveURL(/\/search\?q=quarry$/);

  const results = page.getByRole('list', { name: 'Search results' });
  const file = results.getByRole('listitem').filter({ hasText: 'field-notes.txt' });
  const doc = results.getByRole('listitem').filter({ hasText: 'Quarry budget' });
  await expect(results.getByRole('listitem')).toHaveCount(2);
  // By name: the name's first word marked. By text: the word marked in the passage, and where the file is.
  await expect(doc.getByRole('link', { name: 'Quarry budget' }).locator('mark')).toHaveText('Quarry');
  await expect(file.locator('mark')).toHaveText(['quarry']);
  await expect(file).toContainText('The heron nests by the old quarry every spring');
  await expect(file.getByRole('link', { name: 'My files' })).toBeVisible();
  await expect(file).toContainText('Owned by you');

  // Type narrows; the address keeps it, so Back returns to the search before.
  await choose(page, 'Type', 'Documents');
  await expect(page).toHaveURL(/type=document/);
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(doc).toBeVisible();
  await page.goBack();
  await expect(results.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('combobox', { name: 'Type' })).toHaveValue('Any type');
  await page.goForward();
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await choose(page, 'Type', 'Text and code');
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(file).toBeVisible();

  // Modified today: still there; in a year long gone: nothing, with a way to clear the filters.
  await choose(page, 'Modified', 'Today');
  await expect(file).toBeVisible();
  await choose(page, 'Modified', 'Custom dates');
  await page.getByLabel('Modified from').fill('2020-01-01');
  await page.getByLabel('Modified until').fill('2020-12-31');
  await expect(page.getByRole('heading', { name: 'No results for “quarry”' })).toBeVisible();
  await expect(page.getByText('Check the spelling, or try fewer or other words, or remove some filters.')).toBeVisible();
  // A reload shows the same search.
  await page.reload();
  await expect(page.getByLabel('Modified until')).toHaveValue('2020-12-31');
  await expect(page.getByRole('heading', { name: 'No results for “quarry”' })).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Clear filters' }).last().click();
  await expect(results.getByRole('listitem')).toHaveCount(2);
  await expect(page).toHaveURL(/\/search\?q=quarry$/);

  // Words nothing has: what to try.
  const field = page.getByRole('main').getByRole('searchbox', { name: 'Search' });
  await field.fill('xylophone');
  await expect(page.getByRole('heading', { name: 'No results for “xylophone”' })).toBeVisible();
  await expect(page.getByText('Check the spelling, or try fewer or other words.')).toBeVisible();
});

test('“Search in this folder” searches the folder and everything below it, until its chip is removed', async ({ page, workspace }) => {
  const archive = await makeItem(page, workspace, 'folder', 'Archive');
  const older = await makeItem(page, workspace, 'folder', 'Older', archive.id);
  await makeItem(page, workspace, 'document', 'Lighthouse log', older.id);
  await makeItem(page, workspace, 'document', 'Lighthouse tour');

  await page.goto(`/w/${workspace.slug}/f/${archive.id}`);
  await expect(page.getByRole('heading', { name: 'Archive', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Search in this folder' }).click();
  await expect(page).toHaveURL(new RegExp(`/search\\?in=${archive.id}$`));
  const results = page.getByRole('list', { name: 'Search results' });
  // With no words, what is in the folder, newest first.
  await expect(results.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByText('In “Archive”')).toBeVisible();
  await page.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill('lighthouse');
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(results.getByRole('listitem')).toContainText('Lighthouse log');
  await expect(results.getByRole('listitem')).toContainText('In Older');
  await page.getByRole('button', { name: 'Search everywhere, not only in Archive' }).click();
  await expect(results.getByRole('listitem')).toHaveCount(2);
  await expect(page).toHaveURL(/\/search\?q=lighthouse$/);
});

test('a person who was not given access finds none of another’s private files, by name or by the words inside', async ({ page, browser, workspace }) => {
  // Pia's own: a document and a file in My files. The team's: a document in the shared Workspace.
  await makeItem(page, workspace, 'document', 'Moonbeam roadmap');
  await makeItem(page, workspace, 'document', 'Moonbeam team notes', workspace.rootId);
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  await uploadHere(page, [{ name: 'salaries.txt', mimeType: 'text/plain', buffer: Buffer.from('Confidential: the lunar bonus for everyone.') }]);
  // Pia finds all three, the file by its words (so the index has them all).
  await page.goto(`/w/${workspace.slug}/search?q=moonbeam`);
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('listitem')).toHaveCount(2);
  await expect(async () => {
    await page.goto(`/w/${workspace.slug}/search?q=lunar`);
    await expect(results.getByRole('listitem').filter({ hasText: 'salaries.txt' })).toBeVisible({ timeout: 2000 });
  }).toPass();

  // Quinn joins the workspace as a member, in a browser of her own.
  const { context: q, page: quinn } = await joinAsMember(browser, page, workspace, 'Quinn Member');

  // She finds the team's document, and nothing of Pia's own: not by name, not by the words inside.
  await quinn.goto(`/w/${workspace.slug}/search?q=moonbeam`);
  const hers = quinn.getByRole('list', { name: 'Search results' });
  await expect(hers.getByRole('listitem')).toHaveCount(1);
  await expect(hers.getByRole('listitem')).toContainText('Moonbeam team notes');
  await expect(hers.getByRole('listitem')).toContainText('In Workspace');
  await quinn.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill('lunar');
  await expect(quinn.getByRole('heading', { name: 'No results for “lunar”' })).toBeVisible();
  await quinn.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill('salaries');
  await expect(quinn.getByRole('heading', { name: 'No results for “salaries”' })).toBeVisible();
  // Nor does the palette show any.
  await quinn.keyboard.press('Control+K');
  const palette = quinn.getByRole('dialog', { name: 'Search' });
  await palette.getByRole('combobox', { name: 'Search' }).fill('moonbeam');
  await expect(palette.getByRole('group', { name: 'Results' }).getByRole('option')).toHaveCount(1);
  await expect(palette.getByRole('option', { name: /Moonbeam roadmap/ })).toHaveCount(0);
  await q.close();
});
