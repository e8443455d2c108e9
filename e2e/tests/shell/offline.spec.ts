import { expect, test } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';

test('a failure to reach Cabinet is not mistaken for being signed out', async ({ page }) => {
  await signUp(page);
  const here = page.url();
  await page.route('**/api/v1/me', (route) => route.abort('connectionrefused'));
  await page.reload();
  await expect(page.getByText('Cabinet cannot be reached right now.')).toBeVisible({ timeout: 20_000 });
  expect(page.url()).toBe(here);
  await page.unroute('**/api/v1/me');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
});
