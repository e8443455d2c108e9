import { itemsApi, linksApi, type TWorkspace } from '@cabinet/contracts';
import type { Browser, Page } from '@playwright/test';
import { budgetXlsx, picturesDocx, reportDocx } from '../../../apps/server/src/testing/preview-files.ts';
import { twoColours } from '../../../apps/server/src/testing/test-images.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { apiCall } from '../../fixtures/api.ts';
import { uploadHere } from '../../fixtures/search.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';

/** Markdown that would run script if it were put in the page as HTML: each attempt would log "xss" or open a dialog. */
const HOSTILE_MARKDOWN = [
  '# Meeting notes',
  '<script>alert("xss")</script>',
  '<img src="x" onerror="console.log(\'xss img\')">',
  '[click me](javascript:console.log("xss link"))',
  '<svg onload="console.log(\'xss svg\')"></svg>',
  'The end.',
].join('\n\n');

/** Public links (view, downloads allowed) to each named file of the person's own folder. */
async function linksTo(page: Page, ws: TWorkspace, names: string[]): Promise<Record<string, string>> {
  const listed = (await apiCall(page, itemsApi.children, { params: { ws: ws.id, id: ws.homeId } })).body.items;
  const urls: Record<string, string> = {};
  for (const name of names) {
    const item = listed.find((i) => i.name === name);
    expect(item, name).toBeDefined();
    const link = await apiCall(page, linksApi.create, { params: { id: item!.id }, body: { kind: 'view' } });
    expect(link.status).toBe(201);
    urls[name] = link.body.url!;
  }
  return urls;
}

/** A visitor's browser, without an account, of a size and theme; it records any dialog and any console message that says "xss". */
async function visitorPage(browser: Browser, o: { width: number; height: number; dark: boolean }) {
  const context = await browser.newContext({ viewport: { width: o.width, height: o.height }, colorScheme: o.dark ? 'dark' : 'light' });
  const page = await context.newPage();
  const ran: string[] = [];
  page.on('dialog', (d) => {
    ran.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.text().includes('xss')) ran.push(`console: ${m.text()}`);
  });
  return { context, page, ran };
}

