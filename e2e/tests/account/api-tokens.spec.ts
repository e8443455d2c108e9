import { meApi, urlOf } from '@cabinet/contracts';
import { expect, test } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';

test('creates an API token that works, then revokes it', async ({ page, request }) => {
  await signUp(page);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'API tokens', exact: true })).toBeVisible();
  await expect(page.getByText('No API tokens')).toBeVisible();

  await page.getByLabel('Token name').fill('Backup script');
  await page.getByRole('button', { name: 'Create token' }).click();
  const token = (await page.getByLabel('New API token').textContent())!.trim();
  expect(token).toMatch(/^cab_/);

  const me = await request.get(urlOf(meApi.get), { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).via).toBe('token');

  const list = page.getByRole('list', { name: 'API tokens' });
  await expect(list.getByText('Backup script')).toBeVisible();
  await page.getByRole('button', { name: 'Revoke token Backup script' }).click();
  await expect(list.getByText('Backup script')).toHaveCount(0);

  const after = await request.get(urlOf(meApi.get), { headers: { authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
  expect((await after.json()).error.code).toBe('unauthenticated');
});

test('lists sessions and signs out the others', async ({ page, browser }) => {
  const person = await signUp(page);
  const second = await browser.newContext();
  const other = await second.newPage();
  await other.goto('/signin');
  await other.getByRole('link', { name: /Continue with/ }).click();
  await other.getByLabel('Email').fill(person.email);
  await other.getByLabel('Password').fill(person.password);
  await other.getByRole('button', { name: 'Sign in' }).click();
  await expect(other.getByRole('heading', { name: /Welcome/ })).toBeVisible();

  await page.goto('/account');
  const sessions = page.getByRole('list', { name: 'Active sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: 'Sign out other sessions' }).click();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);

  await other.reload();
  await expect(other).toHaveURL(/\/signin/);
  await second.close();
});
