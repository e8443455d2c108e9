import { expect, test } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';

test('switches to the dark theme and keeps it after a reload', async ({ page }) => {
  await signUp(page);
  await page.goto('/account');
  const html = page.locator('html');
  // The segmented control's radios are visually hidden behind their labels, which take the click.
  const choose = (name: string) =>
    page
      .getByRole('radiogroup', { name: 'Theme' })
      .locator('label', { hasText: new RegExp(`^${name}$`) })
      .click();
  await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
  await choose('Dark');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await choose('Light');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
});
