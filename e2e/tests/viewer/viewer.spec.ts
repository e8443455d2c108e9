import type { Page } from '@playwright/test';
import { itemsApi } from '@cabinet/contracts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { apiCall } from '../../fixtures/api.ts';
import { png, pdf, wav } from '../../fixtures/files/make-files.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screen } from '../../fixtures/screens.ts';

const FILES = [
  { name: '1 photo.png', mimeType: 'image/png', buffer: png(64, 48) },
  { name: '2 report.pdf', mimeType: 'application/pdf', buffer: pdf(3) },
  { name: '3 notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Plain notes\nsecond line of the notes\n') },
  { name: '4 code.ts', mimeType: 'video/mp2t', buffer: Buffer.from('export function greet(name: string): string {\n  return `hello ${name}`;\n}\n') },
  { name: '5 tone.wav', mimeType: 'audio/wav', buffer: wav() },
  { name: '6 data.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0, 1, 2, 3, 4, 5]) },
];

/** A folder "Viewer" in My files with one file of each kind, its list on screen. */
async function folderOfFiles(page: Page) {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Viewer');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'Viewer' }).click();
  await expect(page.getByRole('heading', { name: 'Viewer', level: 1 })).toBeVisible();
  const folderUrl = page.url();
  await page.getByLabel('Files to upload').setInputFiles(FILES);
  const list = page.getByRole('table', { name: 'Contents of Viewer' });
  for (const f of FILES) await expect(list.getByRole('link', { name: f.name })).toBeVisible();
  return { list, folderUrl };
}

const viewer = (page: Page) => page.getByTestId('file-viewer');
const fileHeading = (page: Page, name: string) => viewer(page).getByRole('heading', { level: 1, name });
/** An arrow key, and the file it leads to on screen (a person reads the name before pressing again). */
async function step(page: Page, key: 'ArrowLeft' | 'ArrowRight', name: string) {
  await page.keyboard.press(key);
  await expect(fileHeading(page, name)).toBeVisible();
}

