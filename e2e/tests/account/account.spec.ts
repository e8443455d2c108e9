import { meApi, notificationsApi, urlOf } from '@cabinet/contracts';
import { expect, test } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { apiCall } from '../../fixtures/api.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';

// What belongs to the account, on its own page: a new account, not a worker's shared one.
test('the account page: API tokens and app passwords made and revoked, the profile, the theme, mail about notifications, and the sessions', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const me = await signUp(page);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();

  // An API token that works, then revoked.
  await expect(page.getByRole('heading', { name: 'API tokens', exact: true })).toBeVisible();
  await expect(page.getByText('No API tokens')).toBeVisible();
  await page.getByLabel('Token name').fill('Backup script');
  await page.getByRole('button', { name: 'Create token' }).click();
  const secretIn = (region: string, field: string) => page.getByRole('region', { name: region }).getByRole('group', { name: field }).getByRole('code');
  const token = (await secretIn('New API token', 'Token').textContent())!.trim();
  expect(token).toMatch(/^cab_/);
  const byToken = () => request.get(urlOf(meApi.get), { headers: { authorization: `Bearer ${token}` } });
  const made = await byToken();
  expect(made.status()).toBe(200);
  expect((await made.json()).via).toBe('token');
  const tokens = page.getByRole('list', { name: 'API tokens' });
  await expect(tokens.getByText('Backup script')).toBeVisible();
  await page.getByRole('button', { name: 'Revoke API token Backup script' }).click();
  await page.getByRole('dialog', { name: 'Revoke the API token “Backup script”?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(tokens.getByText('Backup script')).toHaveCount(0);
  const revoked = await byToken();
  expect(revoked.status()).toBe(401);
  expect((await revoked.json()).error.code).toBe('unauthenticated');

  // An app password for a WebDAV client, made from the keyboard: shown once with where and as whom to sign in, listed
  // apart from the API tokens, refused by the API, and revoked after a confirmation.
  await expect(page.getByRole('heading', { name: 'App passwords', exact: true })).toBeVisible();
  await expect(page.getByText('No app passwords')).toBeVisible();
  const device = page.getByLabel('Device or app');
  await device.press('Enter');
  await expect(device).toHaveAccessibleDescription('Name the device or app');
  await device.fill('Finder on the laptop');
  await device.press('Enter');
  const shown = page.getByRole('region', { name: 'New app password' });
  await expect(shown).toBeFocused();
  await expect(shown).toContainText('it will not be shown again');
  await expect(secretIn('New app password', 'Server address')).toHaveText(new URL('/dav/', page.url()).href);
  await expect(secretIn('New app password', 'User name')).toHaveText(me.email);
  const appPassword = (await secretIn('New app password', 'Password').textContent())!.trim();
  expect(appPassword).toMatch(/^cab_/);
  for (const name of ['Copy server address', 'Copy user name', 'Copy app password']) await expect(shown.getByRole('button', { name })).toBeVisible();
  const appPasswords = page.getByRole('list', { name: 'App passwords' });
  await expect(appPasswords.getByRole('listitem')).toHaveCount(1);
  await expect(appPasswords.getByRole('listitem')).toContainText(/Finder on the laptop.*created .* never used · expires /);
  await expect(tokens.getByRole('listitem')).toHaveCount(0);
  await expect(page.getByText('No API tokens')).toBeVisible();
  const byAppPassword = () => request.get(urlOf(meApi.get), { headers: { authorization: `Bearer ${appPassword}` } });
  const refused = await byAppPassword();
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.message).toContain('app password');
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalOverflow(page);
  await screensInEachLook(page, 'account-app-password', { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  await shown.getByRole('button', { name: 'Dismiss' }).click();
  await expect(shown).toHaveCount(0);
  await expect(page.getByText(appPassword)).toHaveCount(0);

  // Cancelled, it stays; confirmed with Enter (the confirming button has the focus), it is gone.
  const revokeAppPassword = page.getByRole('button', { name: 'Revoke app password Finder on the laptop' });
  const confirm = page.getByRole('dialog', { name: 'Revoke the app password “Finder on the laptop”?' });
  await revokeAppPassword.click();
  await expect(confirm).toContainText('lose access to your files');
  expect(await seriousViolations(page)).toEqual([]);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(appPasswords.getByRole('listitem')).toHaveCount(1);
  await revokeAppPassword.click();
  await expect(confirm.getByRole('button', { name: 'Revoke' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(appPasswords.getByRole('listitem')).toHaveCount(0);
  await expect(page.getByText('No app passwords')).toBeVisible();
  expect((await byAppPassword()).status()).toBe(401);

  // The profile: the email as read-only text that says where it is changed; the name can be changed.
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

  // The theme: dark, kept after a reload, then light. The segmented control's radios are visually hidden behind
  // their labels, which take the click.
  const html = page.locator('html');
  const choose = (theme: string) =>
    page
      .getByRole('radiogroup', { name: 'Theme' })
      .locator('label', { hasText: new RegExp(`^${theme}$`) })
      .click();
  await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
  await choose('Dark');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');

  // Mail about unread notifications: on until switched off, and off after a reload.
  const mail = () => page.getByRole('switch', { name: "Send me mail about notifications I haven't read" });
  await expect(mail()).toBeChecked();
  await mail().click();
  await expect(mail()).not.toBeChecked();
  await expect.poll(async () => (await apiCall(page, notificationsApi.settings)).body).toEqual({ emailUnread: false });

  await page.reload();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect(mail()).not.toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Another Name');
  await choose('Light');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');

  // Sessions: signed in in another browser too, then signed out of it from here.
  const second = await browser.newContext();
  const other = await second.newPage();
  await other.goto('/signin');
  await other.getByRole('link', { name: /Continue with/ }).click();
  await other.getByLabel('Email').fill(me.email);
  await other.getByLabel('Password').fill(me.password);
  await other.getByRole('button', { name: 'Sign in' }).click();
  await expect(other.getByRole('heading', { name: /Welcome/ })).toBeVisible();
  await page.reload();
  const sessions = page.getByRole('list', { name: 'Active sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: 'Sign out other sessions' }).click();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await other.reload();
  await expect(other).toHaveURL(/\/signin/);
  await second.close();
});
