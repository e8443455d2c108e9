import { grantsApi, linksApi } from '@cabinet/contracts';
import type { Locator, Page } from '@playwright/test';
import { apiCall } from '../../fixtures/api.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

/** Draws a 120×60 picture in the page and puts it into the document from "this computer", as a PNG file; answers the picture in the editor. */
async function insertPicture(page: Page, editor: Locator, name: string): Promise<Locator> {
  const png = Buffer.from(
    (
      await page.evaluate(() => {
        const canvas = document.createElement('canvas');
        canvas.width = 120;
        canvas.height = 60;
        const c = canvas.getContext('2d')!;
        c.fillStyle = '#1c7ed6';
        c.fillRect(0, 0, 120, 60);
        return canvas.toDataURL('image/png');
      })
    ).split(',')[1]!,
    'base64',
  );
  await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Image' }).click();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload from this computer' }).click()]);
  await chooser.setFiles({ name: `${name}.png`, mimeType: 'image/png', buffer: png });
  const image = editor.getByRole('img', { name });
  await expect(image).toBeVisible();
  return image;
}

test('an image and a file from this computer go into the document and reach a reader it is shared with', async ({ page, browser }) => {
  const editor = await newDocument(page, 'Report');
  await page.keyboard.type('Sales went up:');
  await page.keyboard.press('Enter');

  const image = await insertPicture(page, editor, 'sales chart');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
  // Any other file becomes a link that downloads it.
  await page.keyboard.press('End');
  const [files] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Attach file' }).click(),
  ]);
  await files.setFiles({ name: 'figures.csv', mimeType: 'text/csv', buffer: Buffer.from('month,sales\njan,10\n') });
  const attachment = editor.getByRole('link', { name: 'figures.csv' });
  await expect(attachment).toHaveAttribute('href', /\/api\/v1\/items\/[0-9a-f-]+\/content\?download=1$/);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

  const documentId = page.url().split('/d/')[1]!;
  const { context: b, page: reader, user: rita } = await signUpInNewBrowser(browser, 'Rita Reader');
  expect(
    (await apiCall(page, grantsApi.create, { params: { id: documentId }, body: { principal: { type: 'user', id: rita.id }, role: 'viewer' } })).status,
  ).toBe(201);
  await reader.goto(page.url());
  const seen = reader.getByLabel('Content of Report').getByRole('img', { name: 'sales chart' });
  await expect.poll(() => seen.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
  const href = await reader.getByLabel('Content of Report').getByRole('link', { name: 'figures.csv' }).getAttribute('href');
  const download = await reader.request.get(new URL(href!, reader.url()).href);
  expect(await download.text()).toBe('month,sales\njan,10\n');
  await b.close();
});

test("a document's picture shows to the visitor of a password link, in the sandboxed frame that sends no session or cookie", async ({ page, browser }) => {
  const editor = await newDocument(page, 'Brochure');
  await page.keyboard.type('Our new shop:');
  await page.keyboard.press('Enter');
  const image = await insertPicture(page, editor, 'shop front');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  const documentId = page.url().split('/d/')[1]!;
  const link = await apiCall(page, linksApi.create, { params: { id: documentId }, body: { kind: 'view', password: 'sunny figures', downloadAllowed: false } });
  expect(link.status).toBe(201);

  const v = await browser.newContext();
  const visitor = await v.newPage();
  await visitor.goto(link.body.url!);
  await visitor.getByRole('textbox', { name: 'Password' }).fill('sunny figures');
  await visitor.getByRole('button', { name: 'Open' }).click();
  await expect(visitor.getByRole('heading', { name: 'Brochure' })).toBeVisible();
  const shown = visitor.frameLocator('iframe[title="Document Brochure"]').getByRole('img', { name: 'shop front' });
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
  // The page and the document in its frame, in both themes.
  expect(await seriousViolations(visitor)).toEqual([]);
  await v.close();
});
