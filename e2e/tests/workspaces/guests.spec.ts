import { expect, test } from '@playwright/test';
import { apiCall } from '../../fixtures/api.ts';
import { newPerson, signUp } from '../../fixtures/accounts.ts';

test("a guest sees what is shared with them, not the workspace's storage; once the last share goes, not the workspace", async ({ page, browser }) => {
  await signUp(page, newPerson('Olga Owner'));
  const workspace = (await apiCall(page, 'GET', '/workspaces')).body.items[0] as { id: string; slug: string; rootId: string; name: string };
  const folder = (await apiCall(page, 'POST', `/workspaces/${workspace.id}/items`, { kind: 'folder', name: 'Board papers', parentId: workspace.rootId }))
    .body as { id: string };
  await expect(page.getByText(/^\d+(\.\d+)? [KMGT]?B used/)).toBeVisible();

  const b = await browser.newContext();
  const guestPage = await b.newPage();
  await signUp(guestPage, newPerson('Gus Guest'));
  const gus = (await apiCall(guestPage, 'GET', '/me')).body.user as { id: string };
  const grant = (await apiCall(page, 'POST', `/items/${folder.id}/grants`, { principal: { type: 'user', id: gus.id }, role: 'viewer' })).body as { id: string };

  await guestPage.goto(`/w/${workspace.slug}`);
  await expect(guestPage.getByRole('button', { name: `Workspace: ${workspace.name}. Switch workspace` })).toBeVisible();
  await expect(guestPage.getByText('Storage', { exact: true })).toHaveCount(0);
  await expect(guestPage.getByText(/B used/)).toHaveCount(0);

  expect((await apiCall(page, 'DELETE', `/items/${folder.id}/grants/${grant.id}`)).status).toBe(204);
  await guestPage.goto(`/w/${workspace.slug}`);
  await expect(guestPage.getByRole('heading', { name: 'This workspace does not exist' })).toBeVisible();
  await b.close();
});
