import { grantsApi, itemsApi } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

test("a guest sees what is shared with them, not the workspace's storage; once the last share goes, not the workspace", async ({
  page,
  browser,
  workspace,
}) => {
  const folder = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Board papers', parentId: workspace.rootId } })
  ).body;
  await expect(page.getByText(/^\d+(\.\d+)? [KMGT]?B used/)).toBeVisible();

  const { context: b, page: guestPage, user: gus } = await signUpInNewBrowser(browser, 'Gus Guest');
  const grant = (await apiCall(page, grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', id: gus.id }, role: 'viewer' } })).body;

  await guestPage.goto(`/w/${workspace.slug}`);
  await expect(guestPage.getByRole('button', { name: `Workspace: ${workspace.name}. Switch workspace` })).toBeVisible();
  await expect(guestPage.getByText('Storage', { exact: true })).toHaveCount(0);
  await expect(guestPage.getByText(/B used/)).toHaveCount(0);

  expect((await apiCall(page, grantsApi.remove, { params: { id: folder.id, grantId: grant.id } })).status).toBe(204);
  await guestPage.goto(`/w/${workspace.slug}`);
  await expect(guestPage.getByRole('heading', { name: 'This workspace does not exist' })).toBeVisible();
  await b.close();
});
