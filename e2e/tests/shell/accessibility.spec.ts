import { test as signedOutTest } from '@playwright/test';
import { expect, test } from '../../fixtures/signed-in.ts';
import { colourContrast, contrastOn, seriousViolations } from '../../fixtures/accessibility.ts';

// Each check covers the light and the dark theme, switched without a reload (seriousViolations).
// Signed out: a browser with no account.
signedOutTest('the sign-in screens have no serious accessibility violations', async ({ page }) => {
  await page.goto('/signin');
  await expect(page.getByRole('link', { name: /Continue with/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('link', { name: /Continue with/ }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('link', { name: 'Create an account' }).click();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the home and account screens have no serious accessibility violations', async ({ page }) => {
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Plans');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('link', { name: 'Plans' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('link', { name: 'Shared with me' }).click();
  await expect(page.getByText('Nothing shared with you yet')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('link', { name: 'Trash' }).click();
  await expect(page.getByText('The trash is empty')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // The search settings page (the others have theirs beside their own tests).
  await page.getByRole('link', { name: 'Members and settings' }).click();
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/settings\/search$/);
  await expect(page.getByRole('region', { name: 'Search language' }).getByRole('button', { name: 'Save search language' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Sessions', exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'App passwords' })).toBeAttached();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the folder browser, its grid, selection, uploads and dialogs have no serious accessibility violations', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Plans');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByLabel('Files to upload').setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') });
  await expect(page.getByText('Uploads complete')).toBeVisible();
  // A row's menu: only menu items inside it, and its destructive item readable (4.5:1) on the menu.
  await page.getByRole('button', { name: 'Actions for a.txt' }).click();
  const trashItem = page.getByRole('menuitem', { name: 'Move to trash' });
  await expect(trashItem).toBeVisible();
  await expect(page.getByRole('menu')).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page)).toEqual([]);
  expect(await contrastOn(trashItem, '[role="menu"]')).toBeGreaterThanOrEqual(4.5);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Select a.txt' }).check();
  await expect(page.getByText('1 selected')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('radiogroup', { name: 'View' }).getByText('Grid').click();
  await expect(page.getByRole('grid', { name: 'Contents of My files' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Actions for a.txt' }).click();
  await page.getByRole('menuitem', { name: 'Move to…' }).click();
  await expect(page.getByRole('dialog', { name: 'Move “a.txt”' })).toBeVisible();
  // The menu closes with a transition: the scan waits until it is gone.
  await expect(page.getByRole('menu')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Actions for a.txt' }).click();
  await page.getByRole('menuitem', { name: 'Versions' }).click();
  await expect(page.getByRole('list', { name: 'Versions' })).toBeVisible();
  await expect(page.getByRole('menu')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Actions for a.txt' }).click();
  await page.getByRole('menuitem', { name: 'Share…' }).click();
  await expect(page.getByRole('dialog', { name: 'Share “a.txt”' }).getByText('Owner', { exact: true })).toBeVisible();
  await expect(page.getByRole('menu')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByRole('radiogroup', { name: 'View' }).getByText('List').click();
  await page.getByRole('link', { name: 'Starred', exact: true }).click();
  await expect(page.getByText('Nothing starred yet')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the document editor has no serious accessibility violations', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New document' }).click();
  await page.getByLabel('Document name').fill('Field notes');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await page.getByLabel('Content of Field notes').click();
  await page.keyboard.type('Some words to look at.');
  expect(await seriousViolations(page)).toEqual([]);
  // The slash menu, a comment thread beside the text, and the history drawer.
  await page.keyboard.press('Enter');
  await page.keyboard.type('/');
  await expect(page.getByRole('listbox', { name: 'Insert a block' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Backspace');
  await page.getByLabel('Content of Field notes').getByText('Some words to look at.').selectText();
  await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Comment' }).click();
  await page.getByRole('region', { name: 'Comments' }).getByLabel('Comment', { exact: true }).fill('A remark');
  await page.getByRole('region', { name: 'Comments' }).getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(page.getByRole('article', { name: /Comment by/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'History' }).click();
  await expect(page.getByRole('dialog', { name: 'Revision history' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Revision history' })).toHaveCount(0);
  // The Share dialog over the document; Escape gives the keyboard back to the menu's button.
  await page.getByRole('button', { name: 'Document actions' }).click();
  await page.getByRole('menuitem', { name: /Share/ }).click();
  await expect(page.getByRole('dialog', { name: /Share/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: /Share/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Document actions' })).toBeFocused();
});

test('a switch that is off and an empty checkbox stand out from the page (3:1), and a field’s error reads (4.5:1), in both themes', async ({
  page,
  workspace,
}) => {
  await page.goto(`/w/${workspace.slug}/settings/links`);
  const password = page.getByRole('switch', { name: 'Require a password on new links' });
  await expect(password).not.toBeChecked();
  const track = page.locator('.mantine-Switch-root').filter({ has: password }).locator('.mantine-Switch-track');
  const limit = page.getByRole('checkbox', { name: 'Limit how long a link lives' });
  await expect(limit).not.toBeChecked();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    // Polled: the colours change with a short transition.
    await expect.poll(() => colourContrast(track, 'background-color')).toBeGreaterThanOrEqual(3);
    await expect.poll(() => colourContrast(limit, 'border-top-color')).toBeGreaterThanOrEqual(3);
  }

  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('button', { name: 'Create' }).click();
  const error = page.getByRole('dialog', { name: 'New folder' }).getByRole('alert');
  await expect(error).toHaveText('Enter a name');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await expect.poll(() => contrastOn(error, '.mantine-Modal-content')).toBeGreaterThanOrEqual(4.5);
  }
});
