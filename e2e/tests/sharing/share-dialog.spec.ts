import { grantsApi, itemsApi, linksApi } from '@cabinet/contracts';
import type { Page } from '@playwright/test';
import { apiCall } from '../../fixtures/api.ts';
import { signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { dayFromNow, openShareDialog } from '../../fixtures/sharing.ts';

/** Picks an option of a labelled select in the dialog. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('dialog').getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a folder shared with someone outside the workspace: they find it in Shared with me, open a document in it and edit it; the owner sees where their access comes from', async ({
  page,
  browser,
  person,
  workspace,
}) => {
  const folder = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Project X', parentId: workspace.homeId } })
  ).body;
  const plan = (await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'document', name: 'Plan', parentId: folder.id } })).body;

  // Bea, on a phone in the dark, has an account of her own and is not in Olive's workspace.
  const {
    context: b,
    page: other,
    person: bea,
    user: beaUser,
  } = await signUpInNewBrowser(browser, 'Bea Guest', { viewport: { width: 360, height: 740 }, colorScheme: 'dark' });

  // Olive shares the folder from its row's menu, by Bea's address.
  const dialog = await openShareDialog(page, workspace, 'Project X');
  await expect(dialog.getByText(person.name)).toBeVisible();
  await expect(dialog.getByText('Owner', { exact: true })).toBeVisible();
  // People of the workspace are suggested by name.
  await dialog.getByRole('combobox', { name: 'Person' }).fill(person.name.slice(0, 4));
  await expect(page.getByRole('option', { name: new RegExp(`${person.name}.*${person.email.replace(/[.+]/g, '\\$&')}`) })).toBeVisible();
  // An unknown address is refused in the dialog.
  await dialog.getByRole('combobox', { name: 'Person' }).fill('nobody-here@example.com');
  await expect(dialog.getByText(/join it as a guest/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('No one with that address');
  await dialog.getByRole('button', { name: 'Dismiss' }).click();

  await dialog.getByRole('combobox', { name: 'Person' }).fill(bea.email);
  await choose(page, 'Role', 'Commenter');
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  const list = dialog.getByRole('list', { name: 'Who has access' });
  await expect(list.getByText('Bea Guest')).toBeVisible();
  await expect(dialog.getByLabel('Role of Bea Guest')).toHaveValue('Commenter');
  // Commenting is not enough to write: Olive makes her an editor.
  await choose(page, 'Role of Bea Guest', 'Editor');
  await expect(dialog.getByLabel('Role of Bea Guest')).toHaveValue('Editor');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // Bea, a guest there, sees only what she may use, and the folder in Shared with me.
  await other.goto(`/w/${workspace.slug}/shared`);
  await expect(other.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  const shared = other.getByRole('table', { name: 'Shared with me' });
  await expect(shared.getByRole('link', { name: 'Project X' })).toBeVisible();
  await expect(shared.getByText(new RegExp(`${person.name} · .* · Can edit`))).toBeVisible();
  expect(await other.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await other.getByRole('button', { name: 'Open navigation' }).click();
  const nav = other.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Shared with me' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Workspace' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'My files' })).toHaveCount(0);
  await other.getByRole('button', { name: 'Close navigation' }).click();

  // Something else shared while she looks arrives in the list by itself.
  const notes = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'document', name: 'Loose notes', parentId: workspace.homeId } })
  ).body;
  expect(
    (await apiCall(page, grantsApi.create, { params: { id: notes.id }, body: { principal: { type: 'user', id: beaUser.id }, role: 'viewer' } })).status,
  ).toBe(201);
  await expect(shared.getByRole('link', { name: 'Loose notes' })).toBeVisible();

  // She opens the folder, then the document in it, and writes.
  await shared.getByRole('link', { name: 'Project X' }).click();
  await expect(other).toHaveURL(new RegExp(`/f/${folder.id}$`));
  await other.getByRole('link', { name: 'Plan' }).click();
  const editor = other.getByLabel('Content of Plan');
  await expect(other.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await editor.click();
  await other.keyboard.type('Written by Bea');
  await expect(other.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

  // Olive, on a phone in the dark too, sees Bea's words and, on the document, where Bea's access comes from.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/w/${workspace.slug}/d/${plan.id}`);
  await expect(page.getByLabel('Content of Plan')).toContainText('Written by Bea');
  await page.getByRole('button', { name: 'Document actions' }).click();
  await page.getByRole('menuitem', { name: 'Share…' }).click();
  const docDialog = page.getByRole('dialog', { name: 'Share “Plan”' });
  const entries = docDialog.getByRole('list', { name: 'Who has access' }).getByRole('listitem');
  const inherited = entries.filter({ hasText: 'Bea Guest' });
  await expect(inherited).toContainText('from folder Project X');
  await expect(inherited).toContainText('Editor');
  // Not changed here: on its folder.
  await expect(docDialog.getByLabel('Role of Bea Guest')).toHaveCount(0);
  await expect(docDialog.getByRole('button', { name: 'Remove access of Bea Guest' })).toHaveCount(0);
  for (const control of [
    docDialog.getByRole('combobox', { name: 'Person' }),
    docDialog.getByRole('button', { name: 'Share', exact: true }),
    docDialog.getByRole('button', { name: 'Copy link for members' }),
  ])
    await expect(control).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await docDialog.getByRole('link', { name: 'Open folder Project X' }).click();
  await expect(page).toHaveURL(new RegExp(`/f/${folder.id}$`));

  // On the folder, Olive takes the access away again, after saying yes.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/w/${workspace.slug}/my`);
  await page
    .getByRole('row', { name: /Project X/ })
    .getByRole('checkbox')
    .check();
  await page.getByLabel('Selection').getByRole('button', { name: 'Share', exact: true }).click();
  const again = page.getByRole('dialog', { name: 'Share “Project X”' });
  await again.getByRole('button', { name: 'Remove access of Bea Guest' }).click();
  await page.getByRole('dialog', { name: 'Remove access?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(again.getByRole('list', { name: 'Who has access' }).getByText('Bea Guest')).toHaveCount(0);
  await b.close();
});

test('a grant’s end date is saved when the field is left, not at every keystroke, and only for a day still to come', async ({ page, browser, workspace }) => {
  await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Dated', parentId: workspace.homeId } });
  const folder = (await apiCall(page, itemsApi.children, { params: { ws: workspace.id, id: workspace.homeId } })).body.items[0]!;
  const { context: b, person: dan } = await signUpInNewBrowser(browser, 'Dan Dated');
  await apiCall(page, grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', email: dan.email }, role: 'viewer' } });
  await b.close();

  const patches: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PATCH' && r.url().includes('/grants/')) patches.push(r.postData() ?? '');
  });
  const dialog = await openShareDialog(page, workspace, 'Dated');
  const ends = dialog.getByLabel('Access of Dan Dated ends');
  // A day gone: refused in the field, nothing sent.
  await ends.fill('2020-01-01');
  await ends.blur();
  await expect(dialog.getByText('Choose a day still to come')).toBeVisible();
  expect(patches).toEqual([]);
  const { day, year } = dayFromNow(30);
  await ends.fill(day);
  expect(patches).toEqual([]);
  await ends.press('Enter');
  await expect.poll(() => patches.length).toBe(1);
  expect(JSON.parse(patches[0]!).expiresAt).toMatch(new RegExp(`^${year}`));
  await expect(dialog.getByText('Choose a day still to come')).toHaveCount(0);
  await expect(ends).toHaveValue(day);
});

test.describe(() => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('on a phone, each public link shows its address and copies it by its own button; the link for members is copied apart', async ({
    page,
    context,
    workspace,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const folder = (
      await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Handed out', parentId: workspace.homeId } })
    ).body;
    const urls: string[] = [];
    for (const body of [{ kind: 'view' }, { kind: 'file_request' }] as const)
      urls.push((await apiCall(page, linksApi.create, { params: { id: folder.id }, body })).body.url!);
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

    const dialog = await openShareDialog(page, workspace, 'Handed out');
    for (const [i, url] of urls.entries()) {
      const name = `Link ${i + 1}`;
      const address = dialog.getByRole('textbox', { name: `Address of ${name}` });
      await expect(address).toHaveValue(url);
      await expect(address).toHaveAttribute('readonly', '');
      await dialog.getByRole('button', { name: `Copy public link (${name})` }).click();
      await expect.poll(clipboard).toBe(url);
    }
    await dialog.getByRole('button', { name: 'Copy link for members' }).click();
    await expect.poll(clipboard).toBe(new URL(`/w/${workspace.slug}/f/${folder.id}`, page.url()).href);
    await expect(dialog.getByRole('button', { name: 'Link for members copied' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  test('on a phone, the Share dialog of an item with a long name keeps its title on one line and its close button on screen', async ({ page, workspace }) => {
    const name = 'Quarterly planning notes for the whole engineering team and everyone else';
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name, parentId: workspace.homeId } });
    const dialog = await openShareDialog(page, workspace, name);
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('button', { name: `Actions for ${name}` })).toBeFocused();
  });
});
