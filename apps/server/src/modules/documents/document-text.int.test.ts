import { itemsApi } from '@cabinet/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addParagraph, collabClients, until } from '../../testing/collab-client.ts';
import { given } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let clients: ReturnType<typeof collabClients>;
beforeAll(async () => {
  t = await startTestApp();
  clients = collabClients(t.url);
});
afterAll(async () => {
  clients.destroyAll();
  await t.close();
});

it('saves a document whose text holds NUL (PostgreSQL text cannot), with the text for search without it', async () => {
  const g = given(t.ctx, t.url);
  const ada = await g.person();
  const created = await ada.call(itemsApi.create, {
    params: { ws: ada.workspace.id },
    body: { kind: 'document', name: 'Pasted', parentId: ada.workspace.homeId },
  });
  const editor = clients.connect(created.body.id, ada.token);
  await until(() => editor.outcome.synced, 'the editor to sync');
  addParagraph(editor.document, 'before\u0000after');
  editor.provider.destroy();
  const saved = () => t.ctx.db.selectFrom('document_contents').select('text').where('item_id', '=', created.body.id).executeTakeFirst();
  await expect.poll(async () => (await saved())?.text, { timeout: 15_000 }).toBe('beforeafter');
});
