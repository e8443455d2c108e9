import { workspacesApi } from '@cabinet/contracts';
import { expect, test } from '@playwright/test';
import { signUp } from '../../fixtures/accounts.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { apiCall } from '../../fixtures/api.ts';

// The account's list of workspaces: a new account, whose only workspace is the one made at sign-up.
test('creates a second workspace and switches between them; with many, the menu keeps its actions on screen at 1280 and 360 px', async ({ page }) => {
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

  // In thirty-one workspaces: the list scrolls within the menu, and the actions below it stay on screen.
  for (let i = 1; i <= 29; i++)
    expect((await apiCall(page, workspacesApi.create, { body: { name: `Project ${String(i).padStart(2, '0')}` } })).status).toBe(201);
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 720 });
    await page.reload();
    await page.getByRole('button', { name: /Switch workspace/ }).click();
    await expect(page.getByRole('menuitem')).toHaveCount(33);
    await expect(page.getByRole('menuitem', { name: 'Members and invitations' })).toBeInViewport();
    await expect(page.getByRole('menuitem', { name: 'Create workspace' })).toBeInViewport();
    if (width === 1280) {
      // The open menu, its scrolling list included, passes axe in both themes.
      expect(await seriousViolations(page)).toEqual([]);
      // From the keyboard: End goes to the last action, and up from there the list scrolls to its last workspace.
      await page.getByRole('menuitem', { name: "Mia's workspace" }).focus();
      await page.keyboard.press('End');
      await expect(page.getByRole('menuitem', { name: 'Create workspace' })).toBeFocused();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await expect(page.getByRole('menuitem', { name: 'Project 29' })).toBeFocused();
      await expect(page.getByRole('menuitem', { name: 'Project 29' })).toBeInViewport();
      await page.keyboard.press('Enter');
    } else {
      // By touch: the list scrolls to the last workspace.
      await page.getByRole('menuitem', { name: 'Project 29' }).click();
    }
    await expect(page.getByRole('button', { name: 'Workspace: Project 29. Switch workspace' })).toBeVisible();
  }

  // An address of no workspace says so.
  await page.goto('/w/no-such-workspace-here');
  await expect(page.getByRole('heading', { name: 'This workspace does not exist' })).toBeVisible();
});
