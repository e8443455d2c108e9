import { expect, test, type Page } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';

/**
 * Chromium's virtual authenticator in this tab: a platform device keeping discoverable passkeys, which checks its owner
 * (as a fingerprint would) and answers without a touch. Whether the check passes is set per ceremony.
 */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    ownerChecked: (isUserVerified: boolean) => cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified }),
  };
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
}

/** Cabinet's sign-in page, then the provider's, where the passkey's button is. */
async function toProviderSignIn(page: Page) {
  await page.goto('/signin');
  await page.getByRole('link', { name: /Continue with/ }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
}

test('Account → Security: a passkey added with the device, renamed, signing in without a password; refused when the device does not check its owner, and once removed', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const device = await virtualAuthenticator(page);
  const me = await signUp(page);
  await page.goto('/account');
  const security = page.getByRole('region', { name: 'Security' });
  await expect(security.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
  await expect(security.getByText('No passkeys yet.')).toBeVisible();

  // The password first: a wrong one is refused under its field.
  const adding = page.getByRole('dialog', { name: 'Add a passkey' });
  const password = adding.getByLabel('Password', { exact: true });
  await security.getByRole('button', { name: 'Add a passkey' }).click();
  await password.fill('not-the-password-at-all');
  await adding.getByRole('button', { name: 'Continue' }).click();
  await expect(password).toHaveAccessibleDescription(/^That is not your current password\./);
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 800 });
  await screensInEachLook(page, 'account-passkey-password');
  await page.setViewportSize({ width: 1280, height: 720 });
  // Added: named after the browser and system, listed, and kept by the device for this site.
  await password.fill(me.password);
  await adding.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Passkey added')).toBeVisible();
  await expect(adding).toHaveCount(0);
  const list = security.getByRole('list', { name: 'Passkeys' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  // The browser's user agent names the system (the tests' Chromium says Windows).
  await expect(list.getByRole('listitem')).toContainText(/^Chrome on (Windows|Linux|macOS)/);
  const named = (await list.getByRole('listitem').textContent())!.match(/^Chrome on (Windows|Linux|macOS)/)![0];
  await expect(list.getByRole('listitem')).toContainText('never used');
  const [kept] = await device.credentials();
  expect(kept).toMatchObject({ rpId: 'localhost', isResidentCredential: true });

  // The same device a second time: it already has one, and says so.
  await security.getByRole('button', { name: 'Add a passkey' }).click();
  await password.fill(me.password);
  await adding.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('This device already has a passkey for your account.')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);

  // Renamed in a dialog; an empty name is refused under its field.
  await security.getByRole('button', { name: `Rename passkey ${named}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename passkey' });
  const name = dialog.getByLabel('Name');
  await expect(name).toHaveValue(named);
  await name.fill('  ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(name).toHaveAccessibleDescription('Enter a name for the passkey');
  await name.fill('Work laptop');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(list.getByRole('listitem')).toContainText('Work laptop');
  // The toasts gone (they close by themselves), so that none is caught half-faded by the contrast check.
  await expect(page.getByRole('button', { name: 'Close notification' })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalOverflow(page);
  await screensInEachLook(page, 'account-passkeys', { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Signing in: the provider's page offers the passkey, and the device's check alone signs in.
  await signOut(page);
  await toProviderSignIn(page);
  const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalOverflow(page);
  await screensInEachLook(page, 'idp-sign-in-passkey', { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  // The device does not check its owner: nothing signs in, and the page says so.
  await device.ownerChecked(false);
  await usePasskey.click();
  await expect(page.getByRole('alert')).toContainText('No passkey was used');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await device.ownerChecked(true);
  await usePasskey.click();
  await expect(page).toHaveURL(/\/w\/[a-z0-9-]+$/);

  // Last used now; removed after a question (cancelled first), it signs in no more though the device still has it.
  await page.goto('/account');
  await expect(list.getByRole('listitem')).toContainText('last used');
  const remove = security.getByRole('button', { name: 'Remove passkey Work laptop' });
  const confirm = page.getByRole('dialog', { name: 'Remove the passkey “Work laptop”?' });
  await remove.click();
  await expect(confirm).toContainText('It will no longer sign you in.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await remove.click();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(security.getByText('No passkeys yet.')).toBeVisible();
  await signOut(page);
  await toProviderSignIn(page);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByRole('alert')).toContainText('That passkey did not sign you in');
  expect(await device.credentials()).toHaveLength(1);
});
