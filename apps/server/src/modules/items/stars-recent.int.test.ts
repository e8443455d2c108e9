import { filesApi, itemsApi } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { collabClients, until } from '../../testing/collab-client.ts';
import { useTestApp } from '../../testing/test-app.ts';

const test = useTestApp();

const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((i) => i.name);

describe('stars and recent', () => {
  it('keeps each person’s stars to themselves, newest first, and drops trashed items from the list', async () => {
    const ada = await test.given.person();
    const bea = await test.given.person();
    await test.given.membership(bea, ada.workspace.id, 'member');
    const one = await test.given.folder(ada, ada.workspace.rootId, 'One');
    const two = await test.given.folder(ada, ada.workspace.rootId, 'Two');
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
    const ada = await test.given.person();
    const a = await test.given.upload(ada, ada.workspace.homeId, 'a.txt', Buffer.from('a'));
    await test.given.upload(ada, ada.workspace.homeId, 'b.txt', Buffer.from('b'));
    expect(names(await ada.call(itemsApi.recent, { params: { ws: ada.workspace.id } }))).toEqual(['b.txt', 'a.txt']);
    await ada.call(filesApi.content, { params: { id: a.body.item.id } });
    expect(names(await ada.call(itemsApi.recent, { params: { ws: ada.workspace.id } }))).toEqual(['a.txt', 'b.txt']);
  });

  it('puts a document a person opens at the top of their Recent', async () => {
    const ada = await test.given.person();
    const notes = await test.given.document(ada, ada.workspace.homeId, 'Notes');
    await test.given.upload(ada, ada.workspace.homeId, 'a.txt', Buffer.from('a'));
    const clients = collabClients(test.app.url);
    try {
      const { outcome } = clients.connect(notes.id, ada.token);
      await until(() => outcome.synced, 'the document to open');
      expect(names(await ada.call(itemsApi.recent, { params: { ws: ada.workspace.id } }))).toEqual(['Notes', 'a.txt']);
    } finally {
      clients.destroyAll();
    }
  });
});
