import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screen } from '../../fixtures/screens.ts';

test('lists revisions, shows one against the document now, and restores it live for another window', async ({ page, browser, account }) => {
  const editor = await newDocument(page, 'Plan');
  await page.keyboard.type('Launch on Friday.');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  const url = page.url();
  // Leaving the document records a revision.
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My files' }).click();
  await page.goto(url);
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Actually, wait until Monday.');

  // The same person in another window.
  const b = await browser.newContext({ storageState: account.storageState });
  const other = await b.newPage();
  await other.goto(url);
  await expect(other.getByLabel('Content of Plan')).toContainText('Actually, wait until Monday.');

  await page.getByRole('button', { name: 'History' }).click();
  const drawer = page.getByRole('dialog', { name: 'Revision history' });
  await drawer
    .getByRole('list', { name: 'Revisions' })
    .getByRole('button', { name: /Edited by/ })
    .click();
  const compared = drawer.getByLabel('Revision compared with the current document');
  await expect(compared).toContainText('Launch on Friday.');
  // From the revision to now: what was written since is added (green), and nothing was removed.
  await expect(drawer).toContainText('From this revision to the document now: green text was added since, red, struck-out text was removed since.');
  await expect(compared.getByRole('insertion')).toHaveText('Actually, wait until Monday.');
  await expect(compared.getByRole('deletion')).toHaveCount(0);
  const added = await compared.getByRole('insertion').evaluate((el) => getComputedStyle(el).backgroundColor);
  const green = await drawer.locator('ins.legend').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(added).toBe(green);
  await screen(page, 'document-history');
  // Restoring asks first, naming the revision; Cancel leaves the document as it is.
  await drawer.getByRole('button', { name: 'Restore this revision' }).click();
  const confirm = page.getByRole('dialog', { name: /^Restore the revision of .+\?$/ });
  await expect(confirm).toContainText(`Edited by ${account.person.name}`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByLabel('Content of Plan')).toContainText('Monday');
  await drawer.getByRole('button', { name: 'Restore this revision' }).click();
  await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(page.getByText(/Restored the revision of/)).toBeVisible();

  for (const p of [page, other]) {
    await expect(p.getByLabel('Content of Plan')).not.toContainText('Monday');
    await expect(p.getByLabel('Content of Plan')).toContainText('Launch on Friday.');
  }
  await page.getByRole('button', { name: 'History' }).click();
  // The restore, then what the document was just before it (Monday's line, kept), then the first revision.
  const revisions = drawer.getByRole('list', { name: 'Revisions' }).getByRole('button');
  await expect(revisions).toHaveCount(3);
  await expect(revisions.first()).toContainText('Restored the revision of');
  await revisions.nth(1).click();
  await expect(drawer.getByLabel('Revision compared with the current document')).toContainText('Actually, wait until Monday.');
  await b.close();
});