test('opens a folder’s files in the viewer, steps through them with the arrow keys and goes back with Escape; its bar acts on the file as it allows, a long document scrolls to its end, and nothing in it has serious accessibility problems at 1280 and 360 px in either theme', async ({
  page,
  workspace,
}) => {
  // A long walk: six files, six accessibility scans in both themes, a PDF drawn.
  test.setTimeout(240_000);
  const { list, folderUrl } = await folderOfFiles(page);

  // A click on the PDF opens the viewer at its own address: page 1 drawn, its text there to find and select.
  await list.getByRole('link', { name: '2 report.pdf' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.slug}/file/[0-9a-f-]+$`));
  await expect(fileHeading(page, '2 report.pdf')).toBeVisible();
  const first = viewer(page).locator('[data-page="1"][data-drawn]');
  await expect(first).toBeVisible();
  expect(await first.locator('canvas').evaluate((c: HTMLCanvasElement) => c.width > 0 && c.height > 0)).toBe(true);
  await expect(first.locator('.textLayer')).toContainText('The orchard report, part 1 of 3.');
  await expect(viewer(page).getByText('Page 1 of 3')).toBeVisible();
  const find = viewer(page).getByRole('searchbox', { name: 'Find in document' });
  await find.fill('orchard');
  await expect(viewer(page).getByRole('status')).toHaveText('1 of 3');
  await find.press('Enter');
  await expect(viewer(page).getByRole('status')).toHaveText('2 of 3');
  await find.press('Shift+Enter');
  await expect(viewer(page).getByRole('status')).toHaveText('1 of 3');
  await expect(first.locator('.textLayer .found.current')).toHaveCount(1);
  // Arrows typed in the find box move in the box, not to another file.
  await find.press('ArrowRight');
  await expect(fileHeading(page, '2 report.pdf')).toBeVisible();
  const pdfUrl = page.url();
  await page.reload();
  await expect(viewer(page).locator('[data-page="1"][data-drawn]')).toBeVisible();

  // → the next file of the folder, in its order; the address follows.
  await page.keyboard.press('ArrowRight');
  await expect(fileHeading(page, '3 notes.txt')).toBeVisible();
  expect(page.url()).not.toBe(pdfUrl);
  await expect(viewer(page).getByRole('region', { name: 'Contents of 3 notes.txt' })).toContainText('second line of the notes');

  await viewer(page).getByRole('button', { name: 'Next file' }).click();
  await expect(fileHeading(page, '4 code.ts')).toBeVisible();
  const code = viewer(page).getByRole('region', { name: 'Contents of 4 code.ts' });
  await expect(code.locator('pre[data-language="typescript"] .hljs-keyword').first()).toHaveText('export');

  await page.keyboard.press('ArrowRight');
  await expect(fileHeading(page, '5 tone.wav')).toBeVisible();
  const audio = viewer(page).getByLabel('Audio 5 tone.wav');
  await expect(audio).toBeVisible();
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeCloseTo(0.5, 1);

  await page.keyboard.press('ArrowRight');
  await expect(fileHeading(page, '6 data.bin')).toBeVisible();
  const card = viewer(page).getByTestId('no-preview');
  await expect(card.getByRole('heading', { name: 'No preview for this kind of file' })).toBeVisible();
  await expect(card).toContainText('6 B');
  await expect(card.getByRole('link', { name: 'Download' })).toHaveAttribute('href', /\/content\?download=1$/);
  // The last file: → stays, and the button says there is no next one.
  const lastUrl = page.url();
  await page.keyboard.press('ArrowRight');
  await expect(viewer(page).getByRole('button', { name: 'Next file' })).toBeDisabled();
  expect(page.url()).toBe(lastUrl);

  // Escape: back to the folder, the keyboard on the file shown last.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(folderUrl);
  await expect(list.getByRole('row', { name: /6 data\.bin/ })).toBeFocused();

  // Enter on a row opens it too: the picture, fitted, zoomed with the keys.
  await list.getByRole('row', { name: /1 photo\.png/ }).focus();
  await page.keyboard.press('Enter');
  await expect(fileHeading(page, '1 photo.png')).toBeVisible();
  const picture = viewer(page).getByRole('img', { name: '1 photo.png' });
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
  await expect(viewer(page).getByRole('button', { name: 'Previous file' })).toBeDisabled();
  await expect(viewer(page).getByText('100%')).toBeVisible();
  await page.keyboard.press('+');
  await expect(viewer(page).getByText('110%')).toBeVisible();
  await viewer(page).getByRole('button', { name: 'Fit to screen' }).click();
  await expect(viewer(page).getByText('100%')).toBeVisible();
  await viewer(page).getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(folderUrl);

  // Each check covers the light and the dark theme (seriousViolations switches them without a reload).
  await list.getByRole('link', { name: '2 report.pdf' }).click();
  await expect(viewer(page).locator('[data-page="1"][data-drawn]')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await screen(page, `viewer-pdf-1280`);
  await step(page, 'ArrowRight', '3 notes.txt');
  await step(page, 'ArrowRight', '4 code.ts');
  await expect(viewer(page).locator('pre[data-language="typescript"] .hljs-keyword').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await screen(page, `viewer-code-1280`);

  await page.setViewportSize({ width: 360, height: 740 });
  await step(page, 'ArrowLeft', '3 notes.txt');
  await step(page, 'ArrowLeft', '2 report.pdf');
  await expect(viewer(page).locator('[data-page="1"][data-drawn]')).toBeVisible();
  // On a phone the thumbnails start hidden.
  await expect(viewer(page).getByRole('button', { name: 'Page thumbnails' })).toHaveAttribute('aria-pressed', 'false');
  expect(await seriousViolations(page)).toEqual([]);
  await screen(page, `viewer-pdf-360`);
  await step(page, 'ArrowLeft', '1 photo.png');
  await expect(viewer(page).getByRole('img', { name: '1 photo.png' })).toBeVisible();
  await screen(page, `viewer-image-360`);
  for (const name of FILES.slice(1).map((f) => f.name)) await step(page, 'ArrowRight', name);
  await expect(viewer(page).getByTestId('no-preview')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await screen(page, `viewer-none-360`);

  // The viewer's bar, back at 1280 px.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(folderUrl);
  await list.getByRole('link', { name: '3 notes.txt' }).click();
  const bar = viewer(page).locator('header');
  await bar.getByRole('button', { name: 'Details' }).click();
  await expect(page.getByRole('dialog', { name: '3 notes.txt' }).getByRole('table', { name: 'Details' })).toBeVisible();
  // A text file has no picture, but the viewer shows it: the panel does not say it has no preview.
  await expect(page.getByRole('dialog', { name: '3 notes.txt' })).not.toContainText('No preview');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Escape closed the drawer, not the viewer.
  await expect(fileHeading(page, '3 notes.txt')).toBeVisible();
  await bar.getByRole('button', { name: 'Versions' }).click();
  await expect(page.getByRole('dialog').getByRole('list', { name: 'Versions' }).getByRole('listitem', { name: 'Version 1, current' })).toBeVisible();
  await page.keyboard.press('Escape');
  await bar.getByRole('button', { name: 'Add star' }).click();
  await expect(bar.getByRole('button', { name: 'Remove star' })).toBeVisible();

  await page.setViewportSize({ width: 360, height: 740 });
  await expect(bar.getByRole('button', { name: 'Details' })).toBeHidden();
  await bar.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename “3 notes.txt”' });
  await rename.getByLabel('New name').fill('3 minutes.txt');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(fileHeading(page, '3 minutes.txt')).toBeVisible();
  await bar.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await expect(page).toHaveURL(folderUrl);
  await expect(page.getByText('“3 minutes.txt” moved to the trash')).toBeVisible();
  await expect(list.getByRole('link', { name: '3 minutes.txt' })).toHaveCount(0);

  // A long converted document scrolls to its end, by wheel and by keys, its text off the window's edges on a phone.
  await page.setViewportSize({ width: 1280, height: 720 });
  const paragraphs = Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1} of the minutes.`);
  const markdown = `# Minutes\n\n${paragraphs.join('\n\n')}\n\nThe very end.\n`;
  await page.getByLabel('Files to upload').setInputFiles({ name: 'minutes.md', mimeType: 'text/markdown', buffer: Buffer.from(markdown) });
  await list.getByRole('link', { name: 'minutes.md' }).click();
  const contents = viewer(page).getByRole('region', { name: 'Contents of minutes.md' });
  const top = contents.getByRole('heading', { name: 'Minutes' });
  const end = contents.getByText('The very end.');
  await expect(top).toBeVisible();
  await expect(end).not.toBeInViewport();
  // The wheel scrolls it, beside the column of text as over it.
  await page.mouse.move(60, 400);
  await page.mouse.wheel(0, 20_000);
  await expect(end).toBeInViewport();
  // So do the keys, once the contents have the keyboard.
  await contents.focus();
  await page.keyboard.press('Home');
  await expect(top).toBeInViewport();
  await page.keyboard.press('End');
  await expect(end).toBeInViewport();

  // On a phone the text keeps off the window's edges.
  await page.setViewportSize({ width: 360, height: 740 });
  const box = (await end.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(12);
  expect(box.x + box.width).toBeLessThanOrEqual(348);
});

test('Escape brings back a long folder at the scroll it had, the file shown last in focus', async ({ page, workspace }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  const names = Array.from({ length: 60 }, (_, i) => `note ${String(i + 1).padStart(2, '0')}.txt`);
  await page.getByLabel('Files to upload').setInputFiles(names.map((name) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(name) })));
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('row')).not.toHaveCount(1);
  // Every upload done, so the folder no longer grows under the scroll being measured (a minute: sixty uploads on a busy machine).
  await expect
    .poll(
      async () => (await apiCall(page, itemsApi.children, { params: { ws: workspace.id, id: workspace.homeId }, query: { limit: 100 } })).body.items.length,
      {
        timeout: 60_000,
      },
    )
    .toBe(60);
  // And the uploads panel folded by itself: the room kept below the list for it shrinks as it folds.
  await expect(page.getByRole('button', { name: 'Show uploads' })).toBeVisible();
  await list.getByRole('link', { name: 'note 01.txt' }).focus();
  await page.mouse.wheel(0, 1500);
  await expect(list.getByRole('link', { name: 'note 40.txt' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(600);
  // Opened from the keyboard: a click would first scroll the link out from under the uploads bar when it covers it,
  // and the scroll measured below would not be the one the file was opened at. Focusing it scrolls it into view first.
  const opened = list.getByRole('link', { name: 'note 40.txt' });
  await opened.focus();
  // In the middle of the screen, so rows above and below it are drawn; read once the scrolling has come to rest.
  await opened.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const rowTop = () => list.getByRole('row', { name: /note 40\.txt/ }).evaluate((el) => Math.round(el.getBoundingClientRect().top));
  let stood = -1;
  await expect
    .poll(async () => {
      const before = stood;
      stood = await rowTop();
      return stood === before;
    })
    .toBe(true);
  await page.keyboard.press('Enter');
  await expect(fileHeading(page, 'note 40.txt')).toBeVisible();
  await step(page, 'ArrowRight', 'note 41.txt');
  await page.keyboard.press('Escape');
  await expect(list.getByRole('row', { name: /note 41\.txt/ })).toBeFocused();
  // The row it was opened from stands where it stood (the rows above it placed as they were), the file shown last in view.
  await expect(list.getByRole('row', { name: /note 41\.txt/ })).toBeInViewport();
  await expect.poll(async () => Math.abs((await rowTop()) - stood)).toBeLessThan(3);
});
