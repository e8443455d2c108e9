import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../e2e/fixtures/chromium.ts';

/** Debian's Chromium, started as the e2e tests start it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
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
