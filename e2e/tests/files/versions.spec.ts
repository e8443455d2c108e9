import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screen } from '../../fixtures/screens.ts';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const FIRST = Buffer.from('Harbour survey\nline two\nline three\nunchanged tail\n');
const SECOND = Buffer.from('Harbour survey\nline 2\nline three\nunchanged tail\nan added line\n');

/** My files with notes.txt in two versions, its versions panel open. */
async function fileWithTwoVersions(page: Page) {
  await page.getByRole('link', { name: 'My files' }).click();
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await page.getByLabel('Files to upload').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: FIRST });
  await expect(list.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await page.getByRole('button', { name: 'Actions for notes.txt' }).click();
  await page.getByRole('menuitem', { name: 'Versions' }).click();
  const panel = page.getByRole('dialog', { name: /Versions of notes\.txt/ });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), panel.getByRole('button', { name: 'Upload a new version' }).click()]);
  await chooser.setFiles({ name: 'whatever.txt', mimeType: 'text/plain', buffer: SECOND });
  await expect(panel.getByRole('listitem', { name: 'Version 2, current' })).toBeVisible();
  return { list, panel };
}

test('a file’s versions: compared, restored (the old bytes come back) and named', async ({ page, person }) => {
  const { list, panel } = await fileWithTwoVersions(page);
  const v1 = panel.getByRole('listitem', { name: 'Version 1' });
  await expect(v1).toContainText(`by ${person.name}`);
  await expect(v1).toContainText(`SHA-256 ${sha256(FIRST).slice(0, 12)}`);
  await expect(v1.getByRole('link', { name: 'Open version 1' })).toHaveAttribute('href', /\/file\/[0-9a-f-]+\?version=[0-9a-f-]+$/);
  expect(await seriousViolations(page)).toEqual([]);

  // Compare: chosen by keyboard, the newer version's added lines green, the removed ones struck through.
  await panel.getByRole('checkbox', { name: 'Select version 1 to compare' }).check();
  await panel.getByRole('checkbox', { name: 'Select version 2 to compare' }).focus();
  await page.keyboard.press('Space');
  await panel.getByRole('button', { name: 'Compare' }).click();
  const compare = page.getByRole('dialog', { name: 'Compare versions of notes.txt' });
  const diff = compare.getByRole('region', { name: 'Changes from version 1 to version 2' });
  await expect(compare).toContainText('2 lines added, 1 removed.');
  await expect(diff.locator('ins')).toHaveText([/line 2/, /an added line/]);
  await expect(diff.locator('del')).toHaveText([/line two/]);
  // The removed line's text is struck through (its numbers are not).
  await expect
    .poll(() =>
      diff
        .locator('del .text')
        .first()
        .evaluate((el) => getComputedStyle(el).textDecorationLine),
    )
    .toContain('line-through');
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(compare).toBeHidden();
  // Escape closed the dialog alone: the panel stays.
  await expect(panel).toBeVisible();

  // Restore version 1: the confirmation says what changes; the new current version has its bytes.
  await panel.getByRole('button', { name: 'More actions for version 1' }).click();
  await page.getByRole('menuitem', { name: 'Restore this version…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Restore this version?' });
  await expect(confirm).toContainText(`Version 1 of notes.txt`);
  await expect(confirm).toContainText(`by ${person.name}, becomes the current version; the current version 2 stays in the list.`);
  await confirm.getByRole('button', { name: 'Restore' }).click();
  await expect(panel.getByRole('listitem', { name: 'Version 3, current' })).toBeVisible();
  await expect(panel.getByRole('listitem', { name: 'Version 2' })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('link', { name: 'Download version 3' }).click()]);
  expect(sha256(readFileSync((await download.path())!))).toBe(sha256(FIRST));

  // Name version 1: kept for ever; the name shows in the list.
  await panel.getByRole('button', { name: 'More actions for version 1' }).click();
  await page.getByRole('menuitem', { name: 'Name this version…' }).click();
  const naming = page.getByRole('dialog', { name: 'Name version 1 of notes.txt' });
  await naming.getByLabel('Version name').fill('Survey as sent');
  await naming.getByRole('button', { name: 'Save' }).click();
  await expect(naming).toBeHidden();
  await expect(panel.getByRole('listitem', { name: 'Version 1' })).toContainText('Survey as sent');

  // In the viewer, opening version 1 from its Versions panel closes the panel: that version's text is what is seen.
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await list.getByRole('link', { name: 'notes.txt' }).click();
  await page.getByRole('button', { name: 'Versions' }).click();
  await panel.getByRole('link', { name: 'Open version 1' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByText('Version 1', { exact: true })).toBeVisible();
  await expect(page.getByTestId('file-viewer')).toContainText('line two');
});

// Each accessibility check covers the light and the dark theme (seriousViolations switches them without a reload).
test('the versions panel and the compare dialog fit 1280 and 360 px, in both themes', async ({ page }) => {
  const { panel } = await fileWithTwoVersions(page);
  const overflow = () => panel.evaluate((el) => el.scrollWidth - el.clientWidth);
  const compare = page.getByRole('dialog', { name: 'Compare versions of notes.txt' });
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(panel).toBeVisible();
    await expect.poll(overflow, { message: `at ${width} px` }).toBeLessThanOrEqual(0);
    await screen(page, `versions-panel-${width}`);
    expect(await seriousViolations(page)).toEqual([]);
    await panel.getByRole('checkbox', { name: 'Select version 1 to compare' }).check();
    await panel.getByRole('checkbox', { name: 'Select version 2 to compare' }).check();
    await panel.getByRole('button', { name: 'Compare' }).click();
    await expect(compare.getByRole('region', { name: /Changes from version 1/ })).toBeVisible();
    await screen(page, `versions-compare-${width}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(compare).toBeHidden();
  }
});

test('a second upload of the same bytes sends nothing: the workspace already holds them', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  const list = page.getByRole('table', { name: 'Contents of My files' });
  const bytes = randomBytes(6 * 1024 * 1024 + 321);
  await page.getByLabel('Files to upload').setInputFiles({ name: 'survey-raw.bin', mimeType: 'application/octet-stream', buffer: bytes });
  await expect(list.getByRole('link', { name: 'survey-raw.bin' })).toBeVisible();
  const uploads = page.getByRole('region', { name: 'Uploads' });
  // Once everything is uploaded the panel's list folds: unfolded to read it.
  await uploads.getByRole('button', { name: 'Show uploads' }).click();
  await expect(uploads.getByRole('listitem', { name: 'Upload of survey-raw.bin' })).toContainText('Uploaded');

  // Every request from here on: no part may go up.
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT') puts.push(r.url());
  });
  await page.getByLabel('Files to upload').setInputFiles({ name: 'survey-copy.bin', mimeType: 'application/octet-stream', buffer: bytes });
  await expect(list.getByRole('link', { name: 'survey-copy.bin' })).toBeVisible();
  await uploads.getByRole('button', { name: 'Show uploads' }).click();
  await expect(uploads.getByRole('listitem', { name: 'Upload of survey-copy.bin' })).toContainText('Already in the workspace — nothing sent');
  expect(puts).toEqual([]);
  // Its bytes are the first file's.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    (async () => {
      await page.getByRole('button', { name: 'Actions for survey-copy.bin' }).click();
      await page.getByRole('menuitem', { name: 'Download' }).click();
    })(),
  ]);
  expect(sha256(readFileSync((await download.path())!))).toBe(sha256(bytes));
});