test('a public link shows a Word document and its pictures, a workbook with its sheet tabs, and Markdown with script as inert text, in both themes on a phone', async ({
  page,
  browser,
  workspace,
}) => {
  test.setTimeout(180_000);
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  await uploadHere(page, [
    { name: 'Report.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(await reportDocx()) },
    { name: 'Budget.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from(await budgetXlsx()) },
    { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from(HOSTILE_MARKDOWN) },
    { name: 'Broken.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from('not a zip at all') },
    {
      name: 'Site visit.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: Buffer.from(
        await picturesDocx([
          { name: 'site.png', bytes: await twoColours(1200, 600).png().toBuffer(), alt: 'The site from the north' },
          { url: 'https://tracker.example/pixel.png', alt: 'A linked picture' },
        ]),
      ),
    },
  ]);
  const urls = await linksTo(page, workspace, ['Report.docx', 'Budget.xlsx', 'notes.md', 'Broken.docx', 'Site visit.docx']);

  // On a phone, where the pages have least room; each accessibility check covers both themes. The Word documents and
  // the workbook are checked at 1280 px too (`onDesktop`), the page then put back on the phone.
  const view = { width: 360, height: 740, dark: true };
  const { context, page: visitor, ran } = await visitorPage(browser, view);
  const onDesktop = async (check?: () => Promise<void>) => {
    await visitor.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await check?.();
    expect(await seriousViolations(visitor)).toEqual([]);
    await visitor.setViewportSize({ width: view.width, height: view.height });
  };

  // The Word document: its heading, its bold text and its table, in the page's own typography.
  await visitor.goto(urls['Report.docx']!);
  const doc = visitor.getByRole('region', { name: 'Contents of Report.docx' });
  await expect(doc.getByRole('heading', { name: 'Quarterly report' })).toBeVisible();
  await expect(doc.locator('strong')).toHaveText('All is well.');
  await expect(doc.getByRole('table').getByRole('cell', { name: 'North' })).toBeVisible();
  await expect(doc.getByRole('table').getByRole('cell', { name: '1200' })).toBeVisible();
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
  expect(await seriousViolations(visitor)).toEqual([]);
  await onDesktop();
  await screensInEachLook(visitor, 'conversions-docx', { fullPage: true });

  // A Word document's picture, drawn from the WebP the server made of it, no wider than the column; a linked one is its description.
  await visitor.goto(urls['Site visit.docx']!);
  const visit = visitor.getByRole('region', { name: 'Contents of Site visit.docx' });
  const picture = visit.getByRole('img', { name: 'The site from the north' });
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
  expect(await picture.evaluate((img: HTMLImageElement) => img.getBoundingClientRect().right)).toBeLessThanOrEqual(view.width);
  await expect(visit).toContainText('[Picture: A linked picture]');
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
  expect(await seriousViolations(visitor)).toEqual([]);
  await onDesktop(async () => {
    const column = await visit.evaluate((el) => el.getBoundingClientRect().right);
    expect(await picture.evaluate((img: HTMLImageElement) => img.getBoundingClientRect().right)).toBeLessThanOrEqual(column);
  });
  await screensInEachLook(visitor, 'conversions-docx-pictures', { fullPage: true });

  // The workbook: its sheets as tabs; the arrow keys move to the next sheet, which shows its rows.
  await visitor.goto(urls['Budget.xlsx']!);
  const tabs = visitor.getByRole('tablist', { name: 'Sheets of Budget.xlsx' });
  const budget = tabs.getByRole('tab', { name: 'Budget' });
  await expect(budget).toHaveAttribute('aria-selected', 'true');
  const sheet = visitor.getByRole('region', { name: 'Sheet Budget, scrollable' });
  await expect(sheet.getByRole('columnheader', { name: 'D' })).toBeVisible();
  await expect(sheet.getByRole('row', { name: /Paper/ })).toContainText('2024-01-05');
  await expect(sheet.getByRole('row', { name: /Paper/ })).toContainText('0.3');
  expect(await seriousViolations(visitor)).toEqual([]);
  await onDesktop();
  await screensInEachLook(visitor, 'conversions-xlsx', { fullPage: true });
  await budget.focus();
  await visitor.keyboard.press('ArrowRight');
  const people = tabs.getByRole('tab', { name: 'People' });
  await expect(people).toHaveAttribute('aria-selected', 'true');
  await expect(people).toBeFocused();
  await expect(visitor.getByRole('region', { name: 'Sheet People, scrollable' }).getByRole('cell', { name: 'Engines' })).toBeVisible();
  await visitor.keyboard.press('ArrowLeft');
  await expect(budget).toHaveAttribute('aria-selected', 'true');
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);

  // Markdown with script in it: the script shows as text and nothing of it runs.
  await visitor.goto(urls['notes.md']!);
  const notes = visitor.getByRole('region', { name: 'Contents of notes.md' });
  await expect(notes.getByRole('heading', { name: 'Meeting notes' })).toBeVisible();
  await expect(notes).toContainText('<script>alert("xss")</script>');
  await expect(notes).toContainText('The end.');
  await expect(notes.locator('script, img, svg, [onerror], [onload]')).toHaveCount(0);
  await expect(notes.getByRole('link')).toHaveCount(0);
  await notes.getByText('click me').click();
  expect(await seriousViolations(visitor)).toEqual([]);
  await screensInEachLook(visitor, 'conversions-markdown', { fullPage: true });
  expect(ran).toEqual([]);

  // A file that is not what its name says: why it is not shown, and its Download (in the card and the viewer's bar).
  await visitor.goto(urls['Broken.docx']!);
  const card = visitor.getByTestId('no-preview');
  await expect(card.getByText('No preview of this file')).toBeVisible();
  await expect(card.getByText('This file cannot be shown: it is not a Word document.')).toBeVisible();
  await expect(card.getByRole('link', { name: 'Download' })).toBeVisible();
  expect(await seriousViolations(visitor)).toEqual([]);
  await context.close();
});

test('a workbook being converted says so over the shape of its table, then shows it', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByLabel('Files to upload').setInputFiles({
    name: 'Budget.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(await budgetXlsx()),
  });
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('link', { name: 'Budget.xlsx' })).toBeVisible();
  // The server's answer is held back until the page has been looked at, as a large workbook's first conversion takes seconds.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/preview/sheets**', async (route) => {
    await held;
    await route.continue();
  });
  await list.getByRole('link', { name: 'Budget.xlsx' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Preparing the preview of Budget.xlsx…' })).toBeVisible();
  release();
  await expect(page.getByRole('tablist', { name: 'Sheets of Budget.xlsx' })).toBeVisible();
  await expect(page.getByText('Preparing the preview of Budget.xlsx…')).toBeHidden();
});
