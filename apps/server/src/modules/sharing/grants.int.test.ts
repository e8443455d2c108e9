import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../../testing/given.ts';
import { updateUser } from '../users/users.repo.ts';
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

  it('by email reaches only an account that proved the address; one that did not gains nothing', async () => {
    const ada = await g.person('Ada');
    const real = await g.person('Real CEO');
    const squatter = await g.person('Squatter');
    const email = (await real.call('GET', '/me')).body.user.email as string;
    // Someone signs up elsewhere claiming the address, and never proves it.
    await updateUser(t.ctx.db, squatter.id, { email, email_verified: false });
    await updateUser(t.ctx.db, real.id, { email_verified: false });
    const folder = await g.folder(ada, ada.workspace.rootId, 'Board');
    const share = () => ada.call('POST', `/items/${folder.id}/grants`, { principal: { type: 'user', email }, role: 'editor' });
    const refused = await share();
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_input', details: { fields: [{ path: 'body.principal', message: expect.stringContaining('confirmed') }] } });
    for (const p of [real, squatter]) {
      expect((await p.call('GET', `/items/${folder.id}`)).status).toBe(404);
      expect((await p.call('GET', '/workspaces')).body.items.map((w: { id: string }) => w.id)).not.toContain(ada.workspace.id);
    }
    expect((await ada.call('GET', `/items/${folder.id}/grants`)).body.items).toEqual([]);

    // Once the real owner of the address has proved it, the share reaches them, and only them.
    await updateUser(t.ctx.db, real.id, { email_verified: true });
    expect((await share()).body.principal).toMatchObject({ type: 'user', id: real.id });
    expect((await real.call('GET', `/items/${folder.id}`)).body.role).toBe('editor');
    expect((await squatter.call('GET', `/items/${folder.id}`)).status).toBe(404);
  });

  it('shares with the whole workspace: its members, never its guests', async () => {
    const ada = await g.person('Ada');
    const bea = await g.person('Bea');
    const cy = await g.person('Cy');
    await g.membership(bea, ada.workspace.id, 'member');
    await g.membership(cy, ada.workspace.id, 'guest');
    const mine = await g.folder(ada, ada.workspace.homeId, 'Mine');
    const inside = await g.folder(ada, mine.id, 'Inside');
    await g.grant(inside.id, { user: cy }, 'viewer');
    expect((await bea.call('GET', `/items/${mine.id}`)).status).toBe(404);
    const res = await ada.call('POST', `/items/${mine.id}/grants`, { principal: { type: 'workspace' }, role: 'editor' });
    expect(res.body.principal).toMatchObject({ type: 'workspace', id: ada.workspace.id });
    expect((await bea.call('GET', `/items/${mine.id}`)).body.role).toBe('editor');
    expect((await cy.call('GET', `/items/${mine.id}`)).status).toBe(404);
    // Below it, the guest has what is shared with them alone.
    expect((await cy.call('GET', `/items/${inside.id}`)).body.role).toBe('viewer');
    expect((await cy.call('POST', `/workspaces/${ada.workspace.id}/items`, { kind: 'folder', name: 'x', parentId: inside.id })).status).toBe(403);
  });

  it('shows who has access to a manager reading through a token that may only read, who still cannot change it', async () => {
    const ada = await g.person('Ada');
    const bea = await g.person('Bea');
    const folder = await g.folder(ada, ada.workspace.rootId, 'Plans');
    await ada.call('POST', `/items/${folder.id}/grants`, { principal: { type: 'user', id: bea.id }, role: 'viewer' });
    const reader = await g.readOnly(ada);
    const list = await reader.call('GET', `/items/${folder.id}/grants`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((x: { principal: { id: string } }) => x.principal.id)).toEqual([bea.id]);
    expect((await reader.call('POST', `/items/${folder.id}/grants`, { principal: { type: 'user', id: bea.id }, role: 'editor' })).status).toBe(403);
    // A viewer sees the item, not who else has it.
    expect((await bea.call('GET', `/items/${folder.id}/grants`)).status).toBe(403);
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
    const gone = await g.person('Gone');
    await updateUser(t.ctx.db, gone.id, { status: 'deactivated' });
    expect((await share(ada, { principal: { type: 'user', id: gone.id }, role: 'viewer' })).body.error.code).toBe('invalid_input');
    expect((await share(ada, { principal: { type: 'user', id: cy.id }, role: 'owner' })).body.error.code).toBe('invalid_input');
    expect((await share(ada, { principal: { type: 'user', id: cy.id }, role: 'viewer', expiresAt: new Date(Date.now() - 1000).toISOString() })).body.error.code).toBe('invalid_input');
    const later = new Date(Date.now() + 86_400_000).toISOString();
    expect((await share(ada, { principal: { type: 'user', id: cy.id }, role: 'viewer', expiresAt: later })).body.expiresAt).toBe(later);
  });
});
