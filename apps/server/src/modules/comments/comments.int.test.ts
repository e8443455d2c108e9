import { commentsApi, type TCreateCommentRequest } from '@cabinet/contracts';
import { documentText } from '@cabinet/doc-schema/server';
import { describe, expect, it } from 'vitest';
import { addParagraph, collabTestApp, until } from '../../testing/collab-client.ts';
import { type Person } from '../../testing/given.ts';

const app = collabTestApp();

const anchor = {
  start: { type: { client: 1, clock: 2 }, tname: null, item: { client: 1, clock: 5 }, assoc: 0 },
  end: { type: null, tname: 'default', item: { client: 1, clock: 9 }, assoc: -1 },
};

/** Ada's document in a shared folder, Bea commenting on it, Cy viewing it, Dee outside. */
async function setting() {
  const [ada, bea, cy, dee] = [await app.g.person('Ada'), await app.g.person('Bea'), await app.g.person('Cy'), await app.g.person('Dee')];
  const folder = await app.g.folder(ada, ada.workspace.rootId, `Notes ${Math.random()}`);
  for (const p of [bea, cy]) await app.g.membership(p, ada.workspace.id, 'guest');
  await app.g.grant(folder.id, { user: bea }, 'commenter');
  await app.g.grant(folder.id, { user: cy }, 'viewer');
  const doc = await app.g.document(ada, folder.id, 'Plan');
  return { ada, bea, cy, dee, doc, folder };
}

const threadsOf = async (p: Person, id: string) => (await p.call(commentsApi.threads, { params: { id } })).body.items;

describe('comments', () => {
  it('lets a commenter start a thread on a passage and others reply; viewers read them; outsiders see nothing', async () => {
    const { ada, bea, cy, dee, doc } = await setting();
    const started = await bea.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'Is Friday realistic?', anchor, quote: 'ship on Friday' } });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      itemId: doc.id,
      anchor,
      quote: 'ship on Friday',
      resolvedAt: null,
      comments: [{ body: 'Is Friday realistic?', author: { id: bea.id, name: 'Bea' } }],
    });
    expect(started.body.id).toBe(started.body.comments[0]?.id);
    const reply = await ada.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'Yes, if tests pass.', threadId: started.body.id } });
    expect(reply.body.comments.map((c) => c.body)).toEqual(['Is Friday realistic?', 'Yes, if tests pass.']);
    const general = await ada.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'Looks good overall' } });
    expect(general.body).toMatchObject({ anchor: null, quote: null });

    expect(await threadsOf(cy, doc.id)).toHaveLength(2);
    expect(await cy.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'me too' } })).toFail('forbidden');
    expect(await dee.call(commentsApi.threads, { params: { id: doc.id } })).toFail('not_found');
    expect(await dee.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'hi' } })).toFail('not_found');
  });

  it('keeps a commenter from editing the document itself', async () => {
    const { ada, bea, doc } = await setting();
    const owner = app.clients.connect(doc.id, ada.token);
    const commenter = app.clients.connect(doc.id, bea.token);
    await until(() => owner.outcome.synced && commenter.outcome.synced, 'both to sync');
    addParagraph(commenter.document, 'Sneaked in');
    addParagraph(owner.document, 'From Ada');
    await until(() => documentText(commenter.document).includes('From Ada'), 'the owner’s edit to arrive');
    await new Promise((r) => setTimeout(r, 300));
    expect(documentText(owner.document)).toBe('From Ada');
  });

  it('resolves and reopens threads; a reply reopens a resolved one', async () => {
    const { ada, bea, doc } = await setting();
    const thread = (await ada.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'Check numbers', anchor, quote: '42' } })).body;
    const resolved = await bea.call(commentsApi.update, { params: { id: doc.id, commentId: thread.id }, body: { resolved: true } });
    expect(resolved.body).toMatchObject({ resolvedBy: { id: bea.id, name: 'Bea' }, resolvedAt: expect.any(String) });
    const reopened = await ada.call(commentsApi.update, { params: { id: doc.id, commentId: thread.id }, body: { resolved: false } });
    expect(reopened.body).toMatchObject({ resolvedAt: null, resolvedBy: null });
    await ada.call(commentsApi.update, { params: { id: doc.id, commentId: thread.id }, body: { resolved: true } });
    const answered = await bea.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'Still wrong', threadId: thread.id } });
    expect(answered.body.resolvedAt).toBeNull();
    expect(answered.body.comments).toHaveLength(2);
    const replyId = answered.body.comments[1]!.id;
    expect(await ada.call(commentsApi.update, { params: { id: doc.id, commentId: replyId }, body: { resolved: true } })).toFail('invalid_input');
  });

  it('lets only its author change a comment, and its author or a manager delete it', async () => {
    const { ada, bea, doc } = await setting();
    const thread = (await bea.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'Typo here', anchor, quote: 'teh' } })).body;
    const replied = (await bea.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'and here', threadId: thread.id } })).body;
    expect(replied.comments).toHaveLength(2);
    const reply = replied.comments[1]!;
    expect(await ada.call(commentsApi.update, { params: { id: doc.id, commentId: thread.id }, body: { body: 'Changed by Ada' } })).toFail('forbidden');
    const edited = await bea.call(commentsApi.update, { params: { id: doc.id, commentId: thread.id }, body: { body: 'Typo here: “teh”' } });
    expect(edited.body.comments[0]?.body).toBe('Typo here: “teh”');
    expect((await bea.call(commentsApi.remove, { params: { id: doc.id, commentId: reply.id } })).status).toBe(204);
    expect((await threadsOf(ada, doc.id))[0]?.comments).toHaveLength(1);
    const own = (await ada.call(commentsApi.add, { params: { id: doc.id }, body: { body: 'Mine' } })).body;
    expect(await bea.call(commentsApi.remove, { params: { id: doc.id, commentId: own.id } })).toFail('forbidden');
    // Ada manages the folder: she may delete Bea's thread, replies and all.
    expect((await ada.call(commentsApi.remove, { params: { id: doc.id, commentId: thread.id } })).status).toBe(204);
    expect((await threadsOf(ada, doc.id)).map((th) => th.id)).toEqual([own.id]);
  });

  it('checks what a comment says and where it goes', async () => {
    const { ada, doc, folder } = await setting();
    const post = (body: TCreateCommentRequest, id = doc.id) => ada.call(commentsApi.add, { params: { id }, body });
    expect(await post({ body: '   ' })).toFail('invalid_input');
    expect(await post({ body: 'x'.repeat(10_001) })).toFail('invalid_input');
    expect((await post({ body: 'x'.repeat(10_000) })).status).toBe(201);
    const thread = (await post({ body: 'root' })).body;
    expect(await post({ body: 'both', threadId: thread.id, anchor })).toFail('invalid_input');
    // No declaration allows a position with other keys: sent as it is.
    expect(await ada.raw('POST', `/items/${doc.id}/comments`, { body: 'big', anchor: { start: { x: 'y'.repeat(3000) }, end: {} } })).toFail('invalid_input');
    expect(await post({ body: 'lost', threadId: '0190a0a0-0000-7000-8000-000000000000' })).toFail('not_found');
    const reply = (await post({ body: 'reply', threadId: thread.id })).body.comments[1];
    expect(reply).toBeDefined();
    expect(await post({ body: 'reply to a reply', threadId: reply!.id })).toFail('not_found');
    expect(await post({ body: 'on a folder' }, folder.id)).toFail('not_found');
  });
});
