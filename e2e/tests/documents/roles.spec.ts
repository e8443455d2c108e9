import { grantsApi } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { signUpInNewBrowser } from '../../fixtures/accounts.ts';
import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

test('a viewer reads along but cannot write; as a commenter they comment but still cannot write', async ({ page: owner, browser }) => {
  const ownerEditor = await newDocument(owner, 'Budget');
  await owner.keyboard.type('Travel: 1200.');
  const url = owner.url();
  const documentId = url.split('/d/')[1]!;

  // By account, not by address: an address reaches only an account that confirmed it.
  const { context: b, page: viewer, user: vera } = await signUpInNewBrowser(browser, 'Vera Viewer');
  const grant = await apiCall(owner, grantsApi.create, { params: { id: documentId }, body: { principal: { type: 'user', id: vera.id }, role: 'viewer' } });
  expect(grant.status).toBe(201);

  await viewer.goto(url);
  const viewerEditor = viewer.getByLabel('Content of Budget');
  await expect(viewerEditor).toContainText('Travel: 1200.');
  await expect(viewer.getByText('View only')).toBeVisible();
  await expect(viewer.getByRole('toolbar', { name: 'Formatting' })).toHaveCount(0);
  await expect(viewerEditor).toHaveAttribute('contenteditable', 'false');
  await viewerEditor.click();
  await viewer.keyboard.type('Hotel: 9999.');
  await expect(viewerEditor).not.toContainText('9999');
  // The owner's next words still reach the viewer; the viewer's never reach the owner.
  await ownerEditor.click();
  await owner.keyboard.press('Control+End');
  await owner.keyboard.type(' Food: 300.');
  await expect(viewerEditor).toContainText('Food: 300.');
  await expect(ownerEditor).not.toContainText('9999');

  // Raised to commenter: a Comment button, still no writing.
  const raised = await apiCall(owner, grantsApi.create, { params: { id: documentId }, body: { principal: { type: 'user', id: vera.id }, role: 'commenter' } });
  expect(raised.body.role).toBe('commenter');
  await viewer.reload();
  await expect(viewer.getByText('Can comment')).toBeVisible();
  await expect(viewerEditor).toHaveAttribute('contenteditable', 'false');
  await viewerEditor.getByText('Travel: 1200.').selectText();
  await viewer.getByRole('toolbar', { name: 'Document tools' }).getByRole('button', { name: 'Comment' }).click();
  const panel = viewer.getByRole('region', { name: 'Comments' });
  await panel.getByLabel('Comment', { exact: true }).fill('Can we book earlier?');
  await panel.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(panel.getByRole('article', { name: /Comment by Vera Viewer/ })).toBeVisible();
  await owner.getByRole('button', { name: 'Comments' }).click();
  await expect(owner.getByRole('region', { name: 'Comments' }).getByRole('article', { name: /Comment by Vera Viewer/ })).toContainText('Can we book earlier?');
  await b.close();
});
