import { tokensApi } from '@cabinet/contracts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { apiCall } from '../../fixtures/api.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';
import { joinAsMember } from '../../fixtures/search.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

const FINDER = 'WebDAVFS/3.0.0 (03008000) Darwin/22.1.0';
const LOCK = `<?xml version="1.0"?><d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype><d:owner>Bob</d:owner></d:lockinfo>`;

test('a file Bob locked in Finder: shown as his in the list, the details and the viewer; renamed and replaced only when asked; its lock broken by the owner', async ({
  page,
  browser,
  workspace,
  baseURL,
}) => {
  // Bob, a member, puts notes.txt in the shared root from Finder (WebDAV, his app password) and keeps it locked.
  const bob = await joinAsMember(browser, page, workspace, 'Bob Builder');
  const made = await apiCall(bob.page, tokensApi.create, { body: { name: 'Finder', scopes: ['dav'] } });
  expect(made.status).toBe(201);
  const authorization = `Basic ${Buffer.from(`bob:${made.body.token}`).toString('base64')}`;
  const dav = (method: string, name: string, body?: string) =>
    fetch(new URL(`/dav/${workspace.slug}/Workspace/${encodeURIComponent(name)}`, baseURL), {
      method,
      headers: { authorization, 'user-agent': FINDER, timeout: 'Second-3600' },
      ...(body !== undefined ? { body } : {}),
    });
  expect((await dav('PUT', 'notes.txt', 'From Finder\n')).status).toBe(201);
  expect((await dav('LOCK', 'notes.txt', LOCK)).status).toBe(200);

  // The owner's list: a padlock beside the name, its words to screen readers and on hover.
  await page.getByRole('navigation').getByRole('link', { name: 'Workspace', exact: true }).click();
  const list = page.getByRole('table', { name: 'Contents of Workspace' });
  const row = list.getByRole('row', { name: /notes\.txt/ });
  const padlock = row.getByRole('img', { name: 'Locked by Bob Builder (Finder)' });
  await expect(padlock).toBeVisible();
  await padlock.hover();
  await expect(page.getByRole('tooltip', { name: 'Locked by Bob Builder (Finder)' })).toBeVisible();
  await expect(row.getByRole('link', { name: 'notes.txt', exact: true })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await screensInEachLook(page, 'webdav-lock-list');
  // The grid's card too.
  await page.getByRole('radiogroup', { name: 'View' }).getByText('Grid').click();
  const card = page.getByRole('grid', { name: 'Contents of Workspace' }).getByRole('gridcell').filter({ hasText: 'notes.txt' });
  await expect(card.getByRole('img', { name: 'Locked by Bob Builder (Finder)' })).toBeVisible();
  await screensInEachLook(page, 'webdav-lock-grid');
  await page.getByRole('radiogroup', { name: 'View' }).getByText('List').click();

  // Rename asks first; Cancel leaves it as it was, Rename anyway goes on to the name.
  await row.getByRole('button', { name: 'Actions for notes.txt' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const asked = page.getByRole('dialog', { name: '“notes.txt” is locked by Bob Builder (Finder)' });
  await expect(asked).toContainText('Bob Builder may be changing it in Finder right now. If you go on, they may lose changes not yet saved there.');
  expect(await seriousViolations(page)).toEqual([]);
  await screensInEachLook(page, 'webdav-lock-rename-asked');
  await asked.getByRole('button', { name: 'Cancel' }).click();
  await expect(asked).toBeHidden();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await row.getByRole('button', { name: 'Actions for notes.txt' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await asked.getByRole('button', { name: 'Rename anyway' }).click();
  const naming = page.getByRole('dialog', { name: 'Rename “notes.txt”' });
  await naming.getByLabel('New name').fill('notes (reviewed).txt');
  await naming.getByRole('button', { name: 'Rename' }).click();
  await expect(naming).toBeHidden();
  const renamed = list.getByRole('row', { name: /notes \(reviewed\)\.txt/ });
  await expect(renamed.getByRole('img', { name: 'Locked by Bob Builder (Finder)' })).toBeVisible();

  // The details panel says who holds it, and offers to break it to the owner, who runs the workspace.
  await renamed.getByRole('button', { name: 'Actions for notes (reviewed).txt' }).click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'notes (reviewed).txt' });
  await expect(details.getByRole('row', { name: 'Lock Locked by Bob Builder (Finder)' })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Break lock' })).toBeVisible();
  await expect(details.getByText('renamed it from “notes.txt”')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await screensInEachLook(page, 'webdav-lock-details');
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  // A new version asks first, from the versions panel and when an upload's name is the file's.
  await renamed.getByRole('button', { name: 'Actions for notes (reviewed).txt' }).click();
  await page.getByRole('menuitem', { name: 'Versions' }).click();
  const versions = page.getByRole('dialog', { name: /Versions of notes \(reviewed\)\.txt/ });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), versions.getByRole('button', { name: 'Upload a new version' }).click()]);
  await chooser.setFiles({ name: 'draft.txt', mimeType: 'text/plain', buffer: Buffer.from('From the browser\n') });
  const replacing = page.getByRole('dialog', { name: '“notes (reviewed).txt” is locked by Bob Builder (Finder)' });
  await replacing.getByRole('button', { name: 'Replace anyway' }).click();
  await expect(versions.getByRole('listitem', { name: 'Version 2, current' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(versions).toBeHidden();
  await page.getByLabel('Files to upload').setInputFiles({ name: 'notes (reviewed).txt', mimeType: 'text/plain', buffer: Buffer.from('Again\n') });
  await page.getByRole('dialog', { name: 'A file with this name already exists' }).getByRole('button', { name: 'Replace' }).click();
  await replacing.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog', { name: 'A file with this name already exists' }).getByRole('button', { name: 'Skip' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Bob's own browser: his lock, in his words, his to break.
  await bob.page.goto(page.url());
  const bobRow = bob.page.getByRole('table', { name: 'Contents of Workspace' }).getByRole('row', { name: /notes \(reviewed\)\.txt/ });
  await expect(bobRow.getByRole('img', { name: 'Locked by you (Finder)' })).toBeVisible();
  await bobRow.getByRole('button', { name: 'Actions for notes (reviewed).txt' }).click();
  await expect(bob.page.getByRole('menuitem', { name: 'Break lock' })).toBeVisible();
  await bob.page.keyboard.press('Escape');

  // The viewer's bar says it under the name, at every width.
  await renamed.getByRole('link', { name: 'notes (reviewed).txt', exact: true }).click();
  const viewer = page.getByTestId('file-viewer');
  await expect(viewer.getByRole('heading', { name: 'notes (reviewed).txt' })).toBeVisible();
  await expect(viewer.getByText('Locked by Bob Builder (Finder)')).toBeVisible();
  await expect(viewer.getByText('From the browser')).toBeVisible();
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(viewer.getByText('Locked by Bob Builder (Finder)')).toBeVisible();
    await expectNoHorizontalOverflow(page);
  }
  expect(await seriousViolations(page)).toEqual([]);
  await screensInEachLook(page, 'webdav-lock-viewer');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('Escape');
  await expect(list).toBeVisible();

  // Breaking it asks first; then the padlock goes, and Finder may write without its lock (its old token no longer holds).
  await renamed.getByRole('button', { name: 'Actions for notes (reviewed).txt' }).click();
  await page.getByRole('menuitem', { name: 'Break lock' }).click();
  const breaking = page.getByRole('dialog', { name: 'Break the lock on “notes (reviewed).txt”?' });
  await expect(breaking).toContainText('It is locked by Bob Builder (Finder).');
  expect(await seriousViolations(page)).toEqual([]);
  await screensInEachLook(page, 'webdav-lock-break');
  await breaking.getByRole('button', { name: 'Break lock' }).click();
  await expect(breaking).toBeHidden();
  await expect(renamed.getByRole('img', { name: /^Locked by/ })).toHaveCount(0);
  expect((await dav('PUT', 'notes (reviewed).txt', 'Saved after all\n')).status).toBe(204);
  // Bob's list hears of it too.
  await expect(bobRow.getByRole('img', { name: /^Locked by/ })).toHaveCount(0);
  await bob.context.close();
});
