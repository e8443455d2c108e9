import { grantsApi } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';

test('two people write one document at once: each sees the other here, their named caret, and their typing live; all of it after a reload', async ({
  page,
  browser,
  person,
}) => {
  const editor = await newDocument(page, 'Meeting notes');
  await page.keyboard.type('Hello team');

  // Bea, in a browser of her own, is given the document to edit.
  // By account, not by address: an address reaches only an account that confirmed it.
  const { context: b, page: other, user: bea } = await signUpInNewBrowser(browser, 'Bea Second');
  expect(
    (await apiCall(page, grantsApi.create, { params: { id: page.url().split('/d/')[1]! }, body: { principal: { type: 'user', id: bea.id }, role: 'editor' } }))
      .status,
  ).toBe(201);
  await other.goto(page.url());
  const otherEditor = other.getByLabel('Content of Meeting notes');
  await expect(otherEditor).toContainText('Hello team');
  // Each sees the other among the people here, and where the other's caret is, by name.
  await expect(page.getByRole('group', { name: 'People here' }).getByRole('img', { name: 'Bea Second' })).toBeVisible();
  await expect(other.getByRole('group', { name: 'People here' }).getByRole('img', { name: person.name })).toBeVisible();
  await otherEditor.click();
  await other.keyboard.press('Control+End');
  await other.keyboard.type(', and hello back');
  await expect(editor).toContainText('Hello team, and hello back');
  await expect(editor.locator('.collaboration-carets__label')).toHaveText('Bea Second');
  await expect(otherEditor.locator('.collaboration-carets__label')).toHaveText(person.name);

  await b.close();
  await expect(page.getByRole('group', { name: 'People here' }).getByRole('img')).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel('Content of Meeting notes')).toContainText('Hello team, and hello back');
  // The document sits in its folder with the files, and opens from there.
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My files' }).click();
  await page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'Meeting notes' }).click();
  await expect(page.getByLabel('Content of Meeting notes')).toContainText('Hello team, and hello back');
});

test.describe(() => {
  test.use({ viewport: { width: 360, height: 800 } });

  test('the editor fits a phone', async ({ page }) => {
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('link', { name: 'My files' }).click();
    await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'New document' }).click();
    await page.getByLabel('Document name').fill('A document with a long name on a narrow screen');
    await page.getByRole('button', { name: 'Create' }).click();
    const editor = page.getByLabel('Content of A document with a long name on a narrow screen');
    await editor.click();
    await page.keyboard.type('A line long enough to wrap on a phone, and then some more words after it.');
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screensInEachLook(page, 'document');
  });
});
