import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { filesApi, itemsApi, linksApi, publicLinksApi, urlOf } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { openShareDialog } from '../../fixtures/sharing.ts';

function tempFile(name: string, text: string | Buffer): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cabinet-e2e-request-')), name);
  writeFileSync(file, text);
  return file;
}

test('an owner asks for files with a password; a visitor without an account sends one and sees nothing else; the owner finds it in the folder', async ({
  page,
  browser,
  person,
  workspace,
}) => {
  const folder = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Applications', parentId: workspace.homeId } })
  ).body;
  await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'document', name: 'Shortlist', parentId: folder.id } });

  // Olive makes a file request with a password from the folder's Share dialog.
  const dialog = await openShareDialog(page, workspace, 'Applications');
  await expect(dialog.getByRole('checkbox', { name: 'Allow downloads' })).toBeVisible();
  await dialog.getByRole('radio', { name: 'File request' }).check();
  await expect(dialog.getByRole('checkbox', { name: 'Allow downloads' })).toHaveCount(0);
  await expect(dialog.getByText(/can upload files into “Applications”/)).toBeVisible();
  await dialog.getByLabel('Link password (optional)').fill('blue harbour');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const row = dialog.getByRole('list', { name: 'Links to this item' }).getByRole('listitem', { name: 'Link 1' });
  await expect(row.getByText('File request', { exact: true })).toBeVisible();
  await expect(row.getByText('0 views · 0 uploads')).toBeVisible();
  await expect(row.getByRole('switch', { name: 'Link 1 allows downloads' })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  const link = (await apiCall(page, linksApi.list, { params: { id: folder.id } })).body.items[0]!;
  const url = link.url!;
  expect(link.kind).toBe('file_request');

  // A visitor on a phone, in the dark theme, with no account: the password first.
  const v = await browser.newContext({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
  const visitor = await v.newPage();
  // Playwright takes the file picker over only once asked to, and a key press can outrun the asking:
  // asked here, long before the key that opens it.
  const picker = visitor.waitForEvent('filechooser', { timeout: 0 });
  await visitor.goto(url);
  await expect(visitor.getByRole('heading', { name: 'This link is protected' })).toBeVisible();
  await visitor.getByRole('textbox', { name: 'Password' }).fill('blue harbour');
  await visitor.getByRole('button', { name: 'Open' }).click();
  await expect(visitor.getByRole('heading', { name: 'Applications', level: 1 })).toBeVisible();
  await expect(visitor.getByText(`${person.name} asks you for files.`, { exact: false })).toBeVisible();
  // Nothing of the folder is shown, and asking for its listing is refused.
  await expect(visitor.getByText('Shortlist')).toHaveCount(0);
  await expect(visitor.getByRole('table')).toHaveCount(0);
  const token = url.split('/s/')[1]!;
  const listing = await visitor.evaluate(async (u) => (await fetch(u)).status, urlOf(publicLinksApi.item, { token, itemId: folder.id }));
  expect(listing).toBe(403);
  await expect(visitor.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(await seriousViolations(visitor)).toEqual([]);

  // A file chosen from the keyboard: the button opens the picker.
  await visitor.getByRole('button', { name: 'Choose files' }).focus();
  await expect(visitor.getByRole('button', { name: 'Choose files' })).toBeFocused();
  await visitor.keyboard.press('Enter');
  const chooser = await picker;
  await chooser.setFiles(tempFile('cover letter.txt', 'Dear Olive,\nplease find my application.\n'));
  const sent = visitor.getByRole('list', { name: 'Files you sent' });
  await expect(sent.getByText('cover letter.txt')).toBeVisible({ timeout: 30_000 });
  await expect(visitor.getByRole('list', { name: 'Uploads in progress' })).toHaveCount(0);
  expect(await seriousViolations(visitor)).toEqual([]);

  // After a reload the browser still lists what it sent.
  await visitor.reload();
  await expect(visitor.getByRole('list', { name: 'Files you sent' }).getByText('cover letter.txt')).toBeVisible();
  await v.close();

  // Olive sees the upload counted, and the file in the folder.
  await expect(row.getByText('1 view · 1 upload')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'Applications' }).first().click();
  await expect(page.getByRole('heading', { name: 'Applications', level: 1 })).toBeVisible();
  await expect(page.getByText('cover letter.txt')).toBeVisible();
});

test("a visitor's upload in parts resumes after a reload once the same file is chosen again, sending only the parts it lacked", async ({
  page,
  browser,
  workspace,
}) => {
  const folder = (await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Scans', parentId: workspace.homeId } }))
    .body;
  const url = (await apiCall(page, linksApi.create, { params: { id: folder.id }, body: { kind: 'file_request' } })).body.url!;
  const token = url.split('/s/')[1]!;
  // Parts of 5 MiB on the test server: three of them.
  const bytes = randomBytes(12 * 1024 * 1024 + 5);
  const file = tempFile('scan.bin', bytes);

  const v = await browser.newContext();
  const visitor = await v.newPage();
  await visitor.goto(url);
  await expect(visitor.getByRole('heading', { name: 'Scans', level: 1 })).toBeVisible();
  // A part PUT (to Cabinet on local storage, to the bucket on S3) and its number.
  const isPart = (url: URL) => url.pathname.startsWith('/storage/parts/') || url.searchParams.has('partNumber');
  const partOf = (url: string) => Number(new URL(url).searchParams.get('partNumber') ?? new URL(url).pathname.split('/').at(-1));
  // One part goes through; then the network drops.
  let through: number | undefined;
  await visitor.route(isPart, async (route) => {
    if (through === undefined) {
      through = partOf(route.request().url());
      await route.continue();
    } else await route.abort('internetdisconnected');
  });
  const [chooser] = await Promise.all([visitor.waitForEvent('filechooser'), visitor.getByRole('button', { name: 'Choose files' }).click()]);
  await chooser.setFiles(file);
  // The upload this browser keeps to resume, and the part the server holds of it.
  const openUpload = () =>
    visitor.evaluate((key) => (JSON.parse(localStorage.getItem(key) ?? '{}') as { open?: { id: string }[] }).open?.[0]?.id, `cabinet:file-request:${token}`);
  await expect.poll(openUpload).toBeTruthy();
  const uploadId = (await openUpload())!;
  // The upload is kept before its first part is sent: the part let through is known once it is.
  await expect.poll(() => through).toBeDefined();
  const storedParts = async () => (await apiCall(visitor, publicLinksApi.upload, { params: { token, uploadId } })).body.parts.map((p) => p.partNumber);
  await expect.poll(storedParts, { timeout: 20_000 }).toEqual([through]);

  await visitor.reload();
  await visitor.unroute(isPart);
  const sentAfter: number[] = [];
  await visitor.route(isPart, async (route) => {
    sentAfter.push(partOf(route.request().url()));
    await route.continue();
  });
  const inProgress = visitor.getByRole('list', { name: 'Uploads in progress' });
  await expect(inProgress.getByText('Choose the file again to resume')).toBeVisible();
  // What the server holds as the file is chosen again (the resumed upload reads the same).
  expect(await storedParts()).toEqual([through]);
  const [again] = await Promise.all([visitor.waitForEvent('filechooser'), inProgress.getByRole('button', { name: 'Choose “scan.bin” to resume' }).click()]);
  await again.setFiles(file);
  await expect(visitor.getByRole('list', { name: 'Files you sent' }).getByText('scan.bin')).toBeVisible({ timeout: 30_000 });
  await expect(inProgress).toHaveCount(0);
  // Only the parts the server lacked were sent again.
  expect(sentAfter.sort()).toEqual([1, 2, 3].filter((n) => n !== through));
  await v.close();

  // The owner finds one file, with the visitor's bytes.
  const children = (await apiCall(page, itemsApi.children, { params: { ws: workspace.id, id: folder.id } })).body.items;
  expect(children.map((c) => c.name)).toEqual(['scan.bin']);
  const stored = await page.request.get(urlOf(filesApi.content, { id: children[0]!.id }));
  expect(
    createHash('sha256')
      .update(await stored.body())
      .digest('hex'),
  ).toBe(createHash('sha256').update(bytes).digest('hex'));
});

test('an owner caps a file request’s total; a visitor sends a folder, which arrives with its subfolders, and sees what is left', async ({
  page,
  browser,
  workspace,
}) => {
  const folder = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Photo drop', parentId: workspace.homeId } })
  ).body;
  const dialog = await openShareDialog(page, workspace, 'Photo drop');
  await dialog.getByRole('radio', { name: 'File request' }).check();
  await dialog.getByRole('textbox', { name: 'Maximum total size' }).fill('2');
  await dialog.getByRole('combobox', { name: 'Unit of maximum total size' }).selectOption('MiB');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const row = dialog.getByRole('list', { name: 'Links to this item' }).getByRole('listitem', { name: 'Link 1' });
  await expect(row.getByText('0 views · 0 uploads · 0 B of 2 MiB sent')).toBeVisible();
  const url = (await apiCall(page, linksApi.list, { params: { id: folder.id } })).body.items[0]!.url!;

  const album = path.join(mkdtempSync(path.join(os.tmpdir(), 'cabinet-e2e-request-dir-')), 'Album');
  mkdirSync(path.join(album, 'Day 1'), { recursive: true });
  writeFileSync(path.join(album, 'cover.txt'), 'cover');
  writeFileSync(path.join(album, 'Day 1', 'photo.txt'), 'a photo, in words');
  const v = await browser.newContext();
  const visitor = await v.newPage();
  await visitor.goto(url);
  await expect(visitor.getByText('2 MiB left', { exact: false })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Choose folder' })).toBeVisible();
  await visitor.getByLabel('Folder to upload').setInputFiles(album);
  const sent = visitor.getByRole('list', { name: 'Files you sent' });
  await expect(sent.getByText('photo.txt')).toBeVisible({ timeout: 30_000 });
  await expect(sent.getByText('cover.txt')).toBeVisible();
  await v.close();

  // The folder arrived whole in the request's folder, and the link counts its bytes.
  const children = async (id: string) => (await apiCall(page, itemsApi.children, { params: { ws: workspace.id, id } })).body.items;
  const [made] = await children(folder.id);
  expect(made).toMatchObject({ name: 'Album', kind: 'folder' });
  const inAlbum = await children(made!.id);
  expect(inAlbum.map((c) => c.name)).toEqual(['Day 1', 'cover.txt']);
  expect((await children(inAlbum[0]!.id)).map((c) => c.name)).toEqual(['photo.txt']);
  await expect(row.getByText('1 view · 2 uploads · 22 B of 2 MiB sent')).toBeVisible();
});
