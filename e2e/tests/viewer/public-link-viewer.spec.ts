import { linksApi } from '@cabinet/contracts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { apiCall } from '../../fixtures/api.ts';
import { png } from '../../fixtures/files/make-files.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

test('a public folder link opens its files in the viewer, steps through them, and offers no download when the link forbids it', async ({ page, browser }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Press kit');
  await page.getByRole('button', { name: 'Create' }).click();
  const myFiles = page.getByRole('table', { name: 'Contents of My files' });
  await myFiles.getByRole('link', { name: 'Press kit' }).click();
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'a logo.png', mimeType: 'image/png', buffer: png(40, 30) },
    { name: 'b notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Embargoed until Monday.\n') },
    { name: 'c archive.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([1, 2, 3]) },
  ]);
  const list = page.getByRole('table', { name: 'Contents of Press kit' });
  await expect(list.getByRole('link', { name: 'c archive.bin' })).toBeVisible();
  const folderId = page.url().split('/f/')[1]!;
  const made = await apiCall(page, linksApi.create, { params: { id: folderId }, body: { kind: 'view', downloadAllowed: false } });
  expect(made.status).toBe(201);

  const v = await browser.newContext({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
  const visitor = await v.newPage();
  await visitor.goto(made.body.url!);
  await expect(visitor.getByRole('heading', { name: 'Press kit' })).toBeVisible();
  await visitor.getByRole('button', { name: 'Open a logo.png' }).click();
  const viewer = visitor.getByTestId('file-viewer');
  await expect(viewer.getByRole('heading', { level: 1, name: 'a logo.png' })).toBeVisible();
  await expect.poll(() => viewer.getByRole('img', { name: 'a logo.png' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
  await expect(viewer.getByRole('link', { name: 'Download' })).toHaveCount(0);
  expect(await seriousViolations(visitor)).toEqual([]);

  await visitor.keyboard.press('ArrowRight');
  await expect(viewer.getByRole('heading', { level: 1, name: 'b notes.txt' })).toBeVisible();
  await expect(viewer.getByRole('region', { name: 'Contents of b notes.txt' })).toContainText('Embargoed until Monday.');
  await viewer.getByRole('button', { name: 'Next file' }).click();
  await expect(viewer.getByRole('heading', { level: 1, name: 'c archive.bin' })).toBeVisible();
  await expect(viewer.getByText('Downloads are turned off for this link.')).toBeVisible();
  await visitor.screenshot({ path: 'test-results/screens/viewer-link-360-dark.png' });

  // Escape: the folder again.
  await visitor.keyboard.press('Escape');
  await expect(visitor.getByRole('button', { name: 'Open b notes.txt' })).toBeVisible();
  // Viewing is not downloading: the link counted none.
  const link = (await apiCall(page, linksApi.list, { params: { id: folderId } })).body.items[0]!;
  expect(link.downloads).toBe(0);
  await v.close();
});
