import { itemsApi, linksApi } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { contrastOn, drawIn, seriousViolations } from '../../fixtures/accessibility.ts';
import { dayFromNow, openShareDialog } from '../../fixtures/sharing.ts';

test('an owner makes a password link to a folder; a visitor without an account gives the password, reads the document in it and downloads the folder; revoked, the link has ended', async ({
  page,
  browser,
  workspace,
}) => {
  const folder = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Press kit', parentId: workspace.homeId } })
  ).body;
  await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'document', name: 'Release notes', parentId: folder.id } });

  // Olive makes a link with a password from the Share dialog.
  const dialog = await openShareDialog(page, workspace, 'Press kit');
  await expect(dialog.getByText('No public links yet.')).toBeVisible();
  await dialog.getByLabel('Link password (optional)').fill('short');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  await expect(dialog.getByRole('alert')).toContainText('at least 8 characters');
  await dialog.getByRole('button', { name: 'Dismiss' }).click();
  await dialog.getByLabel('Link password (optional)').fill('blue harbour');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const links = dialog.getByRole('list', { name: 'Links to this item' });
  const row = links.getByRole('listitem', { name: 'Link 1' });
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await expect(row.getByText('Password', { exact: true })).toBeVisible();
  await expect(row.getByText('0 views · 0 downloads')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const url = (await apiCall(page, linksApi.list, { params: { id: folder.id } })).body.items[0]!.url!;
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{40,}$/);

  // A visitor on a phone, with no account, opens it: first the password.
  const v = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const visitor = await v.newPage();
  const opened = await visitor.goto(url);
  expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(visitor.getByRole('heading', { name: 'This link is protected' })).toBeVisible();
  expect(await seriousViolations(visitor)).toEqual([]);
  await visitor.getByRole('textbox', { name: 'Password' }).fill('wrong password');
  await visitor.getByRole('button', { name: 'Open' }).click();
  await expect(visitor.getByRole('alert')).toContainText('That password is not right');
  await visitor.getByRole('textbox', { name: 'Password' }).fill('blue harbour');
  await visitor.getByRole('button', { name: 'Open' }).click();
  await expect(visitor.getByRole('heading', { name: 'Press kit' })).toBeVisible();
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(await seriousViolations(visitor)).toEqual([]);

  // The document in it, read-only, in a sandboxed frame; then back to the folder.
  await visitor.getByRole('button', { name: 'Open Release notes' }).click();
  const frame = visitor.getByTitle('Document Release notes');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(frame).toHaveAttribute('srcdoc', /Release notes/);
  // The link allows downloads: the document downloads as Markdown or PDF.
  await visitor.getByRole('button', { name: 'Download' }).click();
  await expect(visitor.getByRole('menuitem', { name: 'PDF (.pdf)' })).toBeVisible();
  const [markdown] = await Promise.all([visitor.waitForEvent('download'), visitor.getByRole('menuitem', { name: 'Markdown (.md)' }).click()]);
  expect(markdown.suggestedFilename()).toBe('Release notes.md');
  await visitor.getByRole('button', { name: 'Press kit' }).click();
  await expect(visitor.getByRole('heading', { name: 'Press kit' })).toBeVisible();

  // The whole folder as a zip.
  const [download] = await Promise.all([visitor.waitForEvent('download'), visitor.getByRole('link', { name: 'Download all (zip)' }).click()]);
  expect(download.suggestedFilename()).toBe('Press kit.zip');

  // Olive sees it was opened and downloaded, and revokes it after confirming.
  await expect(row.getByText('1 view · 2 downloads')).toBeVisible();
  await row.getByRole('button', { name: 'Revoke Link 1' }).click();
  await page.getByRole('dialog', { name: 'Revoke this link?' }).getByRole('button', { name: 'Revoke link' }).click();
  await expect(row.getByText('Revoked', { exact: true })).toBeVisible();

  await visitor.reload();
  await expect(visitor.getByRole('heading', { name: 'This link has ended' })).toBeVisible();
  await expect(visitor.getByText(/turned it off/)).toBeVisible();
  await v.close();
});

