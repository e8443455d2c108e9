import { filesApi, itemsApi } from '@cabinet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collabClients, until } from '../../testing/collab-client.ts';
import { given } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let g: ReturnType<typeof given>;
beforeAll(async () => {
  t = await startTestApp();
  g = given(t.ctx, t.url);
});
afterAll(() => t.close());

const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((i) => i.name);

describe('stars and recent', () => {
  it('keeps each person’s stars to themselves, newest first, and drops trashed items from the list', async () => {
    const ada = await g.person();
    const bea = await g.person();
    await g.membership(bea, ada.workspace.id, 'member');
    const one = await g.folder(ada, ada.workspace.rootId, 'One');
    const two = await g.folder(ada, ada.workspace.rootId, 'Two');
    expect((await ada.call(itemsApi.star, { params: { id: one.id } })).status).toBe(204);
    await ada.call(itemsApi.star, { params: { id: two.id } });
    await ada.call(itemsApi.star, { params: { id: two.id } });
    expect(names(await ada.call(itemsApi.starred, { params: { ws: ada.workspace.id } }))).toEqual(['Two', 'One']);
    expect(names(await bea.call(itemsApi.starred, { params: { ws: ada.workspace.id } }))).toEqual([]);
    await ada.call(itemsApi.trash, { params: { id: two.id } });
    expect(names(await ada.call(itemsApi.starred, { params: { ws: ada.workspace.id } }))).toEqual(['One']);
    await ada.call(itemsApi.unstar, { params: { id: one.id } });
    expect(names(await ada.call(itemsApi.starred, { params: { ws: ada.workspace.id } }))).toEqual([]);
  });

  it('lists the files a person uploaded or opened lately, newest first', async () => {
    const ada = await g.person();
    const a = await g.upload(ada, ada.workspace.homeId, 'a.txt', Buffer.from('a'));
    await g.upload(ada, ada.workspace.homeId, 'b.txt', Buffer.from('b'));
    expect(names(await ada.call(itemsApi.recent, { params: { ws: ada.workspace.id } }))).toEqual(['b.txt', 'a.txt']);
    await ada.call(filesApi.content, { params: { id: a.body.item.id } });
    expect(names(await ada.call(itemsApi.recent, { params: { ws: ada.workspace.id } }))).toEqual(['a.txt', 'b.txt']);
  });

  it('puts a document a person opens at the top of their Recent', async () => {
    const ada = await g.person();
    const notes = (
      await ada.call(itemsApi.create, { params: { ws: ada.workspace.id }, body: { kind: 'document', name: 'Notes', parentId: ada.workspace.homeId } })
    ).body;
    await g.upload(ada, ada.workspace.homeId, 'a.txt', Buffer.from('a'));
    const clients = collabClients(t.url);
    try {
      const { outcome } = clients.connect(notes.id, ada.token);
      await until(() => outcome.synced, 'the document to open');
      expect(names(await ada.call(itemsApi.recent, { params: { ws: ada.workspace.id } }))).toEqual(['Notes', 'a.txt']);
    } finally {
      clients.destroyAll();
    }
  });
});
