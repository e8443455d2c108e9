import { expect, test } from '@playwright/test';
import { newPerson, signIn, signUp, signUpThroughPages } from '../../fixtures/accounts.ts';
import { newDocument } from '../../fixtures/documents.ts';

test('a new person signs up, sees their workspace, signs out and back in', async ({ page }) => {
  const person = await signUpThroughPages(page, newPerson('Ada Lovelace'));
  await expect(page.getByRole('heading', { name: 'Welcome, Ada' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Workspace: Ada's workspace/ })).toBeVisible();
  // A document opened notes on this browser who is signed in (to show its snapshot early next time); signing out forgets it.
  await newDocument(page, 'Notes');
  const remembered = () => page.evaluate(() => localStorage.getItem('cabinet:person'));
  await expect.poll(remembered).not.toBeNull();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  expect(await remembered()).toBeNull();
  await expect(page.getByRole('link', { name: /Continue with/ })).toBeVisible();

  // Signed out of the provider too: it asks for the password again.
  await signIn(page, person);
  await expect(page.getByRole('heading', { name: 'Welcome, Ada' })).toBeVisible();
});

test('a wrong password shows a clear error', async ({ page, browser }) => {
  const person = await signUp(page);
  const other = await browser.newPage();
  await signIn(other, { email: person.email, password: 'not-the-right-password' });
  await expect(other.getByRole('alert')).toContainText('Wrong email or password.');
  await expect(other).toHaveURL(/\/idp\/interaction\//);
  await other.close();
});

test('a password that breaks the policy is refused with the rule named', async ({ page }) => {
  await page.goto('/signin');
  await page.getByRole('link', { name: /Continue with/ }).click();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Name').fill('Weak Password');
  await page.getByLabel('Email').fill(newPerson().email);
  await page.getByLabel('Password').fill('short1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert')).toContainText('Password must be at least 12 characters');
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Password').fill('password1234');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert')).toContainText('Password is too common');
});

test('after signing in, the person comes back to the page they asked for', async ({ page }) => {
  const person = await signUp(page);
  await page.context().clearCookies();
  await page.goto('/account');
  await expect(page).toHaveURL(/\/signin\?returnTo=%2Faccount/);
  await page.getByRole('link', { name: /Continue with/ }).click();
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
});
