import { grantsApi, groupsApi, invitationsApi, itemsApi } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { openShareDialog } from '../../fixtures/sharing.ts';

test('an owner makes a group, adds a member to it and shares a folder with the group; the member finds it in Shared with me and edits a document in it; out of the group, it is gone', async ({
  page,
  browser,
  person,
  workspace,
}) => {
  const folder = (
    await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Campaign', parentId: workspace.homeId } })
  ).body;
  await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'document', name: 'Brief', parentId: folder.id } });

  // Max joins the workspace as a member through an invite link, on a phone in the dark.
  const {
    context: b,
    page: other,
    user: max,
  } = await signUpInNewBrowser(browser, 'Max Member', { viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
  await other.goto((await apiCall(page, invitationsApi.create, { params: { ws: workspace.id }, body: { role: 'member' } })).body.url);
  await other.getByRole('button', { name: `Join ${workspace.name}` }).click();
  await expect(other).toHaveURL(new RegExp(`/w/${workspace.slug}$`));

  // Greta, on a phone in the dark, opens the Groups page of the settings: none yet.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/w/${workspace.slug}/settings/members`);
  await page.getByRole('link', { name: 'Groups' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.slug}/settings/groups$`));
  await expect(page.getByRole('link', { name: 'Groups' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('No groups yet')).toBeVisible();

  // A name is needed; then the group is made.
  await page.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByText('Give the group a name')).toBeVisible();
  await page.getByRole('textbox', { name: 'New group name' }).fill('Marketing');
  await page.getByRole('button', { name: 'Create group' }).click();
  const groups = page.getByRole('list', { name: 'Groups' });
  await expect(groups.getByRole('listitem', { name: 'Marketing' })).toContainText('0 people');
  // The same name in another case is taken.
  await page.getByRole('textbox', { name: 'New group name' }).fill('MARKETING');
  await page.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByText('A group with this name already exists in the workspace.')).toBeVisible();
  await page.getByRole('textbox', { name: 'New group name' }).fill('');

  // Open it and add Max.
  await groups.getByRole('button', { name: 'Open group Marketing' }).click();
  const dialog = page.getByRole('dialog', { name: 'Group “Marketing”' });
  await expect(dialog.getByText('No one is in this group yet.')).toBeVisible();
  // People are searched on the server as a name is typed (a workspace may have thousands), members only.
  const searched = page.waitForRequest(
    (r) => /\/members\?/.test(r.url()) && new URL(r.url()).searchParams.get('q') === 'Max' && new URL(r.url()).searchParams.get('exclude') === 'guests',
  );
  await dialog.getByLabel('Add people', { exact: true }).fill('Max');
  await searched;
  await page.getByRole('option', { name: /Max Member/ }).click();
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog.getByRole('list', { name: 'People in Marketing' }).getByText('Max Member')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(groups.getByRole('listitem', { name: 'Marketing' })).toContainText('1 person');
  expect(await seriousViolations(page)).toEqual([]);

  // Renaming asks for the new name.
  await groups.getByRole('button', { name: 'More for group Marketing' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename “Marketing”' });
  await rename.getByRole('textbox', { name: 'Group name' }).fill('Marketing team');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(groups.getByRole('listitem', { name: 'Marketing team' })).toBeVisible();

  // Greta shares the folder with the group, as an editor.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  const share = await openShareDialog(page, workspace, 'Campaign');
  await share.getByText('A group', { exact: true }).click();
  await share.getByLabel('Group', { exact: true }).click();
  await page.getByRole('option', { name: 'Marketing team (1 person)' }).click();
  await share.getByLabel('Role', { exact: true }).click();
  await page.getByRole('option', { name: 'Editor', exact: true }).click();
  await share.getByRole('button', { name: 'Share', exact: true }).click();
  const access = share.getByRole('list', { name: 'Who has access' });
  await expect(access.getByText('Marketing team')).toBeVisible();
  await expect(share.getByLabel('Role of Marketing team')).toHaveValue('Editor');
  await share.getByRole('button', { name: 'Done' }).click();

  // Max finds it in Shared with me, with the group named, opens the document and writes.
  await other.goto(`/w/${workspace.slug}/shared`);
  const shared = other.getByRole('table', { name: 'Shared with me' });
  await expect(shared.getByRole('link', { name: 'Campaign' })).toBeVisible();
  await expect(shared.getByText(new RegExp(`${person.name} with Marketing team · .* · Can edit`))).toBeVisible();
  expect(await other.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // Shared with Max himself too, as a viewer: still one row, as its latest share, with the stronger role.
  const direct = (await apiCall(page, grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', id: max.id }, role: 'viewer' } })).body;
  await expect(shared.getByText(new RegExp(`^${person.name} · .* · Can edit`))).toBeVisible();
  await expect(shared.getByRole('link', { name: 'Campaign' })).toHaveCount(1);
  expect((await apiCall(page, grantsApi.remove, { params: { id: folder.id, grantId: direct.id } })).status).toBe(204);
  await expect(shared.getByText(new RegExp(`${person.name} with Marketing team · .* · Can edit`))).toBeVisible();
  await shared.getByRole('link', { name: 'Campaign' }).click();
  await expect(other).toHaveURL(new RegExp(`/f/${folder.id}$`));
  await other.getByRole('link', { name: 'Brief' }).click();
  await expect(other.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await other.getByLabel('Content of Brief').click();
  await other.keyboard.type('Written by Max');
  await expect(other.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await page.goto(`/w/${workspace.slug}/f/${folder.id}`);
  await page.getByRole('link', { name: 'Brief' }).click();
  await expect(page.getByLabel('Content of Brief')).toContainText('Written by Max');

  // Greta takes Max out of the group: the folder is no longer his, gone from his Shared with me as he looks at it.
  await other.goto(`/w/${workspace.slug}/shared`);
  await expect(shared.getByRole('link', { name: 'Campaign' })).toBeVisible();
  await page.goto(`/w/${workspace.slug}/settings/groups`);
  await page.getByRole('button', { name: 'Open group Marketing team' }).click();
  const again = page.getByRole('dialog', { name: 'Group “Marketing team”' });
  await again.getByRole('button', { name: 'Remove Max Member from Marketing team' }).click();
  await expect(again.getByText('No one is in this group yet.')).toBeVisible();
  await again.getByRole('button', { name: 'Done' }).click();
  await expect(other.getByText('Nothing shared with you yet')).toBeVisible();

  // Deleting the group asks first.
  await page.getByRole('list', { name: 'Groups' }).getByRole('button', { name: 'More for group Marketing team' }).click();
  await page.getByRole('menuitem', { name: 'Delete group' }).click();
  await page.getByRole('dialog', { name: 'Delete the group “Marketing team”?' }).getByRole('button', { name: 'Delete group' }).click();
  await expect(page.getByText('No groups yet')).toBeVisible();
  await b.close();
});

test('changes to groups arrive by themselves: in the group list of an open settings page, and in Shared with me when a group with shares is deleted', async ({
  page,
  browser,
  workspace,
}) => {
  const folder = (await apiCall(page, itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: 'Launch', parentId: workspace.rootId } }))
    .body;
  const { context: b, page: other, user: mia } = await signUpInNewBrowser(browser, 'Mia Member');
  await other.goto((await apiCall(page, invitationsApi.create, { params: { ws: workspace.id }, body: { role: 'member' } })).body.url);
  await other.getByRole('button', { name: `Join ${workspace.name}` }).click();
  await expect(other).toHaveURL(new RegExp(`/w/${workspace.slug}$`));

  // The groups page is open while a group is made elsewhere (another tab, a script).
  await page.goto(`/w/${workspace.slug}/settings/groups`);
  await expect(page.getByText('No groups yet')).toBeVisible();
  const group = (await apiCall(page, groupsApi.create, { params: { ws: workspace.id }, body: { name: 'Launch crew' } })).body;
  const groups = page.getByRole('list', { name: 'Groups' });
  await expect(groups.getByRole('listitem', { name: 'Launch crew' })).toContainText('0 people');
  await apiCall(page, groupsApi.addMembers, { params: { ws: workspace.id, groupId: group.id }, body: { userIds: [mia.id] } });
  await expect(groups.getByRole('listitem', { name: 'Launch crew' })).toContainText('1 person');

  // Mia looks at what is shared with her when the group's share comes, and when the group goes.
  await other.goto(`/w/${workspace.slug}/shared`);
  await expect(other.getByText('Nothing shared with you yet')).toBeVisible();
  expect(
    (await apiCall(page, grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'group', id: group.id }, role: 'viewer' } })).status,
  ).toBe(201);
  const shared = other.getByRole('table', { name: 'Shared with me' });
  await expect(shared.getByRole('link', { name: 'Launch' })).toBeVisible();
  expect((await apiCall(page, groupsApi.remove, { params: { ws: workspace.id, groupId: group.id } })).status).toBe(204);
  await expect(other.getByText('Nothing shared with you yet')).toBeVisible();
  await expect(page.getByText('No groups yet')).toBeVisible();
  await b.close();
});
