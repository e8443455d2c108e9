import { grantsApi } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { newDocument } from '../../fixtures/documents.ts';
import { makeItem, openPalette } from '../../fixtures/search.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

test('a word written in a document is found from the Ctrl-K palette in another window, within seconds, by a person it is shared with', async ({
  page,
  browser,
  workspace,
}) => {
  const editor = await newDocument(page, 'Field diary');
  const docId = page.url().split('/d/')[1]!;

  // Bea, in a browser of her own, may read the diary.
  const { context: b, page: other, user: bea } = await signUpInNewBrowser(browser, 'Bea Reader');
  expect((await apiCall(page, grantsApi.create, { params: { id: docId }, body: { principal: { type: 'user', id: bea.id }, role: 'viewer' } })).status).toBe(
    201,
  );
  await other.goto(`/w/${workspace.slug}`);
  await expect(other.getByRole('heading', { name: /Welcome/ })).toBeVisible();

  // She looks for a word nobody has written yet: nothing.
  const palette = await openPalette(other);
  await palette.getByRole('combobox', { name: 'Search' }).fill('kingfisher');
  await expect(palette.getByRole('status')).toHaveText('Nothing found for “kingfisher”.');

  // Ada writes it; Bea's palette, still open, finds it, the word marked in the passage shown.
  await editor.click();
  await page.keyboard.type('A kingfisher by the weir at dawn');
  const found = palette.getByRole('option', { name: /Field diary/ });
  await expect(found).toBeVisible();
  await expect(found.locator('mark')).toHaveText(['kingfisher']);
  await expect(found).toContainText('A kingfisher by the weir at dawn');
  await expect(found).toHaveAttribute('aria-selected', 'true');
  await other.keyboard.press('Enter');
  await expect(other).toHaveURL(new RegExp(`/w/${workspace.slug}/d/${docId}$`));
  await expect(other.getByLabel('Content of Field diary')).toContainText('kingfisher');
  await b.close();
});

test('from the keyboard alone: Control+K, arrows and Enter open an item, actions make things where the person is, Escape gives the focus back', async ({
  page,
  workspace,
}) => {
  const orchard = await makeItem(page, workspace, 'folder', 'Orchard');
  const plan = await makeItem(page, workspace, 'document', 'Orchard plan', orchard.id);
  const budget = await makeItem(page, workspace, 'document', 'Orchard budget');
  const links: Record<string, string> = { Orchard: `/f/${orchard.id}`, 'Orchard plan': `/d/${plan.id}`, 'Orchard budget': `/d/${budget.id}` };

  await page.goto(`/w/${workspace.slug}/my`);
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  const searchHere = page.getByRole('link', { name: 'Search in this folder' });
  await searchHere.focus();

  // Nothing typed yet: the actions, putting things here, in My files.
  let palette = await openPalette(page);
  const input = palette.getByRole('combobox', { name: 'Search' });
  await expect(palette.getByRole('group', { name: 'Actions' }).getByRole('option', { name: 'New folder', exact: true })).toHaveAccessibleDescription(
    'In My files',
  );
  await expect(palette.getByRole('option', { name: /Upload files/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);
  await expect(searchHere).toBeFocused();

  // Words as they are typed: each result shows where it is; the first is the one Enter opens, and the arrows move.
  palette = await openPalette(page);
  await page.keyboard.type('orch');
  const results = palette.getByRole('group', { name: 'Results' }).getByRole('option');
  await expect(results).toHaveCount(3);
  await expect(results.filter({ hasText: 'Orchard plan' })).toHaveAccessibleDescription('In Orchard');
  await expect(results.first()).toHaveAttribute('aria-selected', 'true');
  await expect(input).toHaveAttribute('aria-activedescendant', (await results.first().getAttribute('id'))!);
  await page.keyboard.press('ArrowDown');
  const second = results.nth(1);
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await expect(input).toHaveAttribute('aria-activedescendant', (await second.getAttribute('id'))!);
  // Its name is the item's.
  const chosen = (await second.getAttribute('aria-label'))!;
  expect(Object.keys(links)).toContain(chosen);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.slug}${links[chosen]}$`));
  await expect(palette).toHaveCount(0);

  // An action from the palette: a new folder, made in the folder on screen.
  await page.goto(`/w/${workspace.slug}/f/${orchard.id}`);
  await expect(page.getByRole('heading', { name: 'Orchard', level: 1 })).toBeVisible();
  palette = await openPalette(page);
  await page.keyboard.type('new fo');
  const newFolder = palette.getByRole('option', { name: 'New folder', exact: true });
  await expect(newFolder).toHaveAccessibleDescription('In Orchard');
  await expect(newFolder).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  await dialog.getByLabel('Folder name').fill('Seedlings');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('table', { name: 'Contents of Orchard' }).getByRole('link', { name: 'Seedlings' })).toBeVisible();

  // The last option is the search page with everything.
  palette = await openPalette(page);
  await page.keyboard.type('orchard');
  await expect(palette.getByRole('group', { name: 'Results' }).getByRole('option')).toHaveCount(3);
  await page.keyboard.press('ArrowUp');
  await expect(palette.getByRole('option', { name: 'See all results for “orchard”' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.slug}/search\\?q=orchard$`));
  await expect(page.getByRole('list', { name: 'Search results' }).getByRole('listitem')).toHaveCount(3);
});

test('the header’s search field opens the palette when clicked or typed in, and the search page on Enter; on a phone it is a button', async ({
  page,
  workspace,
}) => {
  await makeItem(page, workspace, 'document', 'Harbour notes');
  await page.goto(`/w/${workspace.slug}`);
  const field = page.getByRole('banner').getByRole('searchbox', { name: 'Search' });
  await expect(field).toHaveAttribute('aria-keyshortcuts', 'Control+K');
  await expect(page.getByRole('banner')).toContainText('Ctrl K');

  await field.click();
  const palette = page.getByRole('dialog', { name: 'Search' });
  await expect(palette.getByRole('combobox', { name: 'Search' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(field).toBeFocused();

  // Typing goes on in the palette, letter after letter.
  await page.keyboard.type('harb');
  await expect(palette.getByRole('combobox', { name: 'Search' })).toHaveValue('harb');
  await expect(palette.getByRole('option', { name: /Harbour notes/ }).locator('mark')).toHaveText('Harb');
  await page.keyboard.press('Escape');
  await expect(field).toHaveValue('');

  // A word composed with an input method (Japanese, Chinese…) is finished in the field, then goes on in the palette.
  await field.focus();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.imeSetComposition', { text: 'はー', selectionStart: 2, selectionEnd: 2 });
  await expect(field).toHaveValue('はー');
  await expect(palette).toBeHidden();
  await cdp.send('Input.insertText', { text: 'ハーバー' });
  await expect(palette.getByRole('combobox', { name: 'Search' })).toHaveValue('ハーバー');
  await page.keyboard.press('Escape');
  await expect(field).toHaveValue('');

  // Enter in the field: the search page, whose own field takes the words.
  await field.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.slug}/search$`));
  await expect(page.getByRole('main').getByRole('searchbox', { name: 'Search' })).toBeFocused();

  // On a phone: a button of the same name, opening the same palette.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/w/${workspace.slug}`);
  await expect(page.getByRole('banner').getByRole('searchbox', { name: 'Search' })).toBeHidden();
  await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
  await expect(palette.getByRole('combobox', { name: 'Search' })).toBeFocused();
  await page.keyboard.type('harbour');
  await expect(palette.getByRole('option', { name: /Harbour notes/ })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
