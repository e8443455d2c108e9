import { expect, test, type Page } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';
import { screen } from '../../fixtures/screens.ts';

async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The header is fixed, so its overflow does not scroll: check its last control is fully on screen. */
async function expectHeaderFits(page: Page, width: number) {
  const box = await page.getByRole('button', { name: 'Account menu' }).boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

// Screenshots land in test-results/screens for a person to look at; the checks are what the test asserts.
for (const scheme of ['light', 'dark'] as const) {
  for (const width of [1280, 360]) {
    test(`screens fit at ${width} px in the ${scheme} theme`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme });
      const page = await context.newPage();
      const shot = (name: string) => screen(page, `${name}-${width}-${scheme}`, { fullPage: true });
      await page.goto('/signin');
      await expectNoHorizontalOverflow(page);
      await shot('signin');
      await page.getByRole('link', { name: /Continue with/ }).click();
      await expectNoHorizontalOverflow(page);
      await shot('idp-signin');
      await signUp(page);
      await expectNoHorizontalOverflow(page);
      await expectHeaderFits(page, width);
      await shot('home');
      if (width === 360) {
        // Escape closes the navigation and gives the keyboard back to its toggle, from the toggle or from inside.
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
        await shot('nav');
        await page.getByRole('link', { name: 'My files' }).click();
        await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
        await page.getByRole('button', { name: 'New folder' }).click();
        await page.getByLabel('Folder name').fill('A folder with a rather long name for a narrow screen');
        await page.getByRole('button', { name: 'Create' }).click();
        await expect(page.getByRole('link', { name: /A folder with/ })).toBeVisible();
        await expectNoHorizontalOverflow(page);
      } else {
        await page.getByRole('link', { name: 'Trash' }).click();
        await expect(page.getByRole('heading', { name: 'Trash', level: 1 })).toBeVisible();
      }
      await shot('section');
      await page.goto('/account');
      await expect(page.getByRole('heading', { name: 'API tokens', exact: true })).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await shot('account');
      await context.close();
    });
  }
}
