import { readFileSync } from 'node:fs';
import { groupsApi, invitationsApi, meApi, workspacesApi } from '@cabinet/contracts';
import { expect, test as newAccountTest, type Page } from '@playwright/test';
import { apiCall } from '../../fixtures/api.ts';
import { newPerson, signUp, signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { colourContrast, seriousViolations } from '../../fixtures/accessibility.ts';
import { screen } from '../../fixtures/screens.ts';
import { expectNoHorizontalOverflow } from '../../fixtures/layout.ts';

/** Picks an option of a labelled select. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

// A new account: the log's first entry is its sign-in, in the workspace made with it.
newAccountTest(
  'the owner sees what happened in the audit log, filters it and exports it as CSV; an item shows its own history; Home shows what was shared',
  async ({ page, browser }) => {
    // Bea has an account of her own; she will be given a folder.
    const {
      context: b,
      page: other,
      person: bea,
    } = await signUpInNewBrowser(browser, 'Bea Reader', { viewport: { width: 360, height: 740 }, colorScheme: 'dark' });

    await signUp(page, newPerson('Olive Owner'));
    const workspace = (await apiCall(page, workspacesApi.list)).body.items[0]!;

    // Bea joins as a member, and Olive puts her in a group.
    await other.goto((await apiCall(page, invitationsApi.create, { params: { ws: workspace.id }, body: { role: 'member' } })).body.url);
    await other.getByRole('button', { name: `Join ${workspace.name}` }).click();
    await expect(other).toHaveURL(new RegExp(`/w/${workspace.slug}$`));
    const beaId = (await apiCall(other, meApi.get)).body.user.id;
    const group = (await apiCall(page, groupsApi.create, { params: { ws: workspace.id }, body: { name: 'Readers' } })).body;
    await apiCall(page, groupsApi.addMembers, { params: { ws: workspace.id, groupId: group.id }, body: { userIds: [beaId] } });

    // Olive makes a folder, renames it and shares it with Bea.
    await page.getByRole('link', { name: 'My files' }).click();
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByLabel('Folder name').fill('Budget');
    await page.getByRole('button', { name: 'Create' }).click();
    const list = page.getByRole('table', { name: 'Contents of My files' });
    await expect(list.getByRole('link', { name: 'Budget' })).toBeVisible();
    await page.getByRole('button', { name: 'Actions for Budget' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByLabel('New name').fill('Budget 2027');
    await page.getByRole('button', { name: 'Rename' }).click();
    await expect(list.getByRole('link', { name: 'Budget 2027' })).toBeVisible();
    await page.getByRole('button', { name: 'Actions for Budget 2027' }).click();
    await page.getByRole('menuitem', { name: 'Share…' }).click();
    const share = page.getByRole('dialog', { name: 'Share “Budget 2027”' });
    await share.getByRole('combobox', { name: 'Person' }).fill(bea.email);
    await share.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(share.getByRole('list', { name: 'Who has access' }).getByText('Bea Reader')).toBeVisible();
    await share.getByRole('button', { name: 'Done' }).click();

    // The folder's details show its history, newest first.
    await page.getByRole('button', { name: 'Actions for Budget 2027' }).click();
    await page.getByRole('menuitem', { name: 'Details' }).click();
    const history = page.getByRole('dialog').getByRole('list', { name: 'Activity' });
    await expect(history.getByRole('listitem')).toHaveCount(3);
    await expect(history.getByRole('listitem').nth(0)).toContainText(/You shared it with Bea Reader \(\w+\) · /);
    await expect(history.getByRole('listitem').nth(1)).toContainText('You renamed it from “Budget”');
    await expect(history.getByRole('listitem').nth(2)).toContainText('You created it');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    const folderLink = new URL((await list.getByRole('link', { name: 'Budget 2027' }).getAttribute('href'))!, page.url()).href;

    // Settings → Audit log.
    await page.getByRole('link', { name: 'Members and settings' }).click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
    await expect(page).toHaveURL(new RegExp(`/w/${workspace.slug}/settings/audit$`));
    const log = page.getByRole('table', { name: 'Audit log' });
    await expect(log.getByRole('row').filter({ hasText: 'renamed “Budget 2027” from “Budget”' })).toHaveCount(1);
    await expect(log.getByRole('row').filter({ hasText: 'created “Budget 2027”' })).toHaveCount(1);
    await expect(log.getByRole('row').filter({ hasText: 'shared “Budget 2027”' })).toHaveCount(1);
    await expect(log.getByRole('row').filter({ hasText: 'signed in' }).first()).toContainText('Olive Owner');
    // Whom an entry is about is named.
    await expect(log.getByRole('row').filter({ hasText: 'shared “Budget 2027” with Bea Reader' })).toHaveCount(1);
    await expect(log.getByRole('row').filter({ hasText: 'added Bea Reader to the group “Readers”' })).toHaveCount(1);
    // Each check covers the light and the dark theme (seriousViolations switches them without a reload).
    expect(await seriousViolations(page)).toEqual([]);
    // Export CSV, which works, looks like a button that does in both themes: it stands out from the form (3:1).
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expect.poll(() => colourContrast(page.getByRole('link', { name: 'Export CSV' }), 'background-color')).toBeGreaterThanOrEqual(3);
    }

    // Filtered by person, found on the server as their name is typed: Olive's entries only.
    const searched = page.waitForRequest((r) => /\/members\?/.test(r.url()) && new URL(r.url()).searchParams.get('q') === 'Oli');
    await page.getByRole('combobox', { name: 'Person', exact: true }).fill('Oli');
    await searched;
    await page.getByRole('option', { name: /^Olive Owner/ }).click();
    await expect(page.getByRole('combobox', { name: 'Person', exact: true })).toHaveValue(/^Olive Owner/);
    await expect(log.getByRole('row').filter({ hasText: 'shared “Budget 2027”' })).toHaveCount(1);
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect(page.getByRole('combobox', { name: 'Person', exact: true })).toHaveValue('');

    // Filtered by action: only the rename.
    await choose(page, 'Action', 'Renamed');
    await expect(log.getByRole('row')).toHaveCount(2);
    await expect(log.getByRole('row').nth(1)).toContainText('renamed “Budget 2027” from “Budget”');

    // The export holds the filtered rows.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${workspace.slug}-activity-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const csv = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toContain('"Time","Actor","Actor email"');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain('"Olive Owner"');
    expect(csv[1]).toContain('"item.renamed"');
    expect(csv[1]).toContain('"Budget 2027"');

    // A filter that matches nothing says so; clearing it brings everything back.
    await choose(page, 'Action', 'Deleted forever');
    await expect(page.getByRole('heading', { name: 'Nothing matches these filters' })).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect(log.getByRole('row').filter({ hasText: 'signed in' }).first()).toBeVisible();

    // An item that is not a link or id: the export is a disabled button, with no address to follow by click or key.
    await page.getByRole('textbox', { name: 'Item' }).fill('not a link');
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveCount(0);
    // Filtering by the item's link finds its entries only: made, renamed, shared.
    await page.getByRole('textbox', { name: 'Item' }).fill(folderLink);
    await expect(log.getByRole('row')).toHaveCount(4);
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect(log.getByRole('row').filter({ hasText: 'signed in' }).first()).toBeVisible();

    // On a phone, in the dark, each entry is a card and nothing scrolls sideways.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.setViewportSize({ width: 360, height: 800 });
    const cards = page.getByRole('list', { name: 'Audit log' });
    await expect(cards.getByRole('listitem').filter({ hasText: 'renamed “Budget 2027” from “Budget”' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).not.toBeInViewport();
    await expectNoHorizontalOverflow(page);
    await screen(page, 'audit-360', { fullPage: true });

    // Bea finds the folder on her Home, under Recently shared with me.
    await other.goto(`/w/${workspace.slug}`);
    const recentlyShared = other.getByRole('region', { name: 'Recently shared with me' });
    await expect(recentlyShared.getByRole('link', { name: 'Budget 2027' })).toBeVisible();
    await recentlyShared.getByRole('link', { name: 'All shared with me' }).click();
    await expect(other.getByRole('table', { name: 'Shared with me' }).getByRole('link', { name: 'Budget 2027' })).toBeVisible();
    await b.close();
  },
);
