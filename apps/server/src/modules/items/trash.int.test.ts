import { afterAll, beforeAll, expect, it } from 'vitest';
import { given, type Person } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let g: ReturnType<typeof given>;
beforeAll(async () => {
  t = await startTestApp();
  g = given(t.ctx, t.url);
});
afterAll(() => t.close());

const folder = (p: Person, parentId: string, name: string) => g.folder(p, parentId, name);
const names = async (p: Person, path: string) => (await p.call('GET', path)).body.items.map((i: { name: string }) => i.name);

it('trashes a folder with everything in it as one unit, and restores the same unit', async () => {
  const ada = await g.person();
  const a = await folder(ada, ada.workspace.homeId, 'Album');
  const inner = await folder(ada, a.id, 'Inner');
  expect((await ada.call('POST', `/items/${a.id}/trash`)).status).toBe(200);
  expect((await ada.call('GET', `/items/${a.id}`)).status).toBe(404);
  expect((await ada.call('GET', `/items/${inner.id}`)).status).toBe(404);
  expect(await names(ada, `/workspaces/${ada.workspace.id}/items/${ada.workspace.homeId}/children`)).toEqual([]);
  expect(await names(ada, `/workspaces/${ada.workspace.id}/trash`)).toEqual(['Album']);
  // The name is free again while the folder is in the trash.
  expect((await ada.call('POST', `/workspaces/${ada.workspace.id}/items`, { kind: 'folder', name: 'Album', parentId: ada.workspace.homeId })).status).toBe(201);

  const restored = await ada.call('POST', `/items/${a.id}/restore`);
  expect(restored.body).toMatchObject({ restoredInto: 'original', item: { name: 'Album (2)', parentId: ada.workspace.homeId } });
  expect((await ada.call('GET', `/items/${inner.id}`)).body.parentId).toBe(a.id);
  expect(await names(ada, `/workspaces/${ada.workspace.id}/trash`)).toEqual([]);
});

it('restores at the top of the tree it was in when the original folder is in the trash too, and says so', async () => {
  const ada = await g.person();
  for (const root of [ada.workspace.rootId, ada.workspace.homeId]) {
    const outer = await folder(ada, root, `Outer ${root}`);
    const child = await folder(ada, outer.id, 'Child');
    await ada.call('POST', `/items/${child.id}/trash`);
    await ada.call('POST', `/items/${outer.id}/trash`);
    const restored = await ada.call('POST', `/items/${child.id}/restore`);
    expect(restored.body).toMatchObject({ restoredInto: 'root', item: { parentId: root } });
  }
});

it('deletes forever only from the trash, and empties the trash', async () => {
  const ada = await g.person();
  const keep = await folder(ada, ada.workspace.homeId, 'Keep');
  expect((await ada.call('DELETE', `/items/${keep.id}`)).status).toBe(404);
  const gone = await folder(ada, ada.workspace.homeId, 'Gone');
  await folder(ada, gone.id, 'Inside');
  await ada.call('POST', `/items/${gone.id}/trash`);
  expect((await ada.call('DELETE', `/items/${gone.id}`)).status).toBe(204);
  expect((await ada.call('POST', `/items/${gone.id}/restore`)).status).toBe(404);

  for (const name of ['x', 'y']) await ada.call('POST', `/items/${(await folder(ada, ada.workspace.homeId, name)).id}/trash`);
  expect((await ada.call('POST', `/workspaces/${ada.workspace.id}/trash/empty`)).body).toEqual({ deleted: 2 });
  expect(await names(ada, `/workspaces/${ada.workspace.id}/items/${ada.workspace.homeId}/children`)).toEqual(['Keep']);
});

it('lets an editor trash and restore, but only a manager delete forever; roots stay', async () => {
  const owner = await g.person();
  const member = await g.person();
  await g.membership(member, owner.workspace.id, 'member');
  const shared = await folder(owner, owner.workspace.rootId, 'Shared');
  expect((await member.call('POST', `/items/${shared.id}/trash`)).status).toBe(200);
  expect((await member.call('DELETE', `/items/${shared.id}`)).status).toBe(403);
  expect((await member.call('POST', `/items/${shared.id}/restore`)).status).toBe(200);
  expect((await owner.call('POST', `/items/${owner.workspace.rootId}/trash`)).status).toBe(403);
});

it('gives the breadcrumbs of an item, from the highest folder the caller can see', async () => {
  const owner = await g.person();
  const guest = await g.person();
  await g.membership(guest, owner.workspace.id, 'guest');
  const a = await folder(owner, owner.workspace.rootId, 'A');
  const b = await folder(owner, a.id, 'B');
  const c = await folder(owner, b.id, 'C');
  expect((await owner.call('GET', `/items/${c.id}/ancestors`)).body.items.map((i: { name: string }) => i.name)).toEqual(['Workspace', 'A', 'B']);
  await g.grant(b.id, { user: guest }, 'viewer');
  expect((await guest.call('GET', `/items/${c.id}/ancestors`)).body.items.map((i: { name: string }) => i.name)).toEqual(['B']);
});
