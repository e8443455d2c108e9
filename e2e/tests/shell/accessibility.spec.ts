import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    test('the sign-in screens have no serious accessibility violations', async ({ page }) => {
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
      await signUp(page);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'My files' }).click();
      await page.getByRole('button', { name: 'New folder' }).click();
      await page.getByRole('button', { name: 'Create' }).click();
      await expect(page.getByRole('link', { name: 'Untitled folder' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Trash' }).click();
      await expect(page.getByText('The trash is empty')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto('/account');
      await expect(page.getByRole('heading', { name: 'Sessions', exact: true })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
