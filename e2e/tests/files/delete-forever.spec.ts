import { expect, test } from '../../fixtures/signed-in.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';

// At 360 px, where the trash's buttons have least room (the trash's layout checked at 1280 too); what the dialogs do
// is the same at every width.
const width = 360;
test.use({ viewport: { width, height: 800 } });

test('asks before deleting forever, naming what goes; Escape keeps it, Enter deletes', async ({ page }) => {
  const home = page.url();
  await page.goto(`${home}/my`);
  await page
    .getByLabel('Files to upload')
    .setInputFiles(['draft.txt', 'notes.txt'].map((name) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(name) })));
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await list.getByRole('row', { name: /draft\.txt/ }).press('Control+a');
  await page.keyboard.press('Delete');
  await expect(page.getByText('This folder is empty')).toBeVisible();
  await page.goto(`${home}/trash`);
  const trash = page.getByRole('table', { name: 'Items in the trash' });
  await expect(trash.getByText('notes.txt')).toBeVisible();
  // Nothing sticks out sideways, at 1280 px as at 360: the buttons stay on the screen.
  for (const at of [1280, width]) {
    await page.setViewportSize({ width: at, height: 800 });
    await expectNoHorizontalOverflow(page);
    for (const button of await trash.getByRole('button').all()) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width, `at ${at} px`).toBeLessThanOrEqual(at);
    }
  }

  // One item: the dialog names it; Escape leaves it in the trash.
  await trash.getByRole('button', { name: 'Delete draft.txt forever' }).click();
  const one = page.getByRole('dialog', { name: 'Delete “draft.txt” forever?' });
  await expect(one).toContainText('“draft.txt” and all its versions will be deleted forever. This cannot be undone.');
  await screensInEachLook(page, 'delete-forever');
  await page.keyboard.press('Escape');
  await expect(one).toBeHidden();
  await expect(trash.getByText('draft.txt')).toBeVisible();
  // The keyboard is back on the button that asked, as it is after Cancel.
  await expect(trash.getByRole('button', { name: 'Delete draft.txt forever' })).toBeFocused();
  await page.keyboard.press('Enter');
  await one.getByRole('button', { name: 'Cancel' }).click();
  await expect(one).toBeHidden();
  await expect(trash.getByRole('button', { name: 'Delete draft.txt forever' })).toBeFocused();
  // Enter deletes it.
  await trash.getByRole('button', { name: 'Delete draft.txt forever' }).click();
  await expect(one).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(one).toBeHidden();
  await expect(trash.getByText('draft.txt')).toBeHidden();
  await expect(trash.getByText('notes.txt')).toBeVisible();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);

  // Emptying the trash lists what goes.
  await page.getByRole('button', { name: 'Empty trash' }).click();
  const all = page.getByRole('dialog', { name: 'Empty the trash?' });
  await expect(all.getByRole('list', { name: 'Items to delete forever' })).toHaveText('notes.txt');
  await screensInEachLook(page, 'empty-trash');
  await page.keyboard.press('Enter');
  await expect(page.getByText('The trash is empty')).toBeVisible();
});
