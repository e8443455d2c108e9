import { createHash } from 'node:crypto';
import { commentsApi, grantsApi, invitationsApi, itemsApi, linksApi, notificationsApi, publicLinksApi, uploadsApi, workspacesApi } from '@cabinet/contracts';
import { signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { apiCall } from '../../fixtures/api.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';

test('a share reaches the other person’s bell at once; the list opens the document and the count drops, a file in the viewer; a mention in a comment reaches the person mentioned; an invitation to her address opens the page where she joins', async ({
  page,
  browser,
  person,
  workspace,
}) => {
  // A second person signing up and a document opened on each side.
  test.setTimeout(120_000);
  const plan = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'document', name: 'Launch plan', parentId: workspace.homeId } })
  ).body;

  // Bea, on a phone, in her own workspace, with nothing yet.
  const { context: b, page: other, user: bea } = await signUpInNewBrowser(browser, 'Bea Member', { viewport: { width: 360, height: 740 } });
  const bell = other.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications');
  await bell.click();
  const list = other.getByRole('dialog', { name: 'Notifications' });
  await expect(list.getByText('No notifications yet.', { exact: false })).toBeVisible();
  // Escape closes the list and gives the keyboard back to the bell.
  await other.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(bell).toBeFocused();

  // Olive shares the document with Bea: Bea's bell counts it without a reload.
  expect(
    (await apiCall(page, grantsApi.create, { params: { id: plan.id }, body: { principal: { type: 'user', id: bea.id }, role: 'commenter' } })).status,
  ).toBe(201);
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');

  // Keyboard only: open the list, check it, open the document from it.
  await bell.focus();
  await other.keyboard.press('Enter');
  const entry = list.getByRole('button', { name: `Unread: ${person.name} shared “Launch plan” with you` });
  await expect(entry).toBeVisible();
  expect(await other.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(await seriousViolations(other)).toEqual([]);
  await entry.focus();
  await other.keyboard.press('Enter');
  await expect(other).toHaveURL(new RegExp(`/w/${workspace.slug}/d/${plan.id}$`));
  await expect(other.getByLabel('Content of Launch plan')).toBeVisible();
  await expect(bell).toHaveAccessibleName('Notifications');

  // Olive opens the document and comments, mentioning Bea by picking her after @.
  await page.goto(`/w/${workspace.slug}/d/${plan.id}`);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await page.getByRole('button', { name: 'Comments' }).click();
  // A comment on the whole document goes through the same composer as any thread's reply: start one by API, then reply in the page.
  const thread = (await apiCall(page, commentsApi.add, { params: { id: plan.id }, body: { body: 'Who checks the numbers?' } })).body;
  const comments = page.getByRole('region', { name: 'Comments' });
  const article = comments.getByRole('article', { name: `Comment by ${person.name}` });
  await article.click();
  const reply = article.getByLabel('Reply');
  await reply.pressSequentially('Could you, @Be');
  await expect(page.getByRole('listbox', { name: 'Mention someone' }).getByRole('option', { name: /Bea Member/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(reply).toHaveValue('Could you, @Bea Member ');
  await article.getByRole('button', { name: 'Reply' }).click();
  await expect(article).toContainText('Could you, @Bea Member');

  // Bea is told, and the list opens the document with the thread.
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await bell.click();
  await list.getByRole('button', { name: `Unread: ${person.name} mentioned you in a comment on “Launch plan”` }).click();
  await expect(other).toHaveURL(new RegExp(`/d/${plan.id}\\?thread=${thread.id}$`));
  await expect(other.getByRole('dialog', { name: 'Comments' }).getByText('Could you, @Bea Member')).toBeVisible();
  await expect(bell).toHaveAccessibleName('Notifications');

  // Two more shares; "Mark all as read" clears the count and keeps the entries, read.
  await other.keyboard.press('Escape');
  await expect(other.getByRole('dialog', { name: 'Comments' })).toBeHidden();
  for (const name of ['Budget', 'Hiring']) {
    const made = (await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name, parentId: workspace.homeId } })).body;
    await apiCall(page, grantsApi.create, { params: { id: made.id }, body: { principal: { type: 'user', id: bea.id }, role: 'viewer' } });
  }
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
  await bell.click();
  await list.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(list.getByRole('button', { name: `${person.name} shared “Hiring” with you` })).toBeVisible();

  // A file shared with Bea opens in Cabinet's viewer, not as a download.
  const bytes = Buffer.from(`Minutes of ${Date.now()}`);
  const upload = (
    await apiCall(page, uploadsApi.start, { params: { ws: workspace.id }, body: { parentId: workspace.homeId, name: 'minutes.txt', size: bytes.length } })
  ).body;
  expect((await page.request.put(upload.parts[0]!.url, { data: bytes })).ok()).toBe(true);
  const minutes = (await apiCall(page, uploadsApi.complete, { params: { id: upload.id }, body: {} })).body.item;
  await apiCall(page, grantsApi.create, { params: { id: minutes.id }, body: { principal: { type: 'user', id: bea.id }, role: 'viewer' } });
  await list.getByRole('button', { name: `Unread: ${person.name} shared “minutes.txt” with you` }).click();
  await expect(other).toHaveURL(new RegExp(`/w/${workspace.slug}/file/${minutes.id}$`));
  await expect(other.getByRole('heading', { level: 1, name: 'minutes.txt' })).toBeVisible();
  // The viewer fills the screen, and its bar keeps the bell.
  await expect(bell).toHaveAccessibleName('Notifications');

  // Olive invites Bea's address to another workspace: the bell, in the viewer still, says so and opens the invitation, where Bea joins.
  const team = (await apiCall(page, workspacesApi.create, { body: { name: `Studio ${Date.now().toString(36)}` } })).body;
  expect((await apiCall(page, invitationsApi.create, { params: { ws: team.id }, body: { role: 'member', email: bea.email } })).status).toBe(201);
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await bell.click();
  await list.getByRole('button', { name: `Unread: ${person.name} invited you to ${team.name}` }).click();
  await expect(other).toHaveURL(/\/invitations\/[0-9a-f-]+$/);
  await expect(bell).toHaveAccessibleName('Notifications');
  await other.getByRole('button', { name: `Join ${team.name}` }).click();
  await expect(other).toHaveURL(new RegExp(`/w/${team.slug}$`));
  await b.close();
});

