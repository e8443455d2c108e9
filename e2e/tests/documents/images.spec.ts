import { expect, test } from '@playwright/test';
import { apiCall } from '../../fixtures/api.ts';
import { newPerson, signUp } from '../../fixtures/accounts.ts';
import { newDocument } from '../../fixtures/documents.ts';

test('an image from this computer goes into the document and shows for a reader it is shared with', async ({ browser }) => {
  const a = await browser.newContext();
  const page = await a.newPage();
  await signUp(page, newPerson('Ida Images'));
  const editor = await newDocument(page, 'Report');
  await page.keyboard.type('Sales went up:');
  await page.keyboard.press('Enter');

  // A picture drawn in the page, as a PNG file.
  const png = Buffer.from(
    (await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 120;
      canvas.height = 60;
      const c = canvas.getContext('2d')!;
      c.fillStyle = '#1c7ed6';
      c.fillRect(0, 0, 120, 60);
      return canvas.toDataURL('image/png');
    })).split(',')[1]!,
    'base64',
  );
  await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Image' }).click();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload from this computer' }).click()]);
  await chooser.setFiles({ name: 'sales chart.png', mimeType: 'image/png', buffer: png });
  const image = editor.getByRole('img', { name: 'sales chart' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

  const documentId = page.url().split('/d/')[1]!;
  const b = await browser.newContext();
  const reader = await b.newPage();
  const rita = await signUp(reader, newPerson('Rita Reader'));
  expect((await apiCall(page, 'POST', `/items/${documentId}/grants`, { principal: { type: 'user', email: rita.email }, role: 'viewer' })).status).toBe(201);
  await reader.goto(page.url());
  const seen = reader.getByLabel('Content of Report').getByRole('img', { name: 'sales chart' });
  await expect.poll(() => seen.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
  await a.close();
  await b.close();
});
