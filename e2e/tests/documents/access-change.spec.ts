import { grantsApi, type TItemRole } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

test('an open document follows its share: lowered to viewer it turns read-only, withdrawn it closes', async ({ page: owner, browser }) => {
  const ownerEditor = await newDocument(owner, 'Plans');
  await owner.keyboard.type('Kick-off on Monday.');
  const url = owner.url();
  const documentId = url.split('/d/')[1]!;

  const { context: b, page: other, user: emil } = await signUpInNewBrowser(browser, 'Emil Editor');
  const share = (role: TItemRole) => apiCall(owner, grantsApi.create, { params: { id: documentId }, body: { principal: { type: 'user', id: emil.id }, role } });
  const grant = await share('editor');
  expect(grant.status).toBe(201);

  await other.goto(url);
  const editor = other.getByLabel('Content of Plans');
  await expect(editor).toContainText('Kick-off on Monday.');
  await expect(editor).toHaveAttribute('contenteditable', 'true');

  // Lowered while the page is open: no reload, the page says so and stops taking words.
  expect((await share('viewer')).body.role).toBe('viewer');
  await expect(other.getByText('Your access to this document changed: you can now only read it.')).toBeVisible();
  await expect(other.getByText('View only')).toBeVisible();
  await expect(editor).toHaveAttribute('contenteditable', 'false');
  // The owner's words still arrive.
  await ownerEditor.click();
  await owner.keyboard.press('Control+End');
  await owner.keyboard.type(' Bring the slides.');
  await expect(editor).toContainText('Bring the slides.');

  // Withdrawn: the document closes.
  expect((await apiCall(owner, grantsApi.remove, { params: { id: documentId, grantId: grant.body.id } })).status).toBe(204);
  await expect(other.getByText('You do not have access to this document, or it no longer exists.')).toBeVisible({ timeout: 20_000 });
  await expect(other.getByLabel('Content of Plans')).toHaveCount(0);
  await b.close();
});
