import { pdf } from '../../fixtures/files/make-files.ts';
import type { Route } from '@playwright/test';
import { expect, test } from '../../fixtures/signed-in.ts';

/** What the PDF's pages take beside an uncompressed stream no page uses: the file is large, page 1 is not. */
const PADDING = 12 * 1024 * 1024;

test('draws page 1 of a large PDF from a few Range requests, never downloading the file', { tag: '@s3' }, async ({ page }) => {
  const big = pdf(3, PADDING);
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByLabel('Files to upload').setInputFiles({ name: 'large report.pdf', mimeType: 'application/pdf', buffer: big });
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('row', { name: /large report\.pdf/ })).toContainText('12 MiB', { timeout: 60_000 });

  // Every request for the file's bytes, wherever they are stored (Cabinet's own signed path, or the bucket).
  const reads: { range: string | undefined; status: number; bytes: number }[] = [];
  page.on('response', async (res) => {
    const url = res.url();
    if (!url.includes('/storage/blob') && !url.includes('X-Amz-Signature')) return;
    if (res.request().method() !== 'GET') return;
    const body = await res.body().catch(() => Buffer.alloc(0));
    reads.push({ range: (await res.request().headerValue('range')) ?? undefined, status: res.status(), bytes: body.length });
  });

  await list.getByRole('link', { name: 'large report.pdf' }).click();
  const first = page.getByTestId('file-viewer').locator('[data-page="1"][data-drawn]');
  await expect(first).toBeVisible();
  await expect(first.locator('.textLayer')).toContainText('The orchard report, part 1 of 3.');

  expect(reads.length).toBeGreaterThan(0);
  for (const read of reads) {
    expect(read.range, 'every read asks for a range').toMatch(/^bytes=\d+-\d+$/);
    expect(read.status, 'and gets that range alone').toBe(206);
  }
  const fetched = reads.reduce((sum, r) => sum + r.bytes, 0);
  expect(fetched, `${fetched} bytes of ${big.length}`).toBeLessThan(2 * 1024 * 1024);
  console.log(`pdf-ranges: ${reads.length} range requests, ${fetched} of ${big.length} bytes before page 1 was drawn`);
});

test("shows the picture Cabinet made of page 1 while the PDF's own reads are on their way, then draws the page over it", async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByLabel('Files to upload').setInputFiles({ name: 'plan.pdf', mimeType: 'application/pdf', buffer: pdf(2, 0) });
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('row', { name: /plan\.pdf/ })).toBeVisible({ timeout: 60_000 });

  // The file's bytes held back (Cabinet's signed path, or the bucket), as on a slow link to a large PDF.
  const held: Route[] = [];
  let holding = true;
  await page.route(/\/storage\/blob|X-Amz-Signature/, (route) => (holding ? void held.push(route) : route.continue()));
  await list.getByRole('link', { name: 'plan.pdf' }).click();
  const viewer = page.getByTestId('file-viewer');
  // The picture is there once its preview is made (the viewer asks again while it is pending).
  const picture = viewer.getByRole('img', { name: 'Page 1 of plan.pdf' });
  await expect(picture).toBeVisible({ timeout: 60_000 });
  await expect(viewer.locator('[data-page-picture][data-drawn]')).toBeVisible();
  await expect(viewer.locator('[data-page="1"]')).toHaveCount(0);

  holding = false;
  for (const route of held) await route.continue();
  const first = viewer.locator('[data-page="1"][data-drawn]');
  await expect(first.locator('.textLayer')).toContainText('The orchard report, part 1 of 2.');
  await expect(picture).toHaveCount(0);
});
