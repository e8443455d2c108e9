import { itemsApi } from '@cabinet/contracts';
import { expect, it } from 'vitest';
import { type Person } from '../../testing/given.ts';
import { useTestApp } from '../../testing/test-app.ts';

const test = useTestApp();

const folder = (p: Person, parentId: string, name: string) => test.given.folder(p, parentId, name);
const children = async (p: Person, id: string) => (await p.call(itemsApi.children, { params: { ws: p.workspace.id, id } })).body.items.map((i) => i.name);
const trashed = async (p: Person) => (await p.call(itemsApi.trashList, { params: { ws: p.workspace.id } })).body.items.map((i) => i.name);

it('trashes a folder with everything in it as one unit, and restores the same unit', async () => {
  const ada = await test.given.person();
  const a = await folder(ada, ada.workspace.homeId, 'Album');
  const inner = await folder(ada, a.id, 'Inner');
  expect((await ada.call(itemsApi.trash, { params: { id: a.id } })).status).toBe(200);
  expect(await ada.call(itemsApi.get, { params: { id: a.id } })).toFail('not_found');
  expect(await ada.call(itemsApi.get, { params: { id: inner.id } })).toFail('not_found');
  expect(await children(ada, ada.workspace.homeId)).toEqual([]);
  expect(await trashed(ada)).toEqual(['Album']);
  // The name is free again while the folder is in the trash.
  expect(
    (await ada.call(itemsApi.create, { params: { ws: ada.workspace.id }, body: { kind: 'folder', name: 'Album', parentId: ada.workspace.homeId } })).status,
  ).toBe(201);

  const restored = await ada.call(itemsApi.restore, { params: { id: a.id } });
  expect(restored.body).toMatchObject({ restoredInto: 'original', item: { name: 'Album (2)', parentId: ada.workspace.homeId } });
  expect((await ada.call(itemsApi.get, { params: { id: inner.id } })).body.parentId).toBe(a.id);
  expect(await trashed(ada)).toEqual([]);
});

it('restores at the top of the tree it was in when the original folder is in the trash too, and says so', async () => {
  const ada = await test.given.person();
  for (const root of [ada.workspace.rootId, ada.workspace.homeId]) {
    const outer = await folder(ada, root, `Outer ${root}`);
    const child = await folder(ada, outer.id, 'Child');
    await ada.call(itemsApi.trash, { params: { id: child.id } });
    await ada.call(itemsApi.trash, { params: { id: outer.id } });
    const restored = await ada.call(itemsApi.restore, { params: { id: child.id } });
    expect(restored.body).toMatchObject({ restoredInto: 'root', item: { parentId: root } });
  }
});

it('deletes forever only from the trash, and empties the trash', async () => {
  const ada = await test.given.person();
  const keep = await folder(ada, ada.workspace.homeId, 'Keep');
  expect(await ada.call(itemsApi.purge, { params: { id: keep.id } })).toFail('not_found');
  const gone = await folder(ada, ada.workspace.homeId, 'Gone');
  await folder(ada, gone.id, 'Inside');
  await ada.call(itemsApi.trash, { params: { id: gone.id } });
  expect((await ada.call(itemsApi.purge, { params: { id: gone.id } })).status).toBe(204);
  expect(await ada.call(itemsApi.restore, { params: { id: gone.id } })).toFail('not_found');

  for (const name of ['x', 'y']) await ada.call(itemsApi.trash, { params: { id: (await folder(ada, ada.workspace.homeId, name)).id } });
  expect((await ada.call(itemsApi.emptyTrash, { params: { ws: ada.workspace.id } })).body).toEqual({ deleted: 2 });
  expect(await children(ada, ada.workspace.homeId)).toEqual(['Keep']);
});

it('lets an editor trash and restore, but only a manager delete forever; roots stay', async () => {
  const owner = await test.given.person();
  const member = await test.given.person();
  await test.given.membership(member, owner.workspace.id, 'member');
  const shared = await folder(owner, owner.workspace.rootId, 'Shared');
  expect((await member.call(itemsApi.trash, { params: { id: shared.id } })).status).toBe(200);
  expect(await member.call(itemsApi.purge, { params: { id: shared.id } })).toFail('forbidden');
  expect((await member.call(itemsApi.restore, { params: { id: shared.id } })).status).toBe(200);
  expect(await owner.call(itemsApi.trash, { params: { id: owner.workspace.rootId } })).toFail('forbidden');
});

it('gives the breadcrumbs of an item, from the highest folder the caller can see', async () => {
  const owner = await test.given.person();
  const guest = await test.given.person();
  await test.given.membership(guest, owner.workspace.id, 'guest');
  const a = await folder(owner, owner.workspace.rootId, 'A');
  const b = await folder(owner, a.id, 'B');
  const c = await folder(owner, b.id, 'C');
  expect((await owner.call(itemsApi.ancestors, { params: { id: c.id } })).body.items.map((i) => i.name)).toEqual(['Workspace', 'A', 'B']);
  await test.given.grant(b.id, { user: guest }, 'viewer');
  expect((await guest.call(itemsApi.ancestors, { params: { id: c.id } })).body.items.map((i) => i.name)).toEqual(['B']);
});
