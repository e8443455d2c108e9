import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { createAndConfirm, newPerson } from '../../fixtures/accounts.ts';
import { startInstance, type Instance } from '../../fixtures/instance.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';

// An installation of this test's own that requires two-step sign-in of everyone (REQUIRE_TWO_STEP=true).
const port = Number(process.env.E2E_PORT ?? 8787) + 3;
let instance: Instance;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  instance = await startInstance(port, undefined, { REQUIRE_TWO_STEP: 'true' });
});
test.afterAll(async () => instance?.stop());

const codeFor = (key: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(key), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });

/** Accessible in both themes, nothing wider than the window at 360 px, and pictured in each look. */
async function checkLooks(page: Page, name: string) {
  expect(await seriousViolations(page), name).toEqual([]);
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalOverflow(page);
  await screensInEachLook(page, name, { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('where two-step sign-in is required, a new person sets up an authenticator app on the way in and sees the recovery codes once', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: instance.url });
  const page = await context.newPage();
  const person = newPerson('Rita Required');

  // The sign-in page's words for a sign-in turned away for want of a second step.
  await page.goto('/signin?error=two_step_required');
  await expect(page.getByRole('alert')).toContainText(
    'This Cabinet requires two-step sign-in. Sign in again: you will be asked to set up an authenticator app',
  );
  await expect(page.getByRole('link', { name: /Continue with/ })).toHaveAttribute('href', /fresh=1/);
  await checkLooks(page, 'signin-two-step-required');

  await page.getByRole('link', { name: 'Create an account' }).click();
  await createAndConfirm(page, person);

  // Setting up: the QR code and its key, a code from the app.
  await expect(page.getByRole('heading', { name: 'Set up two-step sign-in' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const key = (await page.getByLabel('Secret key').textContent())!.trim();
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel('Code from the app').fill(codeFor(key, Date.now() + 150_000));
  await page.getByRole('button', { name: 'Turn on and continue' }).click();
  await expect(page.getByRole('alert')).toHaveText('That code is not right. Enter the 6-digit code your app shows now.');
  await checkLooks(page, 'idp-two-step-set-up');
  await page.getByLabel('Code from the app').fill(codeFor(key));
  await page.getByRole('button', { name: 'Turn on and continue' }).click();

  // The recovery codes, once; then into Cabinet, where Account → Security says it is on.
  await expect(page.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await checkLooks(page, 'idp-two-step-recovery-codes');
  await page.getByRole('button', { name: 'I have saved them — continue' }).click();
  await expect(page).toHaveURL(/\/w\/[a-z0-9-]+$/);
  await page.goto('/account');
  const security = page.getByRole('region', { name: 'Security' });
  await expect(security.getByText('On', { exact: true })).toBeVisible();
  await expect(security).toContainText('Recovery codes left: 10.');
  await context.close();
});
