import { invitationsApi, itemsApi, workspacesApi } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { newPerson, signUp } from '../../fixtures/accounts.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { screen, screensInEachLook } from '../../fixtures/screens.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';

test('an owner makes an invite link; a new person opens it, signs up through it, and joins as a member; an expired invitation by email can be sent again', async ({
  page,
  browser,
  person,
  workspace,
}) => {
  // The way in: the workspace menu, and the navigation.
  await page.getByRole('button', { name: `Workspace: ${workspace.name}. Switch workspace` }).click();
  await page.getByRole('menuitem', { name: 'Members and invitations' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.slug}/settings/members$`));
  await expect(page.getByRole('link', { name: 'Members and settings' })).toHaveAttribute('aria-current', 'page');
  const members = page.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem', { name: person.name })).toContainText('Owner');
  await expect(page.getByText('No pending invitations')).toBeVisible();
  // An invitation by email that ends in two seconds: it has expired by the end of this walk.
  const lateEndsAt = Date.now() + 2_000;
  const late = await apiCall(page, invitationsApi.create, {
    params: { ws: workspace.id },
    body: { email: 'late.reader@example.com', role: 'member', expiresAt: new Date(lateEndsAt).toISOString() },
  });
  expect(late.status).toBe(201);

  // Escape closes the dialog onto the button that opened it; opened again, it makes a link.
  const inviteButton = page.getByRole('button', { name: 'Invite people' });
  await inviteButton.click();
  const dialog = page.getByRole('dialog', { name: `Invite people to ${workspace.name}` });
  await expect(dialog.getByRole('combobox', { name: 'Role', exact: true })).toHaveValue('Member');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(inviteButton).toBeFocused();
  await inviteButton.click();
  await dialog.getByText('Invite link', { exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Maximum uses' }).fill('5');
  await dialog.getByRole('button', { name: 'Create invite link' }).click();
  const link = (await dialog.getByLabel('New invite link').textContent())!;
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByRole('button', { name: 'Copy invite link' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('list', { name: 'Invitations not yet accepted' }).getByRole('listitem', { name: 'Invite link · 0 of 5 used' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Someone new, on a phone, in the dark theme.
  const other = await browser.newContext({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
  const newcomer = await other.newPage();
  await newcomer.goto(link);
  await expect(newcomer.getByRole('heading', { name: `Join ${workspace.name}` })).toBeVisible();
  await expect(newcomer.getByText(`${person.name} invited you`)).toBeVisible();
  await expectNoHorizontalOverflow(newcomer);
  expect(await seriousViolations(newcomer)).toEqual([]);
  // "Create an account" opens the sign-up form itself.
  await newcomer.getByRole('link', { name: 'Create an account' }).click();
  await expect(newcomer.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  const nina = newPerson('Nina Newcomer');
  await newcomer.getByLabel('Name').fill(nina.name);
  await newcomer.getByLabel('Email').fill(nina.email);
  await newcomer.getByLabel('Password').fill(nina.password);
  await newcomer.getByRole('button', { name: 'Create account' }).click();
  await expect(newcomer.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await newcomer.getByRole('link', { name: 'outbox' }).click();
  await newcomer
    .getByRole('article', { name: 'Confirm your email address for Cabinet' })
    .filter({ hasText: `To ${nina.email} ` })
    .getByRole('link')
    .click();

  // Back at the invitation, signed in: one click joins.
  await expect(newcomer).toHaveURL(link);
  await expect(newcomer.getByText(`Signed in as Nina Newcomer (${nina.email})`)).toBeVisible();
  await newcomer.getByRole('button', { name: `Join ${workspace.name}` }).click();
  await expect(newcomer).toHaveURL(new RegExp(`/w/${workspace.slug}$`));
  await expect(newcomer.getByRole('button', { name: `Workspace: ${workspace.name}. Switch workspace` })).toBeVisible();
  // A member does not manage people: no way into the settings.
  await newcomer.goto(`/w/${workspace.slug}/settings/members`);
  await expect(newcomer.getByRole('heading', { name: 'Only the owner and admins see the workspace settings' })).toBeVisible();

  // The owner sees them in the list, as a member; the link counts the use.
  await page.reload();
  await expect(members.getByRole('listitem', { name: 'Nina Newcomer' }).getByRole('combobox', { name: 'Role of Nina Newcomer' })).toHaveValue('Member');
  await expect(page.getByRole('listitem', { name: 'Invite link · 1 of 5 used' })).toBeVisible();

  // Opened again once joined: nothing more to do, and no second membership.
  await newcomer.goto(link);
  await newcomer.getByRole('button', { name: `Join ${workspace.name}` }).click();
  await expect(newcomer).toHaveURL(new RegExp(`/w/${workspace.slug}$`));
  await page.reload();
  await expect(members.getByRole('listitem', { name: 'Nina Newcomer' })).toHaveCount(1);
  await expect(page.getByRole('listitem', { name: 'Invite link · 1 of 5 used' })).toBeVisible();

  // Revoked, the link shows a clear page.
  await page.getByRole('button', { name: 'Revoke invitation: Invite link · 1 of 5 used' }).click();
  await page.getByRole('dialog', { name: 'Revoke this invitation?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('listitem', { name: /^Invite link/ })).toHaveCount(0);
  await newcomer.goto(link);
  await expect(newcomer.getByRole('heading', { name: 'This invitation was revoked' })).toBeVisible();
  await other.close();

  // The expired invitation by email stays in the list, marked expired, and can be sent again.
  await page.waitForTimeout(Math.max(0, lateEndsAt - Date.now() + 500));
  await page.reload();
  const row = page.getByRole('list', { name: 'Invitations not yet accepted' }).getByRole('listitem', { name: 'late.reader@example.com' });
  await expect(row).toContainText('Expired');
  await row.getByRole('button', { name: 'Send the invitation to late.reader@example.com again' }).click();
  await expect(page.getByText('Invitation sent again to late.reader@example.com')).toBeVisible();
  await expect(row).not.toContainText('Expired');
  await expect(row).toContainText('expires');
});

test('invited by email, a new person creates an account with the address filled in, signs in before confirming it, confirms it in another tab and joins without signing out', async ({
  page,
  browser,
  workspace,
}) => {
  const lena = newPerson('Lena Later');
  const invitation = await apiCall(page, invitationsApi.create, { params: { ws: workspace.id }, body: { email: lena.email, role: 'member' } });
  expect(invitation.status).toBe(201);

  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(invitation.body.url);
  await expect(tab.getByText(`The invitation is for ${lena.email}.`)).toBeVisible();
  expect(await seriousViolations(tab)).toEqual([]);
  await screensInEachLook(tab, 'invitation-signed-out');
  // Straight to the sign-up form, the invited address filled in.
  await tab.getByRole('link', { name: 'Create an account' }).click();
  await expect(tab.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  await expect(tab.getByLabel('Email')).toHaveValue(lena.email);
  await expect(tab.getByLabel('Name')).toBeFocused();
  await screensInEachLook(tab, 'provider-sign-up-with-address');
  await tab.getByLabel('Name').fill(lena.name);
  await tab.getByLabel('Password').fill(lena.password);
  await tab.getByRole('button', { name: 'Create account' }).click();
  await expect(tab.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  // Signing in does not wait for the mailed link; the sign-in form has the address too.
  await tab.getByRole('link', { name: 'Sign in' }).click();
  await expect(tab.getByLabel('Email')).toHaveValue(lena.email);
  await expect(tab.getByLabel('Password')).toBeFocused();
  await tab.getByLabel('Password').fill(lena.password);
  await tab.getByRole('button', { name: 'Sign in' }).click();

  // Back at the invitation, signed in with an address not yet confirmed.
  await expect(tab).toHaveURL(invitation.body.url);
  await expect(tab.getByText(`Signed in as Lena Later (${lena.email})`)).toBeVisible();
  const unconfirmed = tab.getByRole('alert').filter({ hasText: 'Confirm your email address first' });
  await expect(unconfirmed).toContainText(`This invitation is for ${lena.email}, which is your address, but it is not confirmed yet.`);
  const confirmedIt = tab.getByRole('button', { name: 'I have confirmed my address' });
  expect(await seriousViolations(tab)).toEqual([]);
  await screensInEachLook(tab, 'invitation-unconfirmed');
  // Pressed before confirming: still refused, and said so.
  await confirmedIt.click();
  await expect(unconfirmed).toContainText(`${lena.email} is still not confirmed.`);
  await expect(tab).toHaveURL(invitation.body.url);

  // The mailed link, opened in another tab: the sign-in it came from is over, so it asks for the password.
  const other = await context.newPage();
  await other.goto('/idp/dev/outbox');
  await other
    .getByRole('article', { name: 'Confirm your email address for Cabinet' })
    .filter({ hasText: `To ${lena.email} ` })
    .getByRole('link')
    .click();
  await other.getByLabel('Password').fill(lena.password);
  await other.getByRole('button', { name: 'Confirm email' }).click();
  await expect(other.getByRole('heading', { name: 'Email confirmed' })).toBeVisible();
  await other.close();

  // The first tab, still signed in, joins.
  await confirmedIt.click();
  await expect(tab).toHaveURL(new RegExp(`/w/${workspace.slug}$`));
  await expect(tab.getByRole('button', { name: `Workspace: ${workspace.name}. Switch workspace` })).toBeVisible();
  await context.close();
});

test('the owner changes a role, hands the workspace over, and removes someone, giving their files to a member', async ({
  page,
  browser,
  person,
  workspace,
}) => {
  const invite = async (role: 'admin' | 'member') => (await apiCall(page, invitationsApi.create, { params: { ws: workspace.id }, body: { role } })).body.url;
  const join = async (name: string) => {
    const context = await browser.newContext();
    const p = await context.newPage();
    await signUp(p, newPerson(name));
    await p.goto(await invite('member'));
    await p.getByRole('button', { name: `Join ${workspace.name}` }).click();
    await expect(p).toHaveURL(new RegExp(`/w/${workspace.slug}$`));
    return { context, page: p };
  };
  const ann = await join('Ann Admin');
  const ben = await join('Ben Member');
  await apiCall(ben.page, itemsApi.create, {
    params: { ws: workspace.id },
    body: { kind: 'folder', name: 'Ben notes', parentId: (await apiCall(ben.page, workspacesApi.get, { params: { ws: workspace.id } })).body.homeId },
  });

  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/w/${workspace.slug}/settings`);
  await expect(page).toHaveURL(/\/settings\/members$/);
  const members = page.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem')).toHaveCount(3);
  await expectNoHorizontalOverflow(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screen(page, 'members-360-dark', { fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await members.getByRole('combobox', { name: 'Role of Ann Admin' }).click();
  await page.getByRole('option', { name: 'Admin' }).click();
  await expect(page.getByText('Ann Admin is now admin')).toBeVisible();

  // Removing Ben: his files go to Ann.
  await members.getByRole('button', { name: 'More for Ben Member' }).click();
  await page.getByRole('menuitem', { name: 'Remove from workspace' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove Ben Member?' });
  await remove.getByRole('combobox', { name: 'Give their files to' }).click();
  await page.getByRole('option', { name: /Ann Admin/ }).click();
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(members.getByRole('listitem', { name: 'Ben Member' })).toHaveCount(0);
  await ann.page.goto(`/w/${workspace.slug}/my`);
  await ann.page.getByRole('link', { name: "Ben Member's files" }).click();
  await expect(ann.page.getByRole('link', { name: 'Ben notes' })).toBeVisible();
  await ben.page.goto(`/w/${workspace.slug}`);
  await expect(ben.page.getByRole('heading', { name: 'This workspace does not exist' })).toBeVisible();

  // Handing the workspace to Ann: Olive becomes an admin.
  await members.getByRole('button', { name: 'More for Ann Admin' }).click();
  await page.getByRole('menuitem', { name: 'Transfer ownership' }).click();
  await page.getByRole('dialog', { name: 'Make Ann Admin the owner?' }).getByRole('button', { name: 'Transfer ownership' }).click();
  await expect(members.getByRole('listitem', { name: 'Ann Admin' })).toContainText('Owner');
  await expect(members.getByRole('combobox', { name: `Role of ${person.name}` })).toHaveValue('Admin');

  // An admin now, Olive is asked before her own role changes, and may leave, her files going to the owner by default.
  await members.getByRole('combobox', { name: `Role of ${person.name}` }).click();
  await page.getByRole('option', { name: 'Member' }).click();
  const own = page.getByRole('dialog', { name: 'Make yourself a member?' });
  await own.getByRole('button', { name: 'Cancel' }).click();
  await expect(own).toBeHidden();
  await expect(members.getByRole('combobox', { name: `Role of ${person.name}` })).toHaveValue('Admin');
  await members.getByRole('button', { name: `More for ${person.name}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Remove from workspace' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Leave workspace' }).click();
  const leave = page.getByRole('dialog', { name: `Leave “${workspace.name}”?` });
  await expect(leave.getByRole('combobox', { name: 'Give your files to' })).toHaveValue(/^Ann Admin/);
  await leave.getByRole('button', { name: 'Leave' }).click();
  // Out of it: the app goes to another of the person's workspaces, and the one left is not in the switcher.
  await expect(page).not.toHaveURL(new RegExp(`/w/${workspace.slug}(/|$)`));
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
  await page.getByRole('button', { name: /Switch workspace$/ }).click();
  await expect(page.getByRole('menuitem', { name: workspace.name })).toHaveCount(0);
  await ann.context.close();
  await ben.context.close();
});
