import { itemsApi, linksApi } from '@cabinet/contracts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { apiCall } from '../../fixtures/api.ts';
import { png } from '../../fixtures/files/make-files.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screen } from '../../fixtures/screens.ts';

test('a public folder link opens its files in the viewer, steps through them, and offers no download when the link forbids it', async ({
  page,
  browser,
  workspace,
}) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Press kit');
  await page.getByRole('button', { name: 'Create' }).click();
  const myFiles = page.getByRole('table', { name: 'Contents of My files' });
  await myFiles.getByRole('link', { name: 'Press kit' }).click();
  // The folder's own page (and its upload field) before the files are chosen.
  await expect(page.getByRole('heading', { name: 'Press kit', level: 1 })).toBeVisible();
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'a logo.png', mimeType: 'image/png', buffer: png(40, 30) },
    { name: 'b notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Embargoed until Monday.\n') },
    { name: 'c archive.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([1, 2, 3]) },
  ]);
  const list = page.getByRole('table', { name: 'Contents of Press kit' });
  await expect(list.getByRole('link', { name: 'c archive.bin' })).toBeVisible();
  const folderId = page.url().split('/f/')[1]!;
  await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'document', name: 'd brief', parentId: folderId } });
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
  await screen(visitor, 'viewer-link-360-dark');

  // Escape: the folder again.
  await visitor.keyboard.press('Escape');
  await expect(visitor.getByRole('button', { name: 'Open b notes.txt' })).toBeVisible();
  // A document is read on the page, with no download.
  await visitor.getByRole('button', { name: 'Open d brief' }).click();
  await expect(visitor.getByTitle('Document d brief')).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Download' })).toHaveCount(0);
  // Viewing is not downloading: the link counted none.
  const link = (await apiCall(page, linksApi.list, { params: { id: folderId } })).body.items[0]!;
  expect(link.downloads).toBe(0);
  await v.close();
});

test("a public folder link's listing shows each picture's thumbnail, fetched through the link", async ({ page, browser }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Gallery');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'Gallery' }).click();
  await expect(page.getByRole('heading', { name: 'Gallery', level: 1 })).toBeVisible();
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'sunset.png', mimeType: 'image/png', buffer: png(300, 200) },
    { name: 'readme.txt', mimeType: 'text/plain', buffer: Buffer.from('Pictures of the harbour.\n') },
  ]);
  await expect(page.getByRole('table', { name: 'Contents of Gallery' }).getByRole('link', { name: 'readme.txt' })).toBeVisible();
  const folderId = page.url().split('/f/')[1]!;
  const made = await apiCall(page, linksApi.create, { params: { id: folderId }, body: { kind: 'view', downloadAllowed: false } });
  expect(made.status).toBe(201);
  const token = made.body.url!.split('/s/')[1]!;

  for (const [width, colorScheme] of [
    [1280, 'light'],
    [360, 'dark'],
  ] as const) {
    const v = await browser.newContext({ viewport: { width, height: 740 }, colorScheme });
    const visitor = await v.newPage();
    await visitor.goto(made.body.url!);
    await expect(visitor.getByRole('heading', { name: 'Gallery' })).toBeVisible();
    const row = (name: string) => visitor.getByRole('row').filter({ has: visitor.getByRole('button', { name: `Open ${name}` }) });
    // Drawn once made (the page asks again while it is being made): the link's own thumbnail route, named by the bytes.
    const thumb = row('sunset.png').locator('img');
    await expect(thumb).toHaveAttribute('src', new RegExp(`^/api/v1/links/${token}/items/[0-9a-f-]+/thumbnail\\?size=256&v=[0-9a-f]{16}$`), {
      timeout: 30_000,
    });
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);
    await expect(row('readme.txt').locator('img')).toHaveCount(0);
    expect(await seriousViolations(visitor)).toEqual([]);
    await screen(visitor, `link-listing-thumbnails-${width}-${colorScheme}`);
    await v.close();
  }
  // Showing thumbnails is not downloading.
  const link = (await apiCall(page, linksApi.list, { params: { id: folderId } })).body.items[0]!;
  expect(link.downloads).toBe(0);
});
