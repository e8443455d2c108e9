import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { uuidv7 } from '@cabinet/contracts';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { seriousViolations } from '../../fixtures/accessibility.ts';
import { newPerson, signIn, signUp, signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { startInstance, type Instance } from '../../fixtures/instance.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';

// An installation of this test's own: its first person is its instance administrator, and it holds a failed job.
const port = Number(process.env.E2E_PORT ?? 8787) + 2;
let instance: Instance;

/** A job that ran out of tries, as the job runner leaves one, put in before the installation starts. */
async function withFailedJob(dataDir: string) {
  const db = new PGlite(path.join(dataDir, 'db'), { extensions: { pg_trgm, btree_gin } });
  await db.query(
    `INSERT INTO jobs (id, kind, payload, run_at, attempts, max_attempts, last_error, last_attempt_at, created_at)
     VALUES ($1, 'upload.discard', '{"key": "uploads/left-behind", "uploadId": "left-behind"}', now(), 10, 10, 'The storage answered 503 Slow Down', now(), now())`,
    [uuidv7()],
  );
  await db.close();
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  instance = await startInstance(port, withFailedJob);
});
const closeAfter: BrowserContext[] = [];
test.afterEach(async () => {
  for (const context of closeAfter.splice(0)) await context.close();
});
test.afterAll(async () => instance?.stop());

/** The page's accessibility in both themes, and nothing wider than the window at 1280 and 360 px. */
async function checkLooks(page: Page, name: string) {
  expect(await seriousViolations(page), name).toEqual([]);
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoHorizontalOverflow(page);
  }
  await screensInEachLook(page, `admin-${name}`, { fullPage: true });
}

async function openAdminPage(page: Page, label: string, heading: string) {
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: label }).click();
  await expect(page.getByRole('heading', { name: heading, level: 2 }).first()).toBeVisible();
}