test('an admin sets the link policy and sees every live link; an expired link is refused to its visitor', async ({ page, browser, workspace }) => {
  const folder = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Handouts', parentId: workspace.rootId } })
  ).body;

  // The settings in the dark theme (the Share dialog's links are checked in the light one above).
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/w/${workspace.slug}/settings/links`);
  await expect(page.getByRole('heading', { name: 'Link policy' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.getByRole('checkbox', { name: 'Limit how long a link lives' }).check();
  await page.getByLabel('Maximum lifetime (days)').fill('7');
  await page.getByRole('switch', { name: 'Require a password on new links' }).check();
  await page.getByRole('button', { name: 'Save link policy' }).click();
  await expect(page.getByText('Link policy saved')).toBeVisible();
  await expect(page.getByText('No live links')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The policy holds: a link without a password is refused, one with a far expiry too.
  expect((await apiCall(page, linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } })).status).toBe(400);
  expect(
    (
      await apiCall(page, linksApi.create, {
        params: { id: folder.id },
        body: { kind: 'view', password: 'long enough', expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() },
      })
    ).status,
  ).toBe(400);
  // A link within the policy, which the list shows, and one to another folder that ends in eight seconds: live when
  // made (the list the page reads holds it), ended by the time its visitor comes.
  const live = await apiCall(page, linksApi.create, {
    params: { id: folder.id },
    body: { kind: 'view', password: 'long enough', expiresAt: new Date(Date.now() + 6 * 86_400_000).toISOString() },
  });
  expect(live.status).toBe(201);
  const old = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Old handouts', parentId: workspace.rootId } })
  ).body;
  const endsAt = Date.now() + 8_000;
  const made = await apiCall(page, linksApi.create, {
    params: { id: old.id },
    body: { kind: 'view', password: 'long enough', expiresAt: new Date(endsAt).toISOString() },
  });
  expect(made.status).toBe(201);
  const liveLinks = async () =>
    (await apiCall(page, linksApi.workspace, { params: { ws: workspace.id }, query: { limit: 100 } })).body.items.map((l) => l.item.name);
  expect(await liveLinks()).toEqual(expect.arrayContaining(['Handouts', 'Old handouts']));
  await page.reload();
  await expect(page.getByRole('listitem', { name: 'Link to Handouts' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.waitForTimeout(Math.max(0, endsAt - Date.now() + 500));
  const v = await browser.newContext({ colorScheme: 'dark' });
  const visitor = await v.newPage();
  await visitor.goto(made.body.url!);
  await expect(visitor.getByRole('heading', { name: 'This link has ended' })).toBeVisible();
  await expect(visitor.getByText(/It has expired/)).toBeVisible();
  await expect(visitor.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  expect(await seriousViolations(visitor)).toEqual([]);
  await v.close();

  // The ended link is no longer live; the other still is.
  await page.reload();
  await expect(page.getByRole('listitem', { name: 'Link to Handouts' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Link to Old handouts' })).toHaveCount(0);
  expect(await liveLinks()).toEqual(['Handouts']);
});

test("a link's end date is saved when the field is left or Enter is pressed, never half-typed, and its error is readable in both themes", async ({
  page,
  workspace,
}) => {
  const folder = (await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Flyers', parentId: workspace.homeId } }))
    .body;
  expect((await apiCall(page, linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } })).status).toBe(201);
  const patches: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PATCH' && r.url().includes('/links/')) patches.push(r.postData() ?? '');
  });
  const dialog = await openShareDialog(page, workspace, 'Flyers');
  const ends = dialog.getByLabel('Link 1 expires');
  // Typed digit by digit from the month on, as a person does (the year passes through 0002, 0020…): nothing is sent while they type.
  await ends.focus();
  await page.keyboard.type('01012020');
  await expect(ends).toHaveValue('2020-01-01');
  expect(patches).toEqual([]);
  await ends.blur();
  const error = dialog.getByText('Choose a day still to come');
  await expect(error).toBeVisible();
  expect(patches).toEqual([]);
  for (const scheme of ['dark', 'light'] as const) {
    await drawIn(page, scheme);
    expect(await contrastOn(error, '.mantine-Modal-content'), scheme).toBeGreaterThanOrEqual(4.5);
  }
  expect(await seriousViolations(page)).toEqual([]);
  const { day, year } = dayFromNow(10);
  await ends.fill(day);
  expect(patches).toEqual([]);
  await ends.press('Enter');
  await expect.poll(() => patches.length).toBe(1);
  expect(JSON.parse(patches[0]!).expiresAt).toMatch(new RegExp(`^${year}`));
  await expect(error).toHaveCount(0);
  await expect(dialog.getByRole('listitem', { name: 'Link 1' })).toContainText('expires');
  await expect(ends).toHaveValue(day);
});

test('a double click on "Create link" makes one link', async ({ page, workspace }) => {
  const folder = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Clicked twice', parentId: workspace.homeId } })
  ).body;
  const posts: Promise<unknown>[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith(`/items/${folder.id}/links`)) posts.push(r.response());
  });
  const dialog = await openShareDialog(page, workspace, 'Clicked twice');
  await expect(dialog.getByText('No public links yet.')).toBeVisible();
  // Both clicks of a double click in one task, as a busy page takes them: before the button is drawn busy.
  await dialog.getByRole('button', { name: 'Create link' }).evaluate((button: HTMLElement) => {
    for (const type of ['click', 'click', 'dblclick'])
      button.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, detail: type === 'click' ? 1 : 2 }));
  });
  const links = dialog.getByRole('list', { name: 'Links to this item' });
  await expect(links.getByRole('listitem')).toHaveCount(1);
  await Promise.all(posts);
  expect(posts).toHaveLength(1);
  expect((await apiCall(page, linksApi.list, { params: { id: folder.id } })).body.items).toHaveLength(1);
  await expect(links.getByRole('listitem')).toHaveCount(1);
});

test('links keep their names as more of them load, and a revoked one says the day it was revoked, not its planned end', async ({ page, workspace }) => {
  const folder = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Numbered', parentId: workspace.homeId } })
  ).body;
  const planned = new Date(Date.now() + 10 * 86_400_000).toISOString();
  const first = (await apiCall(page, linksApi.create, { params: { id: folder.id }, body: { kind: 'view', expiresAt: planned } })).body;
  for (let i = 0; i < 2; i++) await apiCall(page, linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } });
  expect((await apiCall(page, linksApi.revoke, { params: { id: folder.id, linkId: first.id } })).status).toBe(204);
  // The dialog reads links two at a time here, so that it has more to load.
  await page.route(/\/api\/v1\/items\/[^/]+\/links\?/, (route) => route.continue({ url: route.request().url().replace('limit=100', 'limit=2') }));

  const dialog = await openShareDialog(page, workspace, 'Numbered');
  const links = dialog.getByRole('list', { name: 'Links to this item' });
  await expect(links.getByRole('listitem', { name: 'Link 3' })).toBeVisible();
  await expect(links.getByRole('listitem', { name: 'Link 2' })).toBeVisible();
  await expect(links.getByRole('listitem')).toHaveCount(2);
  await dialog.getByRole('button', { name: 'Show more links' }).click();
  const revoked = links.getByRole('listitem', { name: 'Link 1' });
  await expect(revoked.getByText('Revoked', { exact: true })).toBeVisible();
  await expect(links.getByRole('listitem', { name: 'Link 3' })).toBeVisible();
  const day = (iso: string) => page.evaluate((at) => new Date(at).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }), iso);
  await expect(revoked).toContainText(`ended ${await day(new Date().toISOString())}`);
  await expect(revoked).not.toContainText(await day(planned));
});
