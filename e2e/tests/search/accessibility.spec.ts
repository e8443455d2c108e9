import { makeItem } from '../../fixtures/search.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';

// Each check covers the light and the dark theme (seriousViolations switches them without a reload), at each width.
test('the search palette and the search page have no serious accessibility violations at 1280 and 360 px, in both themes', async ({ page, workspace }) => {
  const folder = await makeItem(page, workspace, 'folder', 'Meadow surveys');
  await makeItem(page, workspace, 'document', 'Meadow flowers, a very long name to see how the rows cope with it on a phone', folder.id);
  await makeItem(page, workspace, 'document', 'Meadow birds');
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 360, height: 740 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`/w/${workspace.slug}/f/${folder.id}`);
    await expect(page.getByRole('heading', { name: 'Meadow surveys', level: 1 })).toBeVisible();

    // The palette, with results marked and the actions below them.
    await page.keyboard.press('Control+K');
    const palette = page.getByRole('dialog', { name: 'Search' });
    await palette.getByRole('combobox', { name: 'Search' }).fill('meadow');
    await expect(palette.getByRole('group', { name: 'Results' }).getByRole('option')).toHaveCount(3);
    await expect(palette).toHaveCSS('opacity', '1');
    expect(await seriousViolations(page)).toEqual([]);
    await expectNoHorizontalOverflow(page);
    await page.keyboard.press('Escape');
    await expect(palette).toHaveCount(0);

    // The search page: its tips, then results with their filters, a custom range, and the folder's chip.
    await page.goto(`/w/${workspace.slug}/search`);
    await expect(page.getByRole('heading', { name: 'Search this workspace' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`/w/${workspace.slug}/search?q=meadow&modified=custom&in=${folder.id}`);
    await expect(page.getByRole('list', { name: 'Search results' }).getByRole('listitem')).toHaveCount(1);
    await expect(page.getByText('In “Meadow surveys”')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await expectNoHorizontalOverflow(page);
    // Nothing found.
    await page.goto(`/w/${workspace.slug}/search?q=nothingatallhere`);
    await expect(page.getByRole('heading', { name: 'No results for “nothingatallhere”' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  }
});
