import { expect, test } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';

test('writes a new document, sees another window’s typing live, and finds it all after a reload', async ({ page, context }) => {
  await signUp(page);
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New document' }).click();
  await page.getByLabel('Document name').fill('Meeting notes');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name: 'Meeting notes', level: 1 })).toBeVisible();
  const editor = page.getByLabel('Content of Meeting notes');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await editor.click();
  await page.keyboard.type('Hello team');

  const other = await context.newPage();
  await other.goto(page.url());
  const otherEditor = other.getByLabel('Content of Meeting notes');
  await expect(otherEditor).toContainText('Hello team');
  // Each window sees the other one there.
  await expect(page.getByRole('group', { name: 'People here' }).getByRole('img')).toHaveCount(1);
  await otherEditor.click();
  await other.keyboard.press('End');
  await other.keyboard.type(', and hello back');
  await expect(editor).toContainText('Hello team, and hello back');

  await other.close();
  await page.reload();
  await expect(page.getByLabel('Content of Meeting notes')).toContainText('Hello team, and hello back');
  // The document sits in its folder with the files, and opens from there.
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My files' }).click();
  await page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'Meeting notes' }).click();
  await expect(page.getByLabel('Content of Meeting notes')).toContainText('Hello team, and hello back');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the editor fits a phone in the ${scheme} theme`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 360, height: 800 }, colorScheme: scheme });
    const page = await context.newPage();
    await signUp(page);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('link', { name: 'My files' }).click();
    await page.getByRole('button', { name: 'New document' }).click();
    await page.getByLabel('Document name').fill('A document with a long name on a narrow screen');
    await page.getByRole('button', { name: 'Create' }).click();
    const editor = page.getByLabel('Content of A document with a long name on a narrow screen');
    await editor.click();
    await page.keyboard.type('A line long enough to wrap on a phone, and then some more words after it.');
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/screens/document-360-${scheme}.png`, fullPage: true });
    await context.close();
  });
}
