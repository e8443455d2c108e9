import { grantsApi, itemsApi } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { type Person } from '../../testing/given.ts';
import { useTestApp } from '../../testing/test-app.ts';

/** An editor cannot take an item from those who manage it: not by a move, a restore or a copy (ADR 0017). */
const test = useTestApp({ LOG_LEVEL: 'error' });

const create = async (p: Person, ws: string, parentId: string, name: string, kind: 'folder' | 'document' = 'folder') =>
  (await test.given.item(p, parentId, kind, name, ws)).id;

/** The owner's workspace with a member (and their My files) in it. */
async function team() {
  const ada = await test.given.person('Ada');
  const bea = await test.given.person('Bea');
  const beaHome = await test.given.membership(bea, ada.workspace.id, 'member');
  return { ada, bea, beaHome, ws: ada.workspace.id };
}

describe('an editor taking an item into their own My files', () => {
  it('is refused for a team file, which stays where it is and cannot be deleted forever by them', async () => {
    const { ada, bea, beaHome, ws } = await team();
    const plan = await create(ada, ws, ada.workspace.rootId, 'Plan', 'document');
    const moved = await bea.call(itemsApi.update, { params: { id: plan }, body: { parentId: beaHome } });
    expect(moved).toFail('forbidden');
    expect(moved.error?.message).toContain('manages');
    expect((await bea.call(itemsApi.trash, { params: { id: plan } })).status).toBe(200);
    expect(await bea.call(itemsApi.purge, { params: { id: plan } })).toFail('forbidden');
    expect((await bea.call(itemsApi.restore, { params: { id: plan } })).status).toBe(200);
    expect((await ada.call(itemsApi.get, { params: { id: plan } })).body).toMatchObject({ parentId: ada.workspace.rootId, role: 'manager' });
  });

  it("is refused for a private folder's content shared with them as editor, with a document's attachments", async () => {
    const { ada, bea, beaHome, ws } = await team();
    const folder = await create(ada, ws, ada.workspace.homeId, 'Board');
    await test.given.grant(folder, { user: bea }, 'editor');
    const doc = await create(ada, ws, folder, 'Minutes', 'document');
    const picture = (await test.given.upload(ada, doc, 'chart.png', new Uint8Array([1, 2, 3]))).body.item;
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
    const cy = await test.given.person('Cy');
    await test.given.membership(cy, ws, 'guest');
    const mine = await create(ada, ws, ada.workspace.homeId, 'Mine');
    const team_ = await create(ada, ws, ada.workspace.rootId, 'Team');
    await test.given.grant(mine, { user: cy }, 'editor');
    await test.given.grant(team_, { user: cy }, 'editor');
    const note = await create(ada, ws, mine, 'Note', 'document');
    expect(await cy.call(itemsApi.update, { params: { id: note }, body: { parentId: team_ } })).toFail('forbidden');
    expect((await ada.call(itemsApi.get, { params: { id: note } })).body.parentId).toBe(mine);
  });

  it('is refused within one tree when it would give them more rights (editor here, manager there)', async () => {
    const { ada, bea, ws } = await team();
    const edits = await create(ada, ws, ada.workspace.homeId, 'Edits');
    const manages = await create(ada, ws, ada.workspace.homeId, 'Manages');
    await test.given.grant(edits, { user: bea }, 'editor');
    await test.given.grant(manages, { user: bea }, 'manager');
    const file = await create(ada, ws, edits, 'Budget', 'document');
    expect(await bea.call(itemsApi.update, { params: { id: file }, body: { parentId: manages } })).toFail('forbidden');
    // The other way round they manage it, so it may go.
    const other = await create(ada, ws, manages, 'Draft', 'document');
    expect((await bea.call(itemsApi.update, { params: { id: other }, body: { parentId: edits } })).status).toBe(200);
  });

  it('is allowed to someone who manages the item, as deleting it forever is', async () => {
    const { ada, bea, beaHome, ws } = await team();
    const folder = await create(ada, ws, ada.workspace.homeId, 'Handover');
    await test.given.grant(folder, { user: bea }, 'manager');
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
    expect(await bea.call(itemsApi.purge, { params: { id: mine } })).toFail('not_found');
    expect((await ada.call(itemsApi.get, { params: { id: mine } })).body.role).toBe('manager');
  });

  it("keeps an item of someone's My files in that My files: a grantee restores its folder first", async () => {
    const { ada, bea, ws } = await team();
    const shared = await create(ada, ws, ada.workspace.homeId, 'Shared');
    await test.given.grant(shared, { user: bea }, 'editor');
    const made = await create(bea, ws, shared, 'Bea made this', 'document');
    await bea.call(itemsApi.trash, { params: { id: made } });
    await bea.call(itemsApi.trash, { params: { id: shared } });
    const refused = await bea.call(itemsApi.restore, { params: { id: made } });
    expect(refused).toFail('forbidden');
    expect(refused.error?.message).toContain('restore that folder first');
    const restored = await ada.call(itemsApi.restore, { params: { id: made } });
    expect(restored.body).toMatchObject({ restoredInto: 'root', item: { parentId: ada.workspace.homeId, role: 'manager' } });
    expect(await bea.call(itemsApi.get, { params: { id: made } })).toFail('not_found');
  });
});

describe('copying', () => {
  it('makes new items the copier owns, without the grants of the originals', async () => {
    const { ada, bea, beaHome, ws } = await team();
    const cy = await test.given.person('Cy');
    await test.given.membership(cy, ws, 'guest');
    const folder = await create(ada, ws, ada.workspace.rootId, 'Team');
    const inner = await create(ada, ws, folder, 'Inner', 'document');
    await test.given.grant(inner, { user: cy }, 'manager');
    await test.given.grant(folder, { workspace: ws }, 'manager');
    const copy = await bea.call(itemsApi.copy, { params: { id: folder }, body: { parentId: beaHome } });
    expect(copy.body).toMatchObject({ ownerId: bea.id, parentId: beaHome, role: 'manager' });
    const copiedInner = (await bea.call(itemsApi.children, { params: { ws, id: copy.body.id } })).body.items[0]!;
    expect(copiedInner).toMatchObject({ name: 'Inner', ownerId: bea.id });
    expect(await cy.call(itemsApi.get, { params: { id: copiedInner.id } })).toFail('not_found');
    expect(await ada.call(itemsApi.get, { params: { id: copy.body.id } })).toFail('not_found');
    expect((await bea.call(grantsApi.list, { params: { id: copy.body.id } })).body.items).toEqual([]);
    // The originals are untouched.
    expect((await cy.call(itemsApi.get, { params: { id: inner } })).body.role).toBe('manager');
  });
});
