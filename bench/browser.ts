import { chromium, type Browser, type Page } from '@playwright/test';

/** Debian's Chromium, started as the e2e tests start it (no sandbox as root, no background traffic). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Signs a person made by `serverProcess().person()` in through the embedded provider's pages. */
export async function signInThroughPages(page: Page, serverUrl: string, email: string): Promise<void> {
  await page.goto(`${serverUrl}/signin`);
  await page.getByRole('link', { name: /Continue with/ }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('process-test-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/w\//);
}
