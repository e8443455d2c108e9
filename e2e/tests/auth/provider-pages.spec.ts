import { meApi, urlOf } from '@cabinet/contracts';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { newPerson } from '../../fixtures/accounts.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';

/** What makes a page look like Cabinet: the logo's drawing and colour, the font, the page's colours. */
async function look(page: Page, logo: Locator) {
  const paths = await logo.locator('path').evaluateAll((els) => els.map((e) => e.getAttribute('d')).filter((d) => d !== 'M0 0h24v24H0z'));
  const logoColour = await logo.evaluate((e) => getComputedStyle(e).stroke);
  const body = await page.evaluate(() => {
    const s = getComputedStyle(document.body);
    return { font: s.fontFamily.replace(/["']/g, ''), background: s.backgroundColor, text: s.color };
  });
  return { paths, logoColour, ...body };
}

async function openProviderSignUp(page: Page) {
  await page.goto('/signin');
  await page.getByRole('link', { name: /Continue with/ }).click();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
}

// At 360 px, where the provider's forms have least room. seriousViolations checks both themes.
test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the provider’s pages look like Cabinet in both themes: its logo, font and colours', async ({ page }) => {
    for (const [scheme, background] of [
      ['light', 'rgb(255, 255, 255)'],
      ['dark', 'rgb(36, 36, 36)'],
    ] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/signin');
      // The app applies its colour scheme once its script runs: compare after that.
      await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(background);
      const appLogo = page.locator('main svg.tabler-icon-folders');
      await expect(appLogo).toBeVisible();
      const app = await look(page, appLogo);
      await page.getByRole('link', { name: /Continue with/ }).click();
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      const provider = await look(page, page.locator('main .brand svg'));
      expect(provider).toEqual(app);
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
  });

  test('a refused sign-up names the rule broken and puts focus on the field in error, described by its error', async ({ page }) => {
    await openProviderSignUp(page);
    await page.getByLabel('Name').fill('Focus Person');
    await page.getByLabel('Email').fill(newPerson().email);
    await page.getByLabel('Password').fill('short1');
    await page.getByRole('button', { name: 'Create account' }).click();
    const password = page.getByLabel('Password');
    await expect(page.getByRole('alert')).toContainText('Password must be at least 12 characters');
    await expect(password).toBeFocused();
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(password).toHaveAccessibleDescription(/Password must be at least 12 characters/);

    await password.fill('password1234');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('alert')).toContainText('Password is too common');

    await page.getByLabel('Email').fill('not-an-address');
    await password.fill('plum-orbit-canvas-42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Enter a valid email address');
  });

  test('after sign-up a page says the link was sent and offers to send it again', async ({ page }) => {
    const person = newPerson();
    await openProviderSignUp(page);
    await page.getByLabel('Name').fill(person.name);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await expect(page.getByText(person.email).first()).toBeVisible();
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await expect(page.getByRole('status')).toHaveText(`We sent the link to ${person.email} again.`);
    expect(await seriousViolations(page)).toEqual([]);
    // Signing in does not wait for the link.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/w\/[a-z0-9-]+$/);
  });
});

test('the API docs render under their content policy', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
  const res = await page.goto('/api/docs');
  expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(page.getByRole('heading', { name: /Cabinet API/ })).toBeVisible();
  // Each area opens when asked.
  await page
    .getByRole('heading', { name: /^account/ })
    .getByRole('button')
    .click();
  await expect(page.getByText(urlOf(meApi.get)).first()).toBeVisible();
  expect(refused).toEqual([]);
});
