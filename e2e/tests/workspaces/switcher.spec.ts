import { test as newAccountTest } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

// The account's list of workspaces: a new account, whose only workspace is the one made at sign-up.
newAccountTest('creates a second workspace and switches between them', async ({ page }) => {
  await signUp(page, { name: 'Mia Switch', email: `mia.${Date.now()}@example.com`, password: 'plum-orbit-canvas-42' });
  await page.getByRole('button', { name: /Switch workspace/ }).click();
  await page.getByRole('menuitem', { name: 'Create workspace' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create workspace' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Give the workspace a name')).toBeVisible();
  await dialog.getByLabel('Workspace name').fill('Design team');
  await dialog.getByRole('button', { name: 'Create' }).click();

  await expect(page).toHaveURL(/\/w\/design-team/);
  await expect(page.getByRole('button', { name: 'Workspace: Design team. Switch workspace' })).toBeVisible();
  await expect(page.getByText('Design team', { exact: true }).first()).toBeVisible();

  await page.getByRole('button', { name: /Switch workspace/ }).click();
  await page.getByRole('menuitem', { name: "Mia's workspace" }).click();
  await expect(page.getByRole('button', { name: "Workspace: Mia's workspace. Switch workspace" })).toBeVisible();

  // The workspace used last opens next time.
  await page.goto('/');
  await expect(page.getByRole('button', { name: "Workspace: Mia's workspace. Switch workspace" })).toBeVisible();
});

test('says so when a workspace address does not exist', async ({ page }) => {
  await page.goto('/w/no-such-workspace-here');
  await expect(page.getByRole('heading', { name: 'This workspace does not exist' })).toBeVisible();
});
