import { commentsApi, grantsApi, itemsApi } from '@cabinet/contracts';
import { signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { apiCall } from '../../fixtures/api.ts';
import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screen } from '../../fixtures/screens.ts';

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
  await screen(page, 'document-comments');

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

test('edits one’s own comment from its menu: the new words, with a person mentioned after @, reach the other reader’s panel and her bell', async ({
  page,
  browser,
  person,
  workspace,
}) => {
  const roadmap = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'document', name: 'Roadmap', parentId: workspace.homeId } })
  ).body;
  await apiCall(page, commentsApi.add, { params: { id: roadmap.id }, body: { body: 'Who owns the launch?' } });
  const { context: b, page: other, user: bea } = await signUpInNewBrowser(browser, 'Bea Reader');
  await apiCall(page, grantsApi.create, { params: { id: roadmap.id }, body: { principal: { type: 'user', id: bea.id }, role: 'commenter' } });

  // Bea has the document's comments open; her bell tells of the share.
  await other.goto(`/w/${workspace.slug}/d/${roadmap.id}`);
  const bell = other.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await other.getByRole('button', { name: 'Comments' }).click();
  const hers = other.getByRole('region', { name: 'Comments' }).getByRole('article', { name: `Comment by ${person.name}` });
  await expect(hers).toContainText('Who owns the launch?');

  await page.goto(`/w/${workspace.slug}/d/${roadmap.id}`);
  await page.getByRole('button', { name: 'Comments' }).click();
  const mine = page.getByRole('region', { name: 'Comments' }).getByRole('article', { name: `Comment by ${person.name}` });
  const actions = mine.getByRole('button', { name: 'Comment actions' });
  // Escape leaves the comment as it was.
  await actions.click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const box = mine.getByLabel('Edit comment');
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('Who owns the launch?');
  await page.keyboard.type(' Not me');
  await page.keyboard.press('Escape');
  await expect(box).toBeHidden();
  await expect(mine).toContainText('Who owns the launch?');
  await expect(mine).not.toContainText('Not me');

  // Keyboard only: the menu, Edit, a mention picked after @, Ctrl+Enter saves.
  await actions.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(box).toBeFocused();
  await page.keyboard.type(' @Be');
  await expect(page.getByRole('listbox', { name: 'Mention someone' }).getByRole('option', { name: /Bea Reader/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('Who owns the launch? @Bea Reader ');
  await page.keyboard.press('Control+Enter');
  await expect(box).toBeHidden();
  await expect(mine).toContainText('Who owns the launch? @Bea Reader');
  await expect(mine).toContainText('(edited)');

  // Bea's panel follows without a reload, and her bell tells her she was mentioned.
  await expect(hers).toContainText('Who owns the launch? @Bea Reader');
  await expect(hers).toContainText('(edited)');
  await expect(hers.getByRole('button', { name: 'Comment actions' })).toHaveCount(0);
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
  await bell.click();
  await expect(
    other.getByRole('dialog', { name: 'Notifications' }).getByRole('button', { name: `Unread: ${person.name} mentioned you in a comment on “Roadmap”` }),
  ).toBeVisible();
  await b.close();
});

test.describe(() => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('on a phone the comments open in a drawer, and closing it gives the keyboard back to the Comments button', async ({ page, workspace }) => {
    const notes = (
      await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'document', name: 'Field notes', parentId: workspace.homeId } })
    ).body;
    await apiCall(page, commentsApi.add, { params: { id: notes.id }, body: { body: 'Bring the maps.' } });
    await page.goto(`/w/${workspace.slug}/d/${notes.id}`);
    const open = page.getByRole('button', { name: 'Comments' });
    await open.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Comments' });
    await expect(drawer.getByText('Bring the maps.')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(open).toBeFocused();
  });
});
