import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let g: ReturnType<typeof given>;
beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'error' });
  g = given(t.ctx, t.url);
});
afterAll(() => t.close());

describe('sharing an item', () => {
  it('shares with someone outside the workspace by email, who joins as a guest and sees only that item', async () => {
    const ada = await g.person('Ada');
    const bea = await g.person('Bea');
    const folder = await g.folder(ada, ada.workspace.rootId, 'Plans');
    const other = await g.folder(ada, ada.workspace.rootId, 'Other');
    const email = (await bea.call('GET', '/me')).body.user.email as string;
    expect((await bea.call('GET', `/items/${folder.id}`)).status).toBe(404);
    const shared = await ada.call('POST', `/items/${folder.id}/grants`, { principal: { type: 'user', email: email.toUpperCase() }, role: 'commenter' });
    expect(shared.status).toBe(201);
    expect(shared.body).toMatchObject({ itemId: folder.id, role: 'commenter', expiresAt: null, principal: { type: 'user', id: bea.id, name: 'Bea', email } });
    expect((await bea.call('GET', `/items/${folder.id}`)).body.role).toBe('commenter');
    expect((await bea.call('GET', `/items/${other.id}`)).status).toBe(404);
    const workspaces = (await bea.call('GET', '/workspaces')).body.items;
    expect(workspaces.find((w: { id: string }) => w.id === ada.workspace.id)?.role).toBe('guest');

    // Sharing again changes the role; the list shows one grant.
    await ada.call('POST', `/items/${folder.id}/grants`, { principal: { type: 'user', id: bea.id }, role: 'editor' });
    const list = (await ada.call('GET', `/items/${folder.id}/grants`)).body.items;
    expect(list.map((x: { role: string }) => x.role)).toEqual(['editor']);
    expect((await bea.call('GET', `/items/${folder.id}`)).body.role).toBe('editor');

    expect((await ada.call('DELETE', `/items/${folder.id}/grants/${list[0].id}`)).status).toBe(204);
    expect((await bea.call('GET', `/items/${folder.id}`)).status).toBe(404);
    expect((await ada.call('DELETE', `/items/${folder.id}/grants/${list[0].id}`)).status).toBe(404);
  });

  it('shares with the whole workspace', async () => {
    const ada = await g.person('Ada');
    const bea = await g.person('Bea');
    await g.membership(bea, ada.workspace.id, 'guest');
    const mine = await g.folder(ada, ada.workspace.homeId, 'Mine');
    expect((await bea.call('GET', `/items/${mine.id}`)).status).toBe(404);
    const res = await ada.call('POST', `/items/${mine.id}/grants`, { principal: { type: 'workspace' }, role: 'viewer' });
    expect(res.body.principal).toMatchObject({ type: 'workspace', id: ada.workspace.id });
    expect((await bea.call('GET', `/items/${mine.id}`)).body.role).toBe('viewer');
  });

  it('is for managers, with a known person and an expiry still to come', async () => {
    const ada = await g.person('Ada');
    const bea = await g.person('Bea');
    const cy = await g.person('Cy');
    await g.membership(bea, ada.workspace.id, 'member');
    const folder = await g.folder(ada, ada.workspace.rootId, 'Team');
    const share = (by: typeof ada, body: unknown) => by.call('POST', `/items/${folder.id}/grants`, body);
    expect((await share(bea, { principal: { type: 'user', id: cy.id }, role: 'viewer' })).body.error.code).toBe('forbidden');
    expect((await bea.call('GET', `/items/${folder.id}/grants`)).body.error.code).toBe('forbidden');
    expect((await share(cy, { principal: { type: 'workspace' }, role: 'viewer' })).body.error.code).toBe('not_found');
    expect((await share(ada, { principal: { type: 'user', email: 'nobody@example.com' }, role: 'viewer' })).body.error.code).toBe('invalid_input');
    expect((await share(ada, { principal: { type: 'user', id: cy.id }, role: 'owner' })).body.error.code).toBe('invalid_input');
    expect((await share(ada, { principal: { type: 'user', id: cy.id }, role: 'viewer', expiresAt: new Date(Date.now() - 1000).toISOString() })).body.error.code).toBe('invalid_input');
    const later = new Date(Date.now() + 86_400_000).toISOString();
    expect((await share(ada, { principal: { type: 'user', id: cy.id }, role: 'viewer', expiresAt: later })).body.expiresAt).toBe(later);
  });
});
