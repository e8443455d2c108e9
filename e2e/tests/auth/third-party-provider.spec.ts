import { groupsApi, workspacesApi } from '@cabinet/contracts';
import { expect, test, type Page } from '@playwright/test';
import { apiCall } from '../../fixtures/api.ts';
import { glewlwydMissing, startGlewlwyd, type Glewlwyd, type GlewlwydPerson } from '../../fixtures/glewlwyd.ts';
import { startInstance, type Instance } from '../../fixtures/instance.ts';

// Signing in through an OpenID Connect provider no one here wrote: Debian's glewlwyd (ADR 0068), where it is installed.
const missing = glewlwydMissing();
if (missing) console.log(`Skipped: signing in through glewlwyd, as ${missing}.`);
test.skip(!!missing, `glewlwyd cannot run here: ${missing}`);

const person: GlewlwydPerson = {
  username: 'ada',
  password: 'an-analytical-engine-1843',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  groups: ['Design', 'Research'],
};

let glewlwyd: Glewlwyd | undefined;
let cabinet: Instance | undefined;

// Ports of this test's own beside the app's (E2E_PORT; +1 the app on S3, +2 the administration test's Cabinet), below
// the kernel's range for outgoing connections, which could take a port found free before its server listens.
const cabinetPort = Number(process.env.E2E_PORT ?? 8787) + 3;
const glewlwydPort = cabinetPort + 1;

test.beforeAll(async () => {
  const url = `http://localhost:${cabinetPort}`;
  glewlwyd = await startGlewlwyd(glewlwydPort, url, person);
  cabinet = await startInstance(cabinetPort, undefined, {
    OIDC_ISSUER: glewlwyd.issuer,
    OIDC_CLIENT_ID: glewlwyd.clientId,
    OIDC_CLIENT_SECRET: glewlwyd.clientSecret,
    OIDC_PROVIDER_NAME: 'Glewlwyd',
    // glewlwyd puts name and email in the ID token by its own settings; `openid` is the one scope it knows at first.
    OIDC_SCOPES: 'openid',
    OIDC_GROUPS_CLAIM: 'groups',
  });
});

test.afterAll(async () => {
  await cabinet?.stop();
  await glewlwyd?.stop();
});

/** From Cabinet's sign-in page through glewlwyd's own pages: its login form, then on to Cabinet. */
async function signInThroughGlewlwyd(page: Page) {
  await page.getByRole('link', { name: 'Continue with Glewlwyd' }).click();
  await expect(page).toHaveURL(new RegExp(`^${glewlwyd!.url}/login\\.html`));
  await page.getByLabel('Login').fill(person.username);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText(`Hello ${person.name}`)).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Ada' })).toBeVisible();
}

test('a person signs in through glewlwyd: their account is made from its claims, its groups claim puts them in the workspace’s groups, they sign out through it, and when glewlwyd ends their session Cabinet’s ends too', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: cabinet!.url });
  const page = await context.newPage();
  await page.goto('/signin');
  await signInThroughGlewlwyd(page);

  // The account is glewlwyd's person: name and email from the ID token.
  await page.goto('/account');
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(person.name);
  await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue(person.email);

  // Her workspace has groups of the names glewlwyd sends, and one it does not. No group is made from the claim.
  const workspace = (await apiCall(page, workspacesApi.list)).body.items[0]!;
  expect((await apiCall(page, groupsApi.list, { params: { ws: workspace.id } })).body.items).toEqual([]);
  for (const name of ['design', 'Operations']) {
    expect((await apiCall(page, groupsApi.create, { params: { ws: workspace.id }, body: { name } })).status).toBe(201);
  }

  // Signing out ends glewlwyd's session too (RP-initiated logout): it asks, with Cabinet's post-logout address. (Its
  // page, in glewlwyd 2.7, then says the session is closed rather than going there; she goes back to Cabinet herself.)
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(new RegExp(`^${glewlwyd!.url}/login\\.html.*callback_url=${encodeURIComponent(`${cabinet!.url}/signin`)}`));
  await expect(page.getByText('The client Cabinet wishes you to close the current session')).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByText('You are disconnected')).toBeVisible();
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin/);

  // Signing in again asks for her password again, and the claim now puts her in "design", not in "Operations".
  await signInThroughGlewlwyd(page);
  await page.goto(`/w/${workspace.slug}/settings/groups`);
  const groups = page.getByRole('list', { name: 'Groups' });
  await expect(groups.getByRole('listitem', { name: 'design' })).toContainText('1 person');
  await expect(groups.getByRole('listitem', { name: 'Operations' })).toContainText('0 people');
  await groups.getByRole('button', { name: 'Open group design' }).click();
  const dialog = page.getByRole('dialog', { name: 'Group “design”' });
  await expect(dialog.getByRole('list', { name: 'People in design' }).getByRole('listitem')).toContainText([`${person.name}`]);
  await expect(dialog.getByText('From sign-in')).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();

  // glewlwyd ends her session as its own pages do (with her cookie, by its session id): it tells Cabinet over the
  // back channel, and her next page in Cabinet is the sign-in page.
  const sid = (await context.cookies(glewlwyd!.url)).find((c) => c.name === 'GLEWLWYD2_OIDC_SID')?.value;
  expect(sid).toBeTruthy();
  const ended = await context.request.delete(`${glewlwyd!.url}/api/oidc/session/${sid}`);
  expect(ended.status()).toBe(200);
  await page.goto('/account');
  await expect(page).toHaveURL(/\/signin\?returnTo=%2Faccount/);
  await context.close();
});
