import { expect, test, type Locator, type Page } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';

/** The header is fixed, so its overflow does not scroll: check its last control is fully on screen. */
async function expectHeaderFits(page: Page, width: number) {
  const box = await page.getByRole('button', { name: 'Account menu' }).boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

test('screens fit at 1280 and 360 px', async ({ page }) => {
  /**
   * The page at each width, drawn from the start at it (what a screen decides when it mounts, as a phone's layout, is
   * decided again) until `shown` is visible, has nothing wider than the window (and passes `check`); then its pictures
   * in each look.
   */
  const fitsEachWidth = async (name: string, shown: Locator, check?: (width: number) => Promise<void>) => {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      if (width === 360) await page.reload();
      await expect(shown).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await check?.(width);
    }
    await screensInEachLook(page, name, { fullPage: true });
  };
  await page.goto('/signin');
  await fitsEachWidth('signin', page.getByRole('link', { name: /Continue with/ }));
  await page.getByRole('link', { name: /Continue with/ }).click();
  await fitsEachWidth('idp-signin', page.getByRole('button', { name: 'Sign in' }));
  await signUp(page);
  await fitsEachWidth('home', page.getByRole('heading', { name: /Welcome/ }), (width) => expectHeaderFits(page, width));

  // On a phone, Escape closes the navigation and gives the keyboard back to its toggle, from the toggle or from inside.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(page.getByRole('link', { name: 'My files' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: 'My files' })).not.toBeInViewport();
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('link', { name: 'My files' })).toBeVisible();
  await page.getByRole('link', { name: 'My files' }).focus();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: 'My files' })).not.toBeInViewport();
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeFocused();
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(page.getByRole('link', { name: 'My files' })).toBeVisible();
  await screensInEachLook(page, 'nav', { fullPage: true });
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('A folder with a rather long name for a narrow screen');
  await page.getByRole('button', { name: 'Create' }).click();
  await fitsEachWidth('section', page.getByRole('link', { name: /A folder with/ }));

  await page.goto('/account');
  // The last section, its list loaded: the whole page is drawn.
  await fitsEachWidth('account', page.getByText('No app passwords'));
});
