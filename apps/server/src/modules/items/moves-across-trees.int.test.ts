import { grantsApi, itemsApi } from '@cabinet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given, type Person } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

/** An editor cannot take an item from those who manage it: not by a move, a restore or a copy (ADR 0017). */
let t: TestApp;
let g: ReturnType<typeof given>;
beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'error' });
  g = given(t.ctx, t.url);
});
afterAll(() => t.close());

const create = async (p: Person, ws: string, parentId: string, name: string, kind: 'folder' | 'document' = 'folder') => {
  const res = await p.call(itemsApi.create, { params: { ws }, body: { kind, name, parentId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};

/** The owner's workspace with a member (and their My files) in it. */
async function team() {
  const ada = await g.person('Ada');
  const bea = await g.person('Bea');
  const beaHome = await g.membership(bea, ada.workspace.id, 'member');
  return { ada, bea, beaHome, ws: ada.workspace.id };
}

describe('an editor taking an item into their own My files', () => {
  it('is refused for a team file, which stays where it is and cannot be deleted forever by them', async () => {
    const { ada, bea, beaHome, ws } = await team();
    const plan = await create(ada, ws, ada.workspace.rootId, 'Plan', 'document');
    const moved = await bea.call(itemsApi.update, { params: { id: plan }, body: { parentId: beaHome } });
    expect(moved.status).toBe(403);
    expect(moved.body.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('manages') });
    expect((await bea.call(itemsApi.trash, { params: { id: plan } })).status).toBe(200);
    expect((await bea.call(itemsApi.purge, { params: { id: plan } })).status).toBe(403);
    expect((await bea.call(itemsApi.restore, { params: { id: plan } })).status).toBe(200);
    expect((await ada.call(itemsApi.get, { params: { id: plan } })).body).toMatchObject({ parentId: ada.workspace.rootId, role: 'manager' });
  });

  it("is refused for a private folder's content shared with them as editor, with a document's attachments", async () => {
    const { ada, bea, beaHome, ws } = await team();
    const folder = await create(ada, ws, ada.workspace.homeId, 'Board');
    await g.grant(folder, { user: bea }, 'editor');
    const doc = await create(ada, ws, folder, 'Minutes', 'document');
    const picture = (await g.upload(ada, doc, 'chart.png', new Uint8Array([1, 2, 3]))).body.item as { id: string };
    for (const id of [doc, folder]) expect(await bea.call(itemsApi.update, { params: { id }, body: { parentId: beaHome } })).toFail('forbidden');
    // The attachment alone cannot leave either.
    expect(await bea.call(itemsApi.update, { params: { id: picture.id }, body: { parentId: beaHome } })).toFail('forbidden');
    expect((await ada.call(itemsApi.get, { params: { id: doc } })).body).toMatchObject({ parentId: folder, role: 'manager' });
    expect((await ada.call(itemsApi.get, { params: { id: picture.id } })).body).toMatchObject({ parentId: doc, role: 'manager' });
    // Within the folder shared with them, they still move things.
    const sub = await create(bea, ws, folder, 'Archive');
    expect((await bea.call(itemsApi.update, { params: { id: doc }, body: { parentId: sub } })).status).toBe(200);
    expect((await ada.call(itemsApi.get, { params: { id: doc } })).body).toMatchObject({ parentId: sub, role: 'manager' });
  });

  it('is refused for a guest editing a folder shared with them, into another folder shared with them elsewhere', async () => {
    const { ada, ws } = await team();
    const cy = await g.person('Cy');
    await g.membership(cy, ws, 'guest');
    const mine = await create(ada, ws, ada.workspace.homeId, 'Mine');
    const team_ = await create(ada, ws, ada.workspace.rootId, 'Team');
    await g.grant(mine, { user: cy }, 'editor');
    await g.grant(team_, { user: cy }, 'editor');
    const note = await create(ada, ws, mine, 'Note', 'document');
    expect((await cy.call(itemsApi.update, { params: { id: note }, body: { parentId: team_ } })).status).toBe(403);
    expect((await ada.call(itemsApi.get, { params: { id: note } })).body.parentId).toBe(mine);
  });

  it('is refused within one tree when it would give them more rights (editor here, manager there)', async () => {
    const { ada, bea, ws } = await team();
    const edits = await create(ada, ws, ada.workspace.homeId, 'Edits');
    const manages = await create(ada, ws, ada.workspace.homeId, 'Manages');
    await g.grant(edits, { user: bea }, 'editor');
    await g.grant(manages, { user: bea }, 'manager');
    const file = await create(ada, ws, edits, 'Budget', 'document');
    expect((await bea.call(itemsApi.update, { params: { id: file }, body: { parentId: manages } })).status).toBe(403);
    // The other way round they manage it, so it may go.
    const other = await create(ada, ws, manages, 'Draft', 'document');
    expect((await bea.call(itemsApi.update, { params: { id: other }, body: { parentId: edits } })).status).toBe(200);
  });

  it('is allowed to someone who manages the item, as deleting it forever is', async () => {
    const { ada, bea, beaHome, ws } = await team();
    const folder = await create(ada, ws, ada.workspace.homeId, 'Handover');
    await g.grant(folder, { user: bea }, 'manager');
    const doc = await create(ada, ws, folder, 'Report', 'document');
    expect((await bea.call(itemsApi.update, { params: { id: doc }, body: { parentId: beaHome } })).body).toMatchObject({ parentId: beaHome, role: 'manager' });
    // And a member gives their own file to the team: the team's managers have it now.
    const own = await create(bea, ws, beaHome, 'Idea', 'document');
    expect((await bea.call(itemsApi.update, { params: { id: own }, body: { parentId: ada.workspace.rootId } })).body).toMatchObject({ role: 'editor' });
    expect((await ada.call(itemsApi.get, { params: { id: own } })).body.role).toBe('manager');
  });
});

describe('restoring when the original folder is gone', () => {
  it('brings a team item back into the shared root, not into its creator’s My files', async () => {
    const { ada, bea, ws } = await team();
    const outer = await create(ada, ws, ada.workspace.rootId, 'Outer');
    const mine = await create(bea, ws, outer, 'Made by Bea', 'document');
    await bea.call(itemsApi.trash, { params: { id: mine } });
    await ada.call(itemsApi.trash, { params: { id: outer } });
    const restored = await bea.call(itemsApi.restore, { params: { id: mine } });
    expect(restored.body).toMatchObject({ restoredInto: 'root', item: { parentId: ada.workspace.rootId, role: 'editor' } });
    expect((await bea.call(itemsApi.purge, { params: { id: mine } })).status).toBe(404);
    expect((await ada.call(itemsApi.get, { params: { id: mine } })).body.role).toBe('manager');
  });

  it("keeps an item of someone's My files in that My files: a grantee restores its folder first", async () => {
    const { ada, bea, ws } = await team();
    const shared = await create(ada, ws, ada.workspace.homeId, 'Shared');
    await g.grant(shared, { user: bea }, 'editor');
    const made = await create(bea, ws, shared, 'Bea made this', 'document');
    await bea.call(itemsApi.trash, { params: { id: made } });
    await bea.call(itemsApi.trash, { params: { id: shared } });
    const refused = await bea.call(itemsApi.restore, { params: { id: made } });
    expect(refused.status).toBe(403);
    expect(refused.error?.message).toContain('restore that folder first');
    const restored = await ada.call(itemsApi.restore, { params: { id: made } });
    expect(restored.body).toMatchObject({ restoredInto: 'root', item: { parentId: ada.workspace.homeId, role: 'manager' } });
    expect((await bea.call(itemsApi.get, { params: { id: made } })).status).toBe(404);
  });
});

describe('copying', () => {
  it('makes new items the copier owns, without the grants of the originals', async () => {
    const { ada, bea, beaHome, ws } = await team();
    const cy = await g.person('Cy');
    await g.membership(cy, ws, 'guest');
    const folder = await create(ada, ws, ada.workspace.rootId, 'Team');
    const inner = await create(ada, ws, folder, 'Inner', 'document');
    await g.grant(inner, { user: cy }, 'manager');
    await g.grant(folder, { workspace: ws }, 'manager');
    const copy = await bea.raw('POST', `/items/${folder}/copy`, { parentId: beaHome });
    expect(copy.body).toMatchObject({ ownerId: bea.id, parentId: beaHome, role: 'manager' });
    const [copiedInner] = (await bea.call(itemsApi.children, { params: { ws, id: copy.body.id } })).body.items;
    expect(copiedInner).toMatchObject({ name: 'Inner', ownerId: bea.id });
    expect((await cy.raw('GET', `/items/${copiedInner.id}`)).status).toBe(404);
    expect((await ada.call(itemsApi.get, { params: { id: copy.body.id } })).status).toBe(404);
    expect((await bea.call(grantsApi.list, { params: { id: copy.body.id } })).body.items).toEqual([]);
    // The originals are untouched.
    expect((await cy.call(itemsApi.get, { params: { id: inner } })).body.role).toBe('manager');
  });
});
