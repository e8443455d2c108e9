import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { apiCall } from '../../fixtures/api.ts';
import { newPerson, signUp } from '../../fixtures/accounts.ts';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('an owner makes a password link to a folder; a visitor without an account gives the password, reads the document in it and downloads the folder; revoked, the link has ended', async ({ page, browser }) => {
  await signUp(page, newPerson('Olive Owner'));
  const workspace = (await apiCall(page, 'GET', '/workspaces')).body.items[0] as { id: string; slug: string; homeId: string };
  const folder = (await apiCall(page, 'POST', `/workspaces/${workspace.id}/items`, { kind: 'folder', name: 'Press kit', parentId: workspace.homeId })).body as { id: string };
  await apiCall(page, 'POST', `/workspaces/${workspace.id}/items`, { kind: 'document', name: 'Release notes', parentId: folder.id });

  // Olive makes a link with a password from the Share dialog.
  await page.goto(`/w/${workspace.slug}/my`);
  await page.getByRole('button', { name: 'Actions for Press kit' }).click();
  await page.getByRole('menuitem', { name: 'Share…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share “Press kit”' });
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
  const url = (await apiCall(page, 'GET', `/items/${folder.id}/links`)).body.items[0].url as string;
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
  await visitor.getByRole('button', { name: 'Press kit' }).click();
  await expect(visitor.getByRole('heading', { name: 'Press kit' })).toBeVisible();

  // The whole folder as a zip.
  const [download] = await Promise.all([visitor.waitForEvent('download'), visitor.getByRole('link', { name: 'Download all (zip)' }).click()]);
  expect(download.suggestedFilename()).toBe('Press kit.zip');

  // Olive sees it was opened and downloaded, and revokes it after confirming.
  await expect(row.getByText('1 view · 1 download')).toBeVisible();
  await row.getByRole('button', { name: 'Revoke Link 1' }).click();
  await page.getByRole('dialog', { name: 'Revoke this link?' }).getByRole('button', { name: 'Revoke link' }).click();
  await expect(row.getByText('Revoked', { exact: true })).toBeVisible();

  await visitor.reload();
  await expect(visitor.getByRole('heading', { name: 'This link has ended' })).toBeVisible();
  await expect(visitor.getByText(/turned it off/)).toBeVisible();
  await v.close();
});

test('an admin sets the link policy and sees every live link; an expired link is refused to its visitor', async ({ page, browser }) => {
  await signUp(page, newPerson('Ada Admin'));
  const workspace = (await apiCall(page, 'GET', '/workspaces')).body.items[0] as { id: string; slug: string; rootId: string };
  const folder = (await apiCall(page, 'POST', `/workspaces/${workspace.id}/items`, { kind: 'folder', name: 'Handouts', parentId: workspace.rootId })).body as { id: string };

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
  expect((await apiCall(page, 'POST', `/items/${folder.id}/links`, { kind: 'view' })).status).toBe(400);
  expect((await apiCall(page, 'POST', `/items/${folder.id}/links`, { kind: 'view', password: 'long enough', expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() })).status).toBe(400);
  // A link that ends in three seconds.
  const made = await apiCall(page, 'POST', `/items/${folder.id}/links`, { kind: 'view', password: 'long enough', expiresAt: new Date(Date.now() + 3000).toISOString() });
  expect(made.status).toBe(201);
  await page.reload();
  await expect(page.getByRole('listitem', { name: 'Link to Handouts' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.waitForTimeout(3500);
  const v = await browser.newContext({ colorScheme: 'dark' });
  const visitor = await v.newPage();
  await visitor.goto(made.body.url as string);
  await expect(visitor.getByRole('heading', { name: 'This link has ended' })).toBeVisible();
  await expect(visitor.getByText(/It has expired/)).toBeVisible();
  await expect(visitor.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  expect(await seriousViolations(visitor)).toEqual([]);
  await v.close();

  await page.reload();
  await expect(page.getByText('No live links')).toBeVisible();
});
