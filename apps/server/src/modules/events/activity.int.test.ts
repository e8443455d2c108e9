import { commentsApi, grantsApi, itemsApi, uploadsApi } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { documentContent, storeDocument } from '../documents/index.ts';
import { useTestApp } from '../../testing/test-app.ts';

/** The activity record: every change written down once, by the change's own transaction. */
describe('activity record', () => {
  const test = useTestApp();

  const rows = (workspaceId: string) =>
    test.app.ctx.db.selectFrom('activity_events').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
  const actions = async (workspaceId: string, itemId?: string) => (await rows(workspaceId)).filter((r) => !itemId || r.item_id === itemId).map((r) => r.action);

  it('records each change to items once, with who did it, from where and what it was', async () => {
    const g = test.given;
    const ada = await g.person('Ada');
    const ws = ada.workspace.id;
    const headers = { 'user-agent': 'Cabinet tests/1.0', 'x-client-id': 'tab_activity01' };
    const folder = (await ada.call(itemsApi.create, { params: { ws }, body: { kind: 'folder', name: 'Plans', parentId: ada.workspace.rootId } }, { headers }))
      .body;
    const other = await g.folder(ada, ada.workspace.rootId, 'Archive');
    await ada.call(itemsApi.update, { params: { id: folder.id }, body: { name: 'Plans 2027' } });
    await ada.call(itemsApi.update, { params: { id: folder.id }, body: { parentId: other.id } });
    const copy = (await ada.call(itemsApi.copy, { params: { id: folder.id }, body: { parentId: ada.workspace.rootId } })).body;
    await ada.call(itemsApi.trash, { params: { id: folder.id } });
    await ada.call(itemsApi.restore, { params: { id: folder.id } });
    await ada.call(itemsApi.trash, { params: { id: copy.id } });
    expect((await ada.call(itemsApi.purge, { params: { id: copy.id } })).status).toBe(204);

    expect(await actions(ws, folder.id)).toEqual(['item.created', 'item.renamed', 'item.moved', 'item.trashed', 'item.restored']);
    expect(await actions(ws, copy.id)).toEqual(['item.created', 'item.trashed', 'item.deleted']);

    const [created, renamed, moved] = (await rows(ws)).filter((r) => r.item_id === folder.id);
    expect(created).toMatchObject({
      actor_kind: 'token',
      actor_user_id: ada.id,
      user_agent: 'Cabinet tests/1.0',
      client_id: 'tab_activity01',
      data: { name: 'Plans', kind: 'folder', parentIds: [ada.workspace.rootId] },
    });
    expect(created!.actor_token_id).toBeTruthy();
    expect(created!.ip).toMatch(/127\.0\.0\.1|::1/);
    expect(renamed!.data).toMatchObject({ name: 'Plans 2027', previousName: 'Plans' });
    expect(moved!.data).toMatchObject({ fromParentId: ada.workspace.rootId, toParentId: other.id });
    const copied = (await rows(ws)).find((r) => r.item_id === copy.id && r.action === 'item.created');
    expect(copied!.data).toMatchObject({ copiedFrom: folder.id });
  });

  it('records uploads (one at a time and in a batch), documents, comments and shares', async () => {
    const g = test.given;
    const ada = await g.person('Ada');
    const bea = await g.person('Bea');
    const ws = ada.workspace.id;
    const file = await g.upload(ada, ada.workspace.rootId, 'notes.txt', new TextEncoder().encode('hello'));
    const fileId = file.body.item.id;
    await g.upload(ada, ada.workspace.rootId, 'notes.txt', new TextEncoder().encode('hello again'), { onConflict: 'replace' });
    expect(await actions(ws, fileId)).toEqual(['item.created', 'item.updated']);
    const started = await ada.call(uploadsApi.startMany, {
      params: { ws },
      body: {
        uploads: [1, 2, 3].map((i) => ({ parentId: ada.workspace.rootId, name: `batch-${i}.txt`, size: 1 })),
      },
    });
    const uploads = started.body.results.flatMap((r) => ('upload' in r ? [r.upload] : []));
    expect(uploads).toHaveLength(3);
    for (const u of uploads) expect((await fetch(u.parts[0]!.url, { method: 'PUT', body: 'x' })).status).toBe(200);
    const done = await ada.call(uploadsApi.completeMany, { body: { uploads: uploads.map((u) => ({ id: u.id })) } });
    const items = done.body.results.flatMap((r) => ('item' in r ? [r.item] : []));
    expect(items).toHaveLength(3);
    for (const item of items) {
      const [row] = (await rows(ws)).filter((r) => r.item_id === item.id);
      expect(row).toMatchObject({
        action: 'item.created',
        actor_kind: 'token',
        actor_user_id: ada.id,
        data: { kind: 'file', parentIds: [ada.workspace.rootId] },
      });
    }

    const doc = await g.document(ada, ada.workspace.rootId, 'Plan');
    const thread = (await ada.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'First' } })).body;
    const reply = (await ada.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'Second', threadId: thread.id } })).body;
    await ada.call(commentsApi.update, { params: { id: doc.id, commentId: thread.id }, body: { body: 'First, edited', resolved: true } });
    expect(reply.comments).toHaveLength(2);
    await ada.call(commentsApi.remove, { params: { id: doc.id, commentId: reply.comments[1]!.id } });
    expect(await actions(ws, doc.id)).toEqual(['item.created', 'comment.added', 'comment.added', 'comment.edited', 'comment.resolved', 'comment.deleted']);

    const shared = await ada.call(grantsApi.create, { params: { id: doc.id }, body: { principal: { type: 'user', id: bea.id }, role: 'editor' } });
    await ada.call(grantsApi.remove, { params: { id: doc.id, grantId: shared.body.id } });
    const grants = (await rows(ws)).filter((r) => r.action === 'item.shared');
    expect(grants.map((r) => r.data)).toEqual([
      expect.objectContaining({ principalType: 'user', principalId: bea.id, role: 'editor' }),
      expect.objectContaining({ principalType: 'user', principalId: bea.id, role: null }),
    ]);
  });

  it('records nothing for a change that did not happen', async () => {
    const g = test.given;
    const ada = await g.person('Ada');
    const ws = ada.workspace.id;
    await g.folder(ada, ada.workspace.rootId, 'Taken');
    const before = (await rows(ws)).length;
    expect(await ada.call(itemsApi.create, { params: { ws }, body: { kind: 'folder', name: 'Taken', parentId: ada.workspace.rootId } })).toFail(
      'name_conflict',
    );
    // The copy is written, then refused by the quota: its record goes with it.
    await test.app.ctx.db.updateTable('workspaces').set({ quota_bytes: 1 }).where('id', '=', ws).execute();
    const file = await g.upload(ada, ada.workspace.homeId, 'big.txt', new TextEncoder().encode('x'));
    expect(file.status).toBe(200);
    const afterUpload = (await rows(ws)).length;
    expect(await ada.call(itemsApi.copy, { params: { id: file.body.item.id }, body: { parentId: ada.workspace.homeId } })).toFail('quota_exceeded');
    expect((await rows(ws)).length).toBe(afterUpload);
    expect(afterUpload).toBe(before + 1);

    // A document saved as it is stored already (a server shutting down saves every open one).
    const doc = await g.document(ada, ada.workspace.homeId, 'Unchanged');
    const content = documentContent(new Y.Doc());
    expect((await storeDocument(test.app.ctx.db, doc.id, content, { by: null }))?.item.id).toBe(doc.id);
    const saved = await test.app.ctx.db.selectFrom('items').select(['updated_at', 'updated_by']).where('id', '=', doc.id).executeTakeFirstOrThrow();
    const recorded = (await rows(ws)).length;
    expect((await storeDocument(test.app.ctx.db, doc.id, content, { by: null }))?.item.id).toBe(doc.id);
    expect(await test.app.ctx.db.selectFrom('items').select(['updated_at', 'updated_by']).where('id', '=', doc.id).executeTakeFirstOrThrow()).toEqual(saved);
    expect((await rows(ws)).length).toBe(recorded);
  });
});
