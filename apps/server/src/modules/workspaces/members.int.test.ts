import { grantsApi, itemsApi, meApi, workspacesApi } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import type { Person } from '../../testing/given.ts';
import { useTestApp } from '../../testing/test-app.ts';

const test = useTestApp();

describe('the member list', () => {
  it('lists the members by name, filters by part of a name or email, and is not for guests or outsiders', async () => {
    const ada = await test.given.person('Ada Lovelace');
    const bea = await test.given.person('Bea Turing');
    const cy = await test.given.person('Cy Guest');
    const dee = await test.given.person('Dee Outside');
    await test.given.membership(bea, ada.workspace.id, 'member');
    await test.given.membership(cy, ada.workspace.id, 'guest');
    await test.given.grant((await test.given.folder(ada, ada.workspace.rootId, 'For Cy')).id, { user: cy }, 'viewer');
    const all = await bea.call(workspacesApi.members, { params: { ws: ada.workspace.id } });
    expect(all.status).toBe(200);
    expect(all.body.items.map((m) => [m.name, m.role])).toEqual([
      ['Ada Lovelace', 'owner'],
      ['Bea Turing', 'member'],
      ['Cy Guest', 'guest'],
    ]);
    expect((await ada.call(workspacesApi.members, { params: { ws: ada.workspace.id }, query: { q: 'tur' } })).body.items.map((m) => m.userId)).toEqual([
      bea.id,
    ]);
    expect((await ada.call(workspacesApi.members, { params: { ws: ada.workspace.id }, query: { q: '%' } })).body.items).toEqual([]);
    // Searched on the server, as a picker does while someone types: members only, for a group.
    expect(
      (await ada.call(workspacesApi.members, { params: { ws: ada.workspace.id }, query: { q: 'u', exclude: 'guests' } })).body.items.map((m) => m.name),
    ).toEqual(['Bea Turing']);
    expect((await ada.call(workspacesApi.members, { params: { ws: ada.workspace.id }, query: { q: 'u' } })).body.items.map((m) => m.name)).toEqual([
      'Bea Turing',
      'Cy Guest',
    ]);
    // Raw: a value of exclude the declaration does not allow.
    expect(await ada.raw('GET', `/workspaces/${ada.workspace.id}/members?exclude=owners`)).toFail('invalid_input');
    expect((await ada.call(workspacesApi.members, { params: { ws: ada.workspace.id }, query: { limit: '1' } })).body.items).toHaveLength(1);
    expect(await cy.call(workspacesApi.members, { params: { ws: ada.workspace.id } })).toFail('forbidden');
    expect(await dee.call(workspacesApi.members, { params: { ws: ada.workspace.id } })).toFail('not_found');
    expect(await ada.call(workspacesApi.members, { params: { ws: ada.workspace.id }, query: { limit: '0' } })).toFail('invalid_input');
  });
});

describe('a guest', () => {
  const ids = async (p: Person) => (await p.call(workspacesApi.list)).body.items.map((w) => w.id);

  it('is in the workspace only while something is shared with them: not after the last share is removed or runs out', async () => {
    const ada = await test.given.person('Ada');
    const cy = await test.given.person('Cy');
    const email = (await cy.call(meApi.get)).body.user.email;
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Plans');
    const other = await test.given.folder(ada, ada.workspace.rootId, 'Other');
    const grant = (await ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', email }, role: 'viewer' } })).body;
    expect(await ids(cy)).toContain(ada.workspace.id);
    const homeId = (await cy.call(workspacesApi.get, { params: { ws: ada.workspace.id } })).body.homeId;

    expect((await ada.call(grantsApi.remove, { params: { id: folder.id, grantId: grant.id } })).status).toBe(204);
    expect(await ids(cy)).not.toContain(ada.workspace.id);
    expect(await cy.call(workspacesApi.get, { params: { ws: ada.workspace.id } })).toFail('not_found');
    expect((await cy.call(itemsApi.trashList, { params: { ws: ada.workspace.id } })).status).toBe(404);
    expect((await cy.call(itemsApi.get, { params: { id: homeId } })).status).toBe(404);
    expect((await ada.call(workspacesApi.members, { params: { ws: ada.workspace.id } })).body.items.map((m) => m.userId)).not.toContain(cy.id);

    // Shared again, they are back (as a guest, with the same My files); a share that has run out counts for nothing.
    await test.given.grant(other.id, { user: cy }, 'viewer', new Date(Date.now() - 1000));
    expect(await ids(cy)).not.toContain(ada.workspace.id);
    await ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', id: cy.id }, role: 'viewer' } });
    expect((await cy.call(workspacesApi.get, { params: { ws: ada.workspace.id } })).body).toMatchObject({ role: 'guest', homeId });
  });

  it('is not shown the usage, the quota or the member list, even with shares', async () => {
    const ada = await test.given.person('Ada');
    const cy = await test.given.person('Cy');
    await test.given.membership(cy, ada.workspace.id, 'guest');
    await test.given.grant((await test.given.folder(ada, ada.workspace.rootId, 'Shared')).id, { user: cy }, 'editor');
    await test.app.ctx.db.updateTable('workspaces').set({ quota_bytes: 1_000_000, used_bytes: 1234 }).where('id', '=', ada.workspace.id).execute();
    const seen = [
      (await cy.call(workspacesApi.get, { params: { ws: ada.workspace.id } })).body,
      (await cy.call(workspacesApi.list)).body.items.find((w) => w.id === ada.workspace.id),
    ];
    for (const w of seen) expect(w).toMatchObject({ role: 'guest', quotaBytes: null, usedBytes: null });
    expect((await ada.call(workspacesApi.get, { params: { ws: ada.workspace.id } })).body).toMatchObject({ quotaBytes: 1_000_000, usedBytes: 1234 });
    expect(await cy.call(workspacesApi.members, { params: { ws: ada.workspace.id } })).toFail('forbidden');
  });
});
