import { expect, it } from 'vitest';
import { addParagraph, collabTestApp, until } from '../../testing/collab-client.ts';

const app = collabTestApp();

it('saves a document whose text holds NUL (PostgreSQL text cannot), with the text for search without it', async () => {
  const ada = await app.g.person();
  const created = await app.g.document(ada, ada.workspace.homeId, 'Pasted');
  const editor = app.clients.connect(created.id, ada.token);
  await until(() => editor.outcome.synced, 'the editor to sync');
  addParagraph(editor.document, 'before\u0000after');
  editor.provider.destroy();
  const saved = () => app.t.ctx.db.selectFrom('document_contents').select('text').where('item_id', '=', created.id).executeTakeFirst();
  await expect.poll(async () => (await saved())?.text, { timeout: 15_000 }).toBe('beforeafter');
});