test('outside any workspace (the account, a page not found), the bell counts a notification as it arrives and opens it', async ({
  page,
  browser,
  workspace,
}) => {
  const folder = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Drop box', parentId: workspace.homeId } })
  ).body;
  const token = (await apiCall(page, linksApi.create, { params: { id: folder.id }, body: { kind: 'file_request' } })).body.url!.split('/s/')[1]!;
  // The worker's person may have notifications of other tests.
  await apiCall(page, notificationsApi.read, { body: { all: true } });
  await page.goto('/account');
  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications');
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'This page does not exist' })).toBeVisible();
  await expect(bell).toHaveAccessibleName('Notifications');

  // A visitor without an account sends a file through the request, as its page does.
  const v = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const bytes = Buffer.from('Dear Olive, here it is.');
  const body = { name: 'letter.txt', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  const upload = (await apiCall(v, publicLinksApi.startUpload, { params: { token }, body })).body;
  const signed = (await apiCall(v, publicLinksApi.signParts, { params: { token, uploadId: upload.id }, body: { partNumbers: [1] } })).body;
  expect((await v.request.put(signed.parts[0]!.url, { data: bytes })).ok()).toBe(true);
  expect((await apiCall(v, publicLinksApi.completeUpload, { params: { token, uploadId: upload.id }, body: {} })).status).toBe(200);
  await v.close();

  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await bell.click();
  await page
    .getByRole('dialog', { name: 'Notifications' })
    .getByRole('button', { name: 'Unread: A file was uploaded to “Drop box” through your file request' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.slug}/f/${folder.id}$`));
  await expect(bell).toHaveAccessibleName('Notifications');
});
