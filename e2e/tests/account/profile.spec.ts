import { expect, test } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';

test('the profile shows the email as read-only text and says where it is changed; the name can be changed', async ({ page }) => {
  const me = await signUp(page);
  await page.goto('/account');
  const email = page.getByLabel('Email');
  await expect(email).toHaveValue(me.email);
  await expect(email).not.toBeEditable();
  await expect(email).toHaveAccessibleDescription(/identity provider/);
  // Shown as text: no box around it that invites typing.
  const look = await email.evaluate((el) => {
    const css = getComputedStyle(el);
    return { border: css.borderTopWidth === '0px' ? 'none' : css.borderTopColor, background: css.backgroundColor };
  });
  expect(['none', 'rgba(0, 0, 0, 0)']).toContain(look.border);
  expect(look.background).toBe('rgba(0, 0, 0, 0)');
  const name = page.getByRole('textbox', { name: 'Name', exact: true });
  await expect(name).toBeEditable();
  await name.fill('Another Name');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Name saved')).toBeVisible();
});
