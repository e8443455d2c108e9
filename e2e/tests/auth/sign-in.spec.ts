import { expect, test } from '@playwright/test';
import { newPerson, signIn, signUpThroughPages } from '../../fixtures/accounts.ts';
import { newDocument } from '../../fixtures/documents.ts';

test('a new person signs up straight from “Create an account”, sees their workspace, signs out, is refused a wrong password, and signing in comes back to the page asked for', async ({
  page,
}) => {
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

  // Signed out of the provider too: it asks for the password again, and a wrong one is refused clearly.
  await signIn(page, { email: person.email, password: 'not-the-right-password' });
  await expect(page.getByRole('alert')).toContainText('Wrong email or password.');
  await expect(page).toHaveURL(/\/idp\/interaction\//);

  // Asked for a page while signed out, the person signs in and comes back to it.
  await page.goto('/account');
  await expect(page).toHaveURL(/\/signin\?returnTo=%2Faccount/);
  await page.getByRole('link', { name: /Continue with/ }).click();
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome, Ada' })).toBeVisible();
});
