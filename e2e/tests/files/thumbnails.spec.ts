import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { expect, test } from '../../fixtures/signed-in.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { screen } from '../../fixtures/screens.ts';

/** A photo made on the spot: 1600 × 1200, a sky over a field, with a sun. */
async function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2b6cb0"/><stop offset="1" stop-color="#bee3f8"/></linearGradient></defs>
    <rect width="1600" height="800" fill="url(#sky)"/><rect y="800" width="1600" height="400" fill="#2f855a"/>
    <circle cx="1200" cy="300" r="140" fill="#f6e05e"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

test('the grid shows real thumbnails of a photo, a HEIC photo and a video, the details panel a preview, and the viewer the pictures Cabinet made', async ({
  page,
}) => {
  // A long walk: three kinds of preview made, a video played.
  test.setTimeout(240_000);
  // Two seconds of ffmpeg's test pattern as WebM (VP8): ffmpeg is what makes video thumbnails (ADR 0040; .ci/run installs it).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-e2e-video-'));
  const clip = path.join(dir, 'clip.webm');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-t', '2', '-c:v', 'libvpx', clip]);
  const heic = readFileSync(fileURLToPath(new URL('../../../apps/server/src/modules/previews/fixtures/tiny.heic', import.meta.url)));

  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Holiday');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'Holiday' }).click();
  await expect(page.getByRole('heading', { name: 'Holiday', level: 1 })).toBeVisible();
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'field.jpg', mimeType: 'image/jpeg', buffer: await photo() },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('no picture here') },
    // Browsers cannot read HEIC: the viewer shows the picture Cabinet made of it.
    { name: 'phone photo.heic', mimeType: 'image/heic', buffer: heic },
    { name: 'test pattern.webm', mimeType: 'video/webm', buffer: readFileSync(clip) },
  ]);
  rmSync(dir, { recursive: true, force: true });
  await expect(page.getByRole('table', { name: 'Contents of Holiday' }).getByRole('link', { name: 'field.jpg' })).toBeVisible();
  await page.getByRole('radiogroup', { name: 'View' }).getByText('Grid').click();
  const grid = page.getByRole('grid', { name: 'Contents of Holiday' });
  // The thumbnail arrives by the live stream once made: no reload.
  const thumb = grid.getByRole('img', { name: 'Thumbnail of field.jpg' });
  await expect(thumb).toBeVisible({ timeout: 60_000 });
  await expect(thumb).toHaveAttribute('src', /\/api\/v1\/items\/[0-9a-f-]+\/thumbnail\?size=256&v=[0-9a-f]{16}$/);
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);
  expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(192);
  // The text file keeps its type's icon.
  await expect(
    grid
      .getByRole('gridcell')
      .filter({ hasText: 'notes.txt' })
      .getByRole('img', { name: /Thumbnail/ }),
  ).toHaveCount(0);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);
      await screen(page, `thumbnails-grid-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });

  await grid.getByRole('button', { name: 'Actions for field.jpg' }).click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'field.jpg' });
  const preview = details.getByRole('img', { name: 'Thumbnail of field.jpg' });
  await expect(preview).toHaveAttribute('src', /thumbnail\?size=1024&v=[0-9a-f]{16}$/);
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1024);
  expect(await seriousViolations(page)).toEqual([]);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await screen(page, `thumbnails-details-${width}-${scheme}`);
    }
  }
  await page.keyboard.press('Escape');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The HEIC photo: once its thumbnail is in the grid (the previews are made), the viewer has its picture too.
  const heicThumb = grid.getByRole('img', { name: 'Thumbnail of phone photo.heic' });
  await expect(heicThumb).toBeVisible({ timeout: 30_000 });
  await grid.getByRole('link', { name: 'phone photo.heic' }).click();
  const picture = page.getByRole('img', { name: 'phone photo.heic', exact: true });
  await expect(picture).toHaveAttribute('src', /\/thumbnail\?size=1024/);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await page.keyboard.press('Escape');

  // The video: a thumbnail from one of its frames, which is also its poster in the viewer, where it plays.
  const videoThumb = grid.getByRole('img', { name: 'Thumbnail of test pattern.webm' });
  await expect(videoThumb).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => videoThumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await grid.getByRole('link', { name: 'test pattern.webm' }).click();
  const video = page.getByLabel('Video test pattern.webm');
  await expect(video).toHaveAttribute('poster', /\/thumbnail\?size=1024/);
  // The browser reads its length from the signed URL by ranges, and it plays.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(2);
  await video.evaluate((v: HTMLVideoElement) => v.play());
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);
  await page.keyboard.press('Escape');

  // The list shows the same pictures in its rows.
  await page.getByRole('radiogroup', { name: 'View' }).getByText('List').click();
  const list = page.getByRole('table', { name: 'Contents of Holiday' });
  for (const name of ['phone photo.heic', 'test pattern.webm']) {
    const rowThumb = list.getByRole('row', { name: new RegExp(name.replace('.', '\\.')) }).locator('img[src*="/thumbnail"]');
    await expect(rowThumb, name).toBeVisible();
    await expect.poll(() => rowThumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  }
});

test('a thumbnail made after the file was listed shows in the grid, the open details panel and the viewer’s details, without a reload', async ({
  page,
  browser,
  account,
  workspace,
}) => {
  // Two files whose bytes have no picture yet: each gets one later, as a new version sent from another window.
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'poster.png', mimeType: 'image/png', buffer: Buffer.from('the picture comes later') },
    { name: 'map.png', mimeType: 'image/png', buffer: Buffer.from('so does this one') },
  ]);
  await expect(page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'map.png' })).toBeVisible();
  await page.getByRole('radiogroup', { name: 'View' }).getByText('Grid').click();
  const grid = page.getByRole('grid', { name: 'Contents of My files' });
  await grid.getByRole('button', { name: 'Actions for poster.png' }).click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'poster.png' });
  await expect(details.getByRole('img', { name: 'Thumbnail of poster.png' })).toHaveCount(0);

  const w = await browser.newContext({ storageState: account.storageState });
  const other = await w.newPage();
  const newVersion = async (name: string, picture: Buffer) => {
    await other.goto(`/w/${workspace.slug}`);
    await other.getByRole('link', { name: 'My files' }).click();
    await other.getByRole('button', { name: `Actions for ${name}` }).click();
    await other.getByRole('menuitem', { name: 'Versions' }).click();
    const panel = other.getByRole('dialog', { name: new RegExp(`Versions of ${name.replace('.', '\\.')}`) });
    const [chooser] = await Promise.all([other.waitForEvent('filechooser'), panel.getByRole('button', { name: 'Upload a new version' }).click()]);
    await chooser.setFiles({ name, mimeType: 'image/png', buffer: picture });
    await expect(panel.getByRole('listitem', { name: 'Version 2, current' })).toBeVisible();
  };

  await newVersion(
    'poster.png',
    await sharp({ create: { width: 600, height: 400, channels: 3, background: '#c05621' } })
      .png()
      .toBuffer(),
  );
  // The grid's card and the details panel left open both draw the picture once it is made.
  await expect(grid.getByRole('img', { name: 'Thumbnail of poster.png' })).toHaveAttribute('src', /thumbnail\?size=256&v=[0-9a-f]{16}$/, { timeout: 30_000 });
  const preview = details.getByRole('img', { name: 'Thumbnail of poster.png' });
  await expect(preview).toHaveAttribute('src', /thumbnail\?size=1024&v=[0-9a-f]{16}$/);
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(600);
  await page.keyboard.press('Escape');

  // The viewer's details panel, open on a file as it gets its picture.
  await grid.getByRole('link', { name: 'map.png' }).click();
  const viewer = page.getByTestId('file-viewer');
  await viewer.getByRole('button', { name: 'Details' }).click();
  const viewerDetails = page.getByRole('dialog', { name: 'map.png' });
  await expect(viewerDetails.getByRole('table', { name: 'Details' })).toBeVisible();
  await expect(viewerDetails.getByRole('img', { name: 'Thumbnail of map.png' })).toHaveCount(0);
  await newVersion(
    'map.png',
    await sharp({ create: { width: 300, height: 500, channels: 3, background: '#2c7a7b' } })
      .png()
      .toBuffer(),
  );
  const mapPreview = viewerDetails.getByRole('img', { name: 'Thumbnail of map.png' });
  await expect(mapPreview).toHaveAttribute('src', /thumbnail\?size=1024&v=[0-9a-f]{16}$/, { timeout: 30_000 });
  await expect.poll(() => mapPreview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(300);
  await w.close();
});
