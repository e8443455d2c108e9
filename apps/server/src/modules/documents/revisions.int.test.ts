import { configApi, documentsApi } from '@cabinet/contracts';
import { documentText } from '@cabinet/doc-schema/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addParagraph, collabTestApp, until } from '../../testing/collab-client.ts';
import { type Person } from '../../testing/given.ts';
import { callingRoutes, anonymous } from '../../testing/route-call.ts';

const app = collabTestApp();
afterEach(() => vi.useRealTimers());

const newDocument = async (owner: Person, parentId = owner.workspace.homeId) =>
  (await app.g.document(owner, parentId, `Doc ${Math.random().toString(36).slice(2, 8)}`)).id;

const revisions = async (person: Person, id: string) => (await person.call(documentsApi.revisions, { params: { id } })).body;
const activity = (itemId: string) => app.t.ctx.db.selectFrom('activity_events').selectAll().where('item_id', '=', itemId).orderBy('id').execute();

async function edit(person: Person, id: string, text: string) {
  const client = app.clients.connect(id, person.token);
  await until(() => client.outcome.synced, 'the editor to sync');
  addParagraph(client.document, text);
  return client;
}

describe('revision history', () => {
  it('records a revision with its authors when the last editor leaves, not before', async () => {
    const ada = await app.g.person('Ada');
    const bea = await app.g.person('Bea');
    await app.g.membership(bea, ada.workspace.id, 'member');
    const folder = await app.g.folder(ada, ada.workspace.rootId, 'Team');
    const id = await newDocument(ada, folder.id);
    const first = await edit(ada, id, 'From Ada');
    const second = await edit(bea, id, 'From Bea');
    await until(() => documentText(first.document) === 'From Ada\nFrom Bea', 'both edits to meet');
    first.provider.destroy();
    await new Promise((r) => setTimeout(r, 2500));
    expect((await revisions(ada, id)).items).toEqual([]);
    second.provider.destroy();
    await expect.poll(async () => (await revisions(ada, id)).items.length, { timeout: 10_000 }).toBe(1);
    const revision = (await revisions(ada, id)).items[0]!;
    expect(revision).toMatchObject({ itemId: id, label: null, restoredFrom: null });
    expect(revision.authors.map((a) => a.name)).toEqual(['Ada', 'Bea']);
    const detail = await ada.call(documentsApi.revision, { params: { id, revisionId: revision.id } });
    expect(JSON.stringify(detail.body.content)).toContain('From Bea');
  });

  it('records a revision while editing goes on, once the edits span the revision interval', async () => {
    const ada = await app.g.person('Ada');
    const id = await newDocument(ada);
    const client = await edit(ada, id, 'Morning');
    await expect
      .poll(async () => (await app.t.ctx.db.selectFrom('document_contents').select('text').where('item_id', '=', id).executeTakeFirst())?.text, {
        timeout: 10_000,
      })
      .toBe('Morning');
    expect((await revisions(ada, id)).items).toEqual([]);
    // The interval is the installation's setting, as the browser learns it.
    const minutes = (await callingRoutes(anonymous(app.t.url)).call(configApi.get)).body.documentRevisionMinutes;
    expect(minutes).toBe(app.t.ctx.env.DOCUMENT_REVISION_MINUTES);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (minutes * 60 + 1) * 1000 });
    addParagraph(client.document, 'Afternoon');
    await expect.poll(async () => (await revisions(ada, id)).items.length, { timeout: 10_000 }).toBe(1);
    client.provider.destroy();
  });

  it('restores a revision live for everyone editing, as a new revision, for managers only', async () => {
    const ada = await app.g.person('Ada');
    const bea = await app.g.person('Bea');
    const cy = await app.g.person('Cy');
    await app.g.membership(bea, ada.workspace.id, 'member');
    const folder = await app.g.folder(ada, ada.workspace.rootId, 'Shared');
    const id = await newDocument(ada, folder.id);
    (await edit(ada, id, 'First draft')).provider.destroy();
    await expect.poll(async () => (await revisions(ada, id)).items.length, { timeout: 10_000 }).toBe(1);
    const draft = (await revisions(ada, id)).items[0]!;

    const watcher = await edit(bea, id, 'Second thoughts');
    await until(() => documentText(watcher.document) === 'First draft\nSecond thoughts', 'the second edit');
    // Bea edits but does not manage the shared folder; Cy cannot see it at all.
    expect(await bea.call(documentsApi.restoreRevision, { params: { id, revisionId: draft.id } })).toFail('forbidden');
    expect(await cy.call(documentsApi.restoreRevision, { params: { id, revisionId: draft.id } })).toFail('not_found');
    expect(await cy.call(documentsApi.revisions, { params: { id } })).toFail('not_found');

    const lastBefore = (await activity(id)).at(-1)!.id;
    const restored = await ada.call(documentsApi.restoreRevision, { params: { id, revisionId: draft.id } });
    expect(restored.status).toBe(201);
    // The restore is Ada's one change, recorded once, as a restore: the live edit is stored by the
    // restore itself, with its revision.
    const recorded = (await activity(id)).filter((r) => BigInt(r.id) > BigInt(lastBefore));
    expect(recorded.map((r) => [r.action, r.actor_kind, r.actor_user_id, r.data.restoredRevision])).toEqual([['item.updated', 'token', ada.id, draft.id]]);
    expect(restored.body).toMatchObject({ restoredFrom: draft.createdAt, authors: [{ id: ada.id, name: 'Ada' }] });
    await until(() => documentText(watcher.document) === 'First draft', 'the restore to reach the open editor');
    const history = (await revisions(bea, id)).items;
    expect(history[0]?.id).toBe(restored.body.id);
    expect(history.at(-1)?.id).toBe(draft.id);
    // What it was before the restore (Bea's edit, in no revision yet) is kept as a revision of its own.
    expect(history).toHaveLength(3);
    const kept = await bea.call(documentsApi.revision, { params: { id, revisionId: history[1]!.id } });
    expect(JSON.stringify(kept.body.content)).toContain('Second thoughts');
    expect((await ada.call(documentsApi.restoreRevision, { params: { id, revisionId: restored.body.id } })).status).toBe(201);
    expect(await ada.call(documentsApi.revision, { params: { id, revisionId: '0190a0a0-0000-7000-8000-000000000000' } })).toFail('not_found');
    watcher.provider.destroy();
  });
});
