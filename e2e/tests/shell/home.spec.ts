import type { Page } from '@playwright/test';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';

/** The names a list shows, in order. */
const namesIn = (scope: ReturnType<Page['getByRole']>) => scope.getByRole('link').allInnerTexts();

test("Home's quick actions work, and its Recent and Starred show what their pages show", async ({ page }) => {
  const home = page.url();
  await expect(page.getByText(/coming soon/i)).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Recently shared with me' })).toContainText('When someone shares');

  // New document: it is made in My files and opens.
  await page.getByRole('button', { name: /New document/ }).click();
  await page.getByLabel('Document name').fill('Agenda');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByLabel('Content of Agenda')).toBeVisible();

  // Upload files: they go to My files, shown as they arrive.
  await page.goto(home);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: /Upload files/ }).click()]);
  expect(chooser.isMultiple()).toBe(true);
  await expect(page.getByLabel('Upload into My files')).toBeAttached();
  await chooser.setFiles({ name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from('report') });
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('link', { name: 'report.txt' })).toBeVisible();
  await expect(list.getByRole('link', { name: 'Agenda' })).toBeVisible();
  await page.getByRole('button', { name: 'Actions for report.txt' }).click();
  await page.getByRole('menuitem', { name: 'Add star' }).click();

  // Invite people: the invitation dialog.
  await page.goto(home);
  await page.getByRole('button', { name: /Invite people/ }).click();
  await expect(page.getByRole('dialog', { name: /Invite/ })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.goto(`${home}/recent`);
  await expect(page.getByRole('table', { name: 'Recent' }).getByRole('link', { name: 'report.txt' })).toBeVisible();
  const recent = await namesIn(page.getByRole('table', { name: 'Recent' }));
  await page.goto(`${home}/starred`);
  await expect(page.getByRole('table', { name: 'Starred' }).getByRole('link', { name: 'report.txt' })).toBeVisible();
  const starred = await namesIn(page.getByRole('table', { name: 'Starred' }));

  await page.goto(home);
  await expect(page.getByRole('region', { name: 'Recent' }).getByRole('list').getByRole('link')).toHaveText(recent.slice(0, 5));
  await expect(page.getByRole('region', { name: 'Starred' }).getByRole('list').getByRole('link')).toHaveText(starred.slice(0, 5));
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(page.getByRole('navigation', { name: 'Main' })).not.toBeInViewport();
  await expectNoHorizontalOverflow(page);
  await screensInEachLook(page, 'home', { fullPage: true });
  await page.getByRole('region', { name: 'Starred' }).getByRole('link', { name: 'All starred' }).click();
  await expect(page.getByRole('heading', { name: 'Starred', level: 1 })).toBeVisible();
});
