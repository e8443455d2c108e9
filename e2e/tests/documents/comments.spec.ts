import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

test('comments on selected text, replies from another window, resolves and reopens; the mark follows edits', async ({ page, browser, account, person }) => {
  const editor = await newDocument(page, 'Proposal');
  await page.keyboard.type('We ship on Friday with three people.');
  // Select "Friday" and comment on it.
  await page.keyboard.press('Home');
  for (let i = 0; i < 'We ship on '.length; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.down('Shift');
  for (let i = 0; i < 'Friday'.length; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.up('Shift');
  await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Comment' }).click();
  const comments = page.getByRole('region', { name: 'Comments' });
  await comments.getByLabel('Comment', { exact: true }).fill('Is Friday realistic?');
  await comments.getByRole('button', { name: 'Comment', exact: true }).click();
  const thread = comments.getByRole('article', { name: `Comment by ${person.name} on “Friday”` });
  await expect(thread).toContainText('Is Friday realistic?');
  await expect(editor.locator('.comment-anchor')).toHaveText('Friday');

  // Another window sees the thread without reloading, and answers it.
  const b = await browser.newContext({ storageState: account.storageState });
  const other = await b.newPage();
  await other.goto(page.url());
  await other.getByRole('button', { name: 'Comments' }).click();
  const otherThread = other.getByRole('region', { name: 'Comments' }).getByRole('article', { name: /on “Friday”/ });
  await expect(otherThread).toContainText('Is Friday realistic?');
  await expect(other.getByLabel('Content of Proposal').locator('.comment-anchor')).toHaveText('Friday');
  await otherThread.click();
  await otherThread.getByLabel('Reply').fill('Yes, if the tests pass.');
  await otherThread.getByRole('button', { name: 'Reply' }).click();
  await expect(thread).toContainText('Yes, if the tests pass.');

  // Text typed before the commented word moves the mark along with it.
  await editor.click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('Plan: ');
  await expect(editor.locator('.comment-anchor')).toHaveText('Friday');
  await page.screenshot({ path: 'test-results/screens/document-comments.png' });

  await thread.getByRole('button', { name: 'Resolve' }).click();
  await expect(comments.getByText('No open comments.', { exact: false })).toBeVisible();
  await expect(editor.locator('.comment-anchor')).toHaveCount(0);
  await comments.getByText(/^Resolved \(/).click();
  await comments
    .getByRole('article', { name: /on “Friday”/ })
    .getByRole('button', { name: 'Reopen' })
    .click();
  await comments.getByText(/^Open \(/).click();
  await expect(comments.getByRole('article', { name: /on “Friday”/ })).toBeVisible();
  await expect(editor.locator('.comment-anchor')).toHaveText('Friday');
  await b.close();
});
