import { seriousViolations } from '../../fixtures/accessibility.ts';
import { makeItem } from '../../fixtures/search.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

test('creates, opens, renames, trashes and restores folders', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  await expect(page.getByText('This folder is empty')).toBeVisible();

  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Holidays');
  await page.getByRole('button', { name: 'Create' }).click();
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('link', { name: 'Holidays' })).toBeVisible();

  // A clash is explained, with a free name offered.
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('holidays');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Something here is already called “holidays”. Try “holidays (2)”.')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  await list.getByRole('link', { name: 'Holidays' }).click();
  await expect(page.getByRole('heading', { name: 'Holidays', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('2026');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('link', { name: '2026' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My files' }).click();

  await page.getByRole('button', { name: 'Actions for Holidays' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByLabel('New name').fill('Travel');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(list.getByRole('link', { name: 'Travel' })).toBeVisible();

  await page.getByRole('button', { name: 'Actions for Travel' }).click();
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await expect(page.getByText('“Travel” moved to the trash')).toBeVisible();
  await expect(page.getByText('This folder is empty')).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('link', { name: 'Travel' })).toBeVisible();

  await page.getByRole('button', { name: 'Actions for Travel' }).click();
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await page.getByRole('link', { name: 'Trash' }).click();
  const trash = page.getByRole('table', { name: 'Items in the trash' });
  await expect(trash.getByText('Travel')).toBeVisible();
  await page.getByRole('button', { name: 'Restore Travel' }).click();
  await expect(page.getByText('The trash is empty')).toBeVisible();

  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'Actions for Travel' }).click();
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await page.getByRole('link', { name: 'Trash' }).click();
  await page.getByRole('button', { name: 'Empty trash' }).click();
  await page.getByRole('dialog', { name: 'Empty the trash?' }).getByRole('button', { name: 'Delete forever' }).click();
  await expect(page.getByText('The trash is empty')).toBeVisible();
});

test('the uploads panel folds by itself once everything is uploaded, and never covers the last row of a long folder, at 1280 and 360 px', async ({
  page,
  workspace,
}) => {
  for (let i = 1; i <= 24; i++) await makeItem(page, workspace, 'folder', `Folder ${String(i).padStart(2, '0')}`);
  await page.goto(`/w/${workspace.slug}/my`);
  await page.getByLabel('Files to upload').setInputFiles({ name: 'last.txt', mimeType: 'text/plain', buffer: Buffer.from('last') });
  const uploads = page.getByRole('region', { name: 'Uploads' });
  await expect(uploads.getByText('Uploads complete')).toBeVisible();
  // Folded: the summary stays, the list of files is gone.
  await expect(uploads.getByRole('button', { name: 'Show uploads' })).toHaveAttribute('aria-expanded', 'false');
  await expect(uploads.getByRole('listitem')).toHaveCount(0);

  // Scrolled to its end, the folder's last row is wholly above the panel, and answers a click.
  const lastRowAnswers = async () => {
    const row = page.getByRole('row', { name: /last\.txt/ });
    await expect
      .poll(async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const [r, p] = [await row.boundingBox(), await uploads.boundingBox()];
        return r && p ? p.y - (r.y + r.height) : -1;
      })
      .toBeGreaterThanOrEqual(0);
    await page.getByRole('button', { name: 'Actions for last.txt' }).click();
    await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
  };
  await lastRowAnswers();
  // Unfolded, it is taller: the page leaves room for it all.
  await uploads.getByRole('button', { name: 'Show uploads' }).click();
  await expect(uploads.getByRole('listitem', { name: 'Upload of last.txt' })).toBeVisible();
  await lastRowAnswers();
  await page.setViewportSize({ width: 360, height: 740 });
  await lastRowAnswers();
});

test.describe(() => {
  test.use({ viewport: { width: 1280, height: 560 } });

  test('a row’s menu near the bottom of a short window stays inside it, every action reachable', async ({ page, workspace }) => {
    for (let i = 1; i <= 3; i++) await makeItem(page, workspace, 'folder', `Shelf ${i}`, workspace.homeId);
    await page.goto(`/w/${workspace.slug}/f/${workspace.homeId}`);
    const list = page.getByRole('table', { name: 'Contents of My files' });
    await expect(list.getByRole('row', { name: /Shelf 3/ })).toBeVisible();
    await page.getByRole('button', { name: 'Actions for Shelf 3' }).scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: 'Actions for Shelf 3' }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Open' })).toBeVisible();
    // Room neither below the row nor above it: the menu opens beside its button, whole, inside the window.
    const box = (await menu.boundingBox())!;
    const button = (await page.getByRole('button', { name: 'Actions for Shelf 3' }).boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(560);
    expect(box.x + box.width).toBeLessThanOrEqual(button.x);
    expect(await menu.evaluate((m) => m.scrollHeight <= m.clientHeight)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    // The destructive action reads as well as the others when the keyboard is on it.
    await page.keyboard.press('End');
    await expect(menu.getByRole('menuitem', { name: 'Move to trash' })).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);
    await menu.getByRole('menuitem', { name: 'Move to trash' }).click();
    await expect(list.getByRole('row', { name: /Shelf 3/ })).toHaveCount(0);
  });
});
