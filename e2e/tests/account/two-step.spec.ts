import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { signIn, signUp } from '../../fixtures/accounts.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';

/** What the person's authenticator app would show for the key at a time (the next step's code: the set-up took this one). */
const codeFor = (key: string, at = Date.now() + 30_000) =>
  new TOTP({ secret: Secret.fromBase32(key), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
}

// The account's own sign-in changes: a new account, not a worker's shared one.
test('Account → Security: an authenticator app set up, asked for after the password, a recovery code taken once, turned off; then the password changed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const me = await signUp(page);
  await page.goto('/account');
  const security = page.getByRole('region', { name: 'Security' });
  await expect(security.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await expect(security.getByText('Off', { exact: true })).toBeVisible();

  // Set up: a QR code and the key beside it; a wrong code is refused under the field, the right one turns it on.
  await security.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(security.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const key = (await security
    .getByRole('group', { name: /Can’t scan it/ })
    .getByLabel('Secret key')
    .textContent())!.trim();
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  await expect(security.getByRole('button', { name: 'Copy the key' })).toBeVisible();
  const code = security.getByLabel('Code from the app');
  await code.fill('12345');
  await code.press('Enter');
  await expect(code).toHaveAccessibleDescription('Enter the 6-digit code your app shows');
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalOverflow(page);
  await screensInEachLook(page, 'account-two-step-set-up', { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  const wrong = codeFor(key) === '000000' ? '111111' : '000000';
  await code.fill(wrong);
  await security.getByRole('button', { name: 'Turn on' }).click();
  await expect(code).toHaveAccessibleDescription('That code is not right. Enter the code your app shows now.');
  await code.fill(codeFor(key, Date.now()));
  await security.getByRole('button', { name: 'Turn on' }).click();

  // Ten recovery codes, shown once.
  const shown = page.getByRole('region', { name: 'Your recovery codes' });
  await expect(shown).toBeFocused();
  const recoveryCodes = (await shown.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents()).map((c) => c.trim());
  expect(recoveryCodes).toHaveLength(10);
  for (const c of recoveryCodes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await expect(shown.getByRole('button', { name: 'Copy codes' })).toBeVisible();
  await expect(shown.getByRole('link', { name: 'Download codes' })).toHaveAttribute('download', 'cabinet-recovery-codes.txt');
  await expect(security.getByText('On', { exact: true })).toBeVisible();
  await expect(security).toContainText('Recovery codes left: 10.');
  await expect(security.getByText(key)).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalOverflow(page);
  await screensInEachLook(page, 'account-two-step-codes', { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  await shown.getByRole('button', { name: 'Dismiss' }).click();
  await expect(shown).toHaveCount(0);

  // Signing in asks for the code after the password; a wrong one is refused clearly, the app's code signs in.
  await signOut(page);
  await signIn(page, me);
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  const step = page.getByLabel('Code');
  await step.fill(wrong);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right, or was used already.');
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalOverflow(page);
  await screensInEachLook(page, 'idp-two-step', { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByLabel('Code').fill(codeFor(key));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/w\/[a-z0-9-]+$/);

  // A recovery code signs in once; the second time it is refused.
  await signOut(page);
  await signIn(page, me);
  await page.getByLabel('Code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/w\/[a-z0-9-]+$/);
  await signOut(page);
  await signIn(page, me);
  await page.getByLabel('Code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right, or was used already.');
  await page.getByLabel('Code').fill(recoveryCodes[1]!);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/w\/[a-z0-9-]+$/);

  // Turned off after a question (cancelled first); then the password alone signs in.
  await page.goto('/account');
  await expect(security).toContainText('Recovery codes left: 8.');
  const turnOff = security.getByRole('button', { name: 'Turn off two-step sign-in' });
  const confirm = page.getByRole('dialog', { name: 'Turn off two-step sign-in?' });
  await turnOff.click();
  await expect(confirm).toContainText('recovery codes stop working');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(security.getByText('On', { exact: true })).toBeVisible();
  await turnOff.click();
  await confirm.getByRole('button', { name: 'Turn off' }).click();
  await expect(security.getByText('Off', { exact: true })).toBeVisible();
  await expect(security.getByRole('button', { name: 'Set up an authenticator app' })).toBeVisible();
  await signOut(page);
  await signIn(page, me);
  await expect(page).toHaveURL(/\/w\/[a-z0-9-]+$/);

  // The password changed while signed in: a wrong current one is refused under its field, a weak new one under its
  // own; changed, it signs in and the old one does not.
  await page.goto('/account');
  const form = security.getByRole('form', { name: 'Change password' });
  const current = form.getByLabel('Current password');
  const fresh = form.getByLabel('New password');
  await current.fill('not-the-password-at-all');
  await fresh.fill('a-brand-new-passphrase-7');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(current).toHaveAccessibleDescription(/^That is not your current password/);
  await current.fill(me.password);
  await fresh.fill('short');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(fresh).toHaveAccessibleDescription('Password must be at least 12 characters');
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalOverflow(page);
  await screensInEachLook(page, 'account-password', { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  await fresh.fill('a-brand-new-passphrase-7');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your other sessions were signed out.')).toBeVisible();
  await expect(current).toHaveValue('');
  await signOut(page);
  await signIn(page, me);
  await expect(page.getByRole('alert')).toContainText('Wrong email or password.');
  await signIn(page, { email: me.email, password: 'a-brand-new-passphrase-7' });
  await expect(page).toHaveURL(/\/w\/[a-z0-9-]+$/);
});