test('an instance administrator looks after people, workspaces and jobs from /admin', async ({ browser }) => {
  test.setTimeout(240_000);
  const adminContext = await browser.newContext({ baseURL: instance.url });
  const admin = await adminContext.newPage();
  await signUp(admin, newPerson('Rita Root'));
  const bob = await signUpInNewBrowser(browser, 'Bob Builder', { baseURL: instance.url });
  // Closed whatever happens: their pages' event streams end with them, and the instance stops at once.
  closeAfter.push(adminContext, bob.context);

  // Someone who is not an instance administrator: no Administration in their menu, and the page says whose it is.
  await bob.page.getByRole('button', { name: 'Account menu' }).click();
  await expect(bob.page.getByRole('menuitem', { name: 'Account' })).toBeVisible();
  await expect(bob.page.getByRole('menuitem', { name: 'Administration' })).toHaveCount(0);
  await bob.page.keyboard.press('Escape');
  await bob.page.goto('/admin/people');
  await expect(bob.page.getByRole('heading', { name: 'Only instance administrators see this page' })).toBeVisible();
  await expect(bob.page.getByRole('list', { name: 'People' })).toHaveCount(0);
  await bob.page.getByRole('link', { name: 'Back to your files' }).click();
  await expect(bob.page.getByRole('heading', { name: /Welcome/ })).toBeVisible();

  // The administrator finds the page in their account menu.
  await admin.getByRole('button', { name: 'Account menu' }).click();
  await admin.getByRole('menuitem', { name: 'Administration' }).click();
  await expect(admin).toHaveURL(/\/admin$/);
  await expect(admin.getByRole('heading', { name: 'Administration', level: 1 })).toBeVisible();
  const services = admin.getByRole('list', { name: 'Services' });
  await expect(services.getByRole('listitem', { name: 'Database' })).toContainText('Working');
  await expect(services.getByRole('listitem', { name: 'Storage' })).toContainText('Working');
  await expect(services.getByRole('listitem', { name: 'Redis' })).toContainText('Not used');
  await expect(services.getByRole('listitem', { name: 'Mail' })).toContainText('Not set up');
  await expect(services.getByRole('listitem', { name: 'Mail' })).toContainText('nobody receives it');
  await expect(admin.getByText('Not scheduled')).toBeVisible();
  await checkLooks(admin, 'overview');

  // A failed job, with its error: retried, it runs again and leaves the list.
  await openAdminPage(admin, 'Background jobs', 'Failed jobs');
  const failed = admin.getByRole('list', { name: 'Failed jobs' }).getByRole('listitem', { name: 'upload.discard' });
  await expect(failed).toContainText('The storage answered 503 Slow Down');
  await expect(admin.getByRole('table', { name: 'Jobs by kind' })).toBeVisible();
  await checkLooks(admin, 'jobs');
  await failed.getByRole('button', { name: 'Retry the upload.discard job' }).click();
  await expect(admin.getByText('The upload.discard job runs again now')).toBeVisible();
  await expect(admin.getByRole('heading', { name: 'No failed jobs' })).toBeVisible();

  // A quota for Bob's workspace.
  await openAdminPage(admin, 'Workspaces', 'Workspaces');
  await admin.getByLabel('Search workspaces').fill('Bob');
  const bobsWorkspace = admin.getByRole('list', { name: 'Workspaces' }).getByRole('listitem');
  await expect(bobsWorkspace).toHaveCount(1);
  await expect(bobsWorkspace).toContainText('owned by Bob Builder');
  await expect(bobsWorkspace).toContainText('no quota');
  await checkLooks(admin, 'workspaces');
  await bobsWorkspace.getByRole('button', { name: /^Set quota of / }).click();
  const quota = admin.getByRole('dialog', { name: /^Quota of / });
  await expect(quota.getByRole('checkbox', { name: 'No quota' })).not.toBeChecked();
  await quota.getByRole('textbox', { name: 'Quota', exact: true }).fill('2');
  await quota.getByRole('combobox', { name: 'Unit' }).click();
  await admin.getByRole('option', { name: 'GiB' }).click();
  await quota.getByRole('button', { name: 'Save quota' }).click();
  await expect(quota).toBeHidden();
  await expect(bobsWorkspace).toContainText('of 2 GiB');
  await expect(bobsWorkspace.getByRole('progressbar', { name: /^Storage of / })).toHaveAttribute('aria-valuenow', '0');

  // Bob's account disabled: his open page goes to sign-in by itself, and signing in again is refused.
  await openAdminPage(admin, 'People', 'People');
  const bobRow = admin.getByRole('list', { name: 'People' }).getByRole('listitem', { name: 'Bob Builder' });
  await expect(bobRow).toContainText(bob.person.email);
  await expect(admin.getByRole('list', { name: 'People' }).getByRole('listitem', { name: 'Rita Root' })).toContainText('Administrator');
  await checkLooks(admin, 'people');
  await bobRow.getByRole('button', { name: 'More for Bob Builder' }).click();
  await admin.getByRole('menuitem', { name: 'Disable account' }).click();
  const confirm = admin.getByRole('dialog', { name: 'Disable Bob Builder’s account?' });
  await expect(confirm).toContainText('their API tokens are revoked');
  await confirm.getByRole('button', { name: 'Disable account' }).click();
  await expect(bobRow).toContainText('Disabled');
  await expect(bob.page).toHaveURL(/\/signin/, { timeout: 30_000 });
  // Someone who lost their phone: their two-step sign-in reset after a question that says what stops working.
  await bobRow.getByRole('button', { name: 'More for Bob Builder' }).click();
  await admin.getByRole('menuitem', { name: 'Reset two-step sign-in' }).click();
  const reset = admin.getByRole('dialog', { name: 'Reset Bob Builder’s two-step sign-in?' });
  await expect(reset).toContainText('recovery codes and passkeys');
  await reset.getByRole('button', { name: 'Reset two-step sign-in' }).click();
  await expect(admin.getByText(/^Bob Builder had no two-step sign-in: nothing changed$/)).toBeVisible();
  await signIn(bob.page, bob.person);
  await expect(bob.page.getByRole('alert')).toContainText('Your account has been disabled');

  // The administrator's own row offers nothing (no disabling or signing out oneself, nor taking one's own administration away).
  await expect(admin.getByRole('list', { name: 'People' }).getByRole('listitem', { name: 'Rita Root' })).toContainText('(you)');
  await expect(admin.getByRole('button', { name: 'More for Rita Root' })).toHaveCount(0);

  // Enabled again, Bob signs in; signed out everywhere, his page goes to sign-in again.
  const show = (which: string) =>
    admin
      .getByRole('radiogroup', { name: 'Show' })
      .locator('label', { hasText: new RegExp(`^${which}$`) })
      .click();
  await show('Disabled');
  await expect(admin.getByRole('list', { name: 'People' }).getByRole('listitem')).toHaveCount(1);
  await bobRow.getByRole('button', { name: 'More for Bob Builder' }).click();
  await admin.getByRole('menuitem', { name: 'Enable account' }).click();
  await expect(admin.getByText('Bob Builder’s account is enabled: they can sign in again')).toBeVisible();
  await expect(admin.getByRole('heading', { name: 'No one found' })).toBeVisible();
  // He typed his password at the provider when Cabinet refused him: its session takes him in now.
  await bob.page.goto('/signin');
  await bob.page.getByRole('link', { name: /Continue with/ }).click();
  await expect(bob.page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
  await show('Everyone');
  await bobRow.getByRole('button', { name: 'More for Bob Builder' }).click();
  await admin.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
  await admin.getByRole('dialog', { name: 'Sign Bob Builder out everywhere?' }).getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(admin.getByText(/^Ended 1 session of Bob Builder$/)).toBeVisible();
  await expect(bob.page).toHaveURL(/\/signin/, { timeout: 30_000 });

  // Settings in force, secrets masked; the audit log names each action.
  await openAdminPage(admin, 'Settings', 'Settings in force');
  const settings = admin.getByRole('table', { name: 'Settings in force' });
  await expect(settings.getByRole('row', { name: /SESSION_SECRET/ })).toContainText('••••••••');
  await expect(settings.getByRole('row', { name: /^PORT/ })).toContainText(String(port));
  await checkLooks(admin, 'settings');
  await openAdminPage(admin, 'Audit log', 'Audit log');
  const actions = admin.getByRole('list', { name: 'Administrators’ actions' });
  for (const text of [
    `Rita Root reset the two-step sign-in of ${bob.person.email}`,
    `Rita Root signed ${bob.person.email} out everywhere`,
    `Rita Root enabled the account of ${bob.person.email}`,
    `Rita Root disabled the account of ${bob.person.email}`,
    /Rita Root changed the quota of .* from none to 2 GiB/,
    'Rita Root retried a failed upload.discard job',
  ])
    await expect(actions.getByRole('listitem').filter({ hasText: text })).toHaveCount(1);
  await checkLooks(admin, 'audit');
});
