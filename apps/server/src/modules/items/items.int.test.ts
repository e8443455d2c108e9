import { filesApi, itemsApi } from '@cabinet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given, type Person } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { storeDocument } from '../documents/documents.service.ts';

let t: TestApp;
let g: ReturnType<typeof given>;
beforeAll(async () => {
  t = await startTestApp();
  g = given(t.ctx, t.url);
});
afterAll(() => t.close());

const folder = (p: Person, parentId: string, name: string) =>
  p.call(itemsApi.create, { params: { ws: p.workspace.id }, body: { kind: 'folder', name, parentId } });

describe('folders', () => {
  it('creates folders in the shared root and in My files, and lists them folders first, page by page', async () => {
    const ada = await g.person('Ada');
    const shared = await folder(ada, ada.workspace.rootId, 'Projects');
    expect(shared.status).toBe(201);
    expect(shared.body).toMatchObject({
      kind: 'folder',
      name: 'Projects',
      parentId: ada.workspace.rootId,
      workspaceId: ada.workspace.id,
      ownerId: ada.id,
      size: 0,
      version: 1,
      role: 'manager',
    });
    expect((await folder(ada, ada.workspace.homeId, 'Private')).status).toBe(201);

    for (const name of ['delta', 'Alpha', 'charlie', 'bravo', 'echo']) expect((await folder(ada, shared.body.id, name)).status).toBe(201);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { name: string }[]; nextCursor: string | null } } = await ada.raw(
        'GET',
        `/workspaces/${ada.workspace.id}/items/${shared.body.id}/children?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.items.map((i) => i.name));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['Alpha', 'bravo', 'charlie', 'delta', 'echo']);
    const desc = await ada.call(itemsApi.children, { params: { ws: ada.workspace.id, id: shared.body.id }, query: { order: 'desc', limit: '3' } });
    expect(desc.body.items.map((i: { name: string }) => i.name)).toEqual(['echo', 'delta', 'charlie']);
  });

  it('refuses names that break the rules, one entry per field', async () => {
    const ada = await g.person();
    for (const name of ['', ' lead', 'trail ', 'a/b', '.', '..', 'bell\u0007', 'x'.repeat(256), 'é'.repeat(128)]) {
      const res = await folder(ada, ada.workspace.rootId, name);
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.error?.code).toBe('invalid_input');
      expect(res.error?.details.fields).toHaveLength(1);
    }
    const decomposed = await folder(ada, ada.workspace.rootId, 'Cafe\u0301');
    expect(decomposed.body.name).toBe('Caf\u00e9');
  });

  it('answers name_conflict with a free name, ignoring case, and names the item that has the name', async () => {
    const ada = await g.person();
    const reports = (await folder(ada, ada.workspace.rootId, 'Reports')).body;
    await folder(ada, ada.workspace.rootId, 'Reports (2)');
    const clash = await folder(ada, ada.workspace.rootId, 'reports');
    expect(clash.status).toBe(409);
    expect(clash.error?.code).toBe('name_conflict');
    expect(clash.error?.details).toEqual({ suggestedName: 'reports (3)', existing: { id: reports.id, kind: 'folder' } });
    // A document in the way is named as one: a client making a folder knows it cannot use it.
    const notes = await ada.call(itemsApi.create, {
      params: { ws: ada.workspace.id },
      body: { kind: 'document', name: 'Notes', parentId: ada.workspace.rootId },
    });
    const onDocument = await folder(ada, ada.workspace.rootId, 'NOTES');
    expect(onDocument.error?.details).toEqual({ suggestedName: 'NOTES (2)', existing: { id: notes.body.id, kind: 'document' } });
  });

  it('names the item in the way only to whoever may see it: renaming an item shared alone answers the free name', async () => {
    const owner = await g.person();
    const guest = await g.person();
    await g.membership(guest, owner.workspace.id, 'guest');
    await folder(owner, owner.workspace.homeId, 'Diary');
    const plans = (await folder(owner, owner.workspace.homeId, 'Plans')).body;
    await g.grant(plans.id, { user: guest }, 'editor');
    const clash = await guest.call(itemsApi.update, { params: { id: plans.id }, body: { name: 'diary' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 'name_conflict', details: { suggestedName: 'diary (2)' } });
    expect(clash.error?.details).not.toHaveProperty('existing');
  });

  it('renames and moves, refuses cycles, and refuses a stale If-Match', async () => {
    const ada = await g.person();
    const a = (await folder(ada, ada.workspace.rootId, 'A')).body;
    const b = (await folder(ada, a.id, 'B')).body;
    const renamed = await ada.call(itemsApi.update, { params: { id: b.id }, body: { name: 'Bee' } }, { headers: { 'if-match': '"1"' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Bee', version: 2 });
    expect(renamed.headers.get('etag')).toBe('"2"');
    const stale = await ada.call(itemsApi.update, { params: { id: b.id }, body: { name: 'Stale' } }, { headers: { 'if-match': '"1"' } });
    expect(stale.status).toBe(412);
    expect(stale.error?.code).toBe('version_mismatch');

    const cycle = await ada.call(itemsApi.update, { params: { id: a.id }, body: { parentId: b.id } });
    expect(cycle.status).toBe(409);
    expect(cycle.error?.code).toBe('cycle');
    expect(await ada.call(itemsApi.update, { params: { id: a.id }, body: { parentId: a.id } })).toFail('cycle');

    const moved = await ada.call(itemsApi.update, { params: { id: b.id }, body: { parentId: ada.workspace.homeId } });
    expect(moved.body).toMatchObject({ parentId: ada.workspace.homeId, name: 'Bee' });
    await folder(ada, a.id, 'Bee');
    const back = await ada.call(itemsApi.update, { params: { id: b.id }, body: { parentId: a.id } });
    expect(back.body.error).toMatchObject({ code: 'name_conflict', details: { suggestedName: 'Bee (2)' } });

    expect((await ada.call(itemsApi.update, { params: { id: ada.workspace.rootId }, body: { name: 'Mine' } })).status).toBe(403);
  });
});

describe('who sees what', () => {
  it('keeps My files private, other workspaces invisible, and shows shared items by grant', async () => {
    const owner = await g.person('Owner');
    const colleague = await g.person('Colleague');
    const guest = await g.person('Guest');
    const stranger = await g.person('Stranger');
    const colleagueHome = await g.membership(colleague, owner.workspace.id, 'member');
    await g.membership(guest, owner.workspace.id, 'guest');

    const privateFolder = (await folder(owner, owner.workspace.homeId, 'Diary')).body;
    const team = (await folder(owner, owner.workspace.rootId, 'Team')).body;
    const inner = (await folder(owner, team.id, 'Inner')).body;

    // A colleague edits the shared tree but does not see the owner's My files.
    expect((await colleague.call(itemsApi.get, { params: { id: team.id } })).body.role).toBe('editor');
    expect((await colleague.call(itemsApi.get, { params: { id: privateFolder.id } })).status).toBe(404);
    expect(
      (await colleague.call(itemsApi.create, { params: { ws: owner.workspace.id }, body: { kind: 'folder', name: 'Mine', parentId: colleagueHome } })).status,
    ).toBe(201);
    expect((await owner.call(itemsApi.get, { params: { id: colleagueHome } })).status).toBe(404);

    // A stranger sees nothing, not even by id.
    expect(await stranger.call(itemsApi.get, { params: { id: team.id } })).toFail('not_found');
    expect((await stranger.call(itemsApi.children, { params: { ws: owner.workspace.id, id: team.id } })).status).toBe(404);

    // A guest sees only what is shared with them, and what is below it.
    expect((await guest.call(itemsApi.get, { params: { id: team.id } })).status).toBe(404);
    await g.grant(team.id, { user: guest }, 'viewer');
    expect((await guest.call(itemsApi.get, { params: { id: inner.id } })).body.role).toBe('viewer');
    const listing = await guest.call(itemsApi.children, { params: { ws: owner.workspace.id, id: team.id } });
    expect(listing.body.items.map((i: { name: string }) => i.name)).toEqual(['Inner']);
    const create = await guest.call(itemsApi.create, { params: { ws: owner.workspace.id }, body: { kind: 'folder', name: 'No', parentId: team.id } });
    expect(create.status).toBe(403);
    expect(create.error?.code).toBe('forbidden');
    await g.grant(inner.id, { user: guest }, 'editor');
    expect((await guest.call(itemsApi.create, { params: { ws: owner.workspace.id }, body: { kind: 'folder', name: 'Yes', parentId: inner.id } })).status).toBe(
      201,
    );

    // An expired grant grants nothing.
    await g.grant(privateFolder.id, { user: colleague }, 'viewer', new Date(Date.now() - 1000));
    expect((await colleague.call(itemsApi.get, { params: { id: privateFolder.id } })).status).toBe(404);
    await g.grant(privateFolder.id, { user: stranger }, 'viewer');
    expect((await stranger.call(itemsApi.get, { params: { id: privateFolder.id } })).status).toBe(404);

    // Nothing moves to another workspace.
    const elsewhere = await colleague.call(itemsApi.update, { params: { id: team.id }, body: { parentId: colleague.workspace.rootId } });
    expect(elsewhere.status).toBe(403);
  });
});

describe('listing pages', () => {
  it('pages through folders and files by every sort and order, each item exactly once, in the one-page order', async () => {
    const ada = await g.person();
    const box = await g.folder(ada, ada.workspace.homeId, 'Box');
    for (const name of ['Zeta', 'alpha', 'Mid']) await g.folder(ada, box.id, name);
    for (const [name, size] of [
      ['b.txt', 30],
      ['A.png', 10],
      ['c.pdf', 20],
      ['d.txt', 10],
    ] as const)
      await g.upload(ada, box.id, name, Buffer.alloc(size, 1));
    for (const sort of ['name', 'modified', 'size', 'type']) {
      for (const order of ['asc', 'desc']) {
        const all = (await ada.raw('GET', `/workspaces/${ada.workspace.id}/items/${box.id}/children?sort=${sort}&order=${order}&limit=1000`)).body.items.map(
          (i: { name: string }) => i.name,
        );
        const paged: string[] = [];
        let cursor: string | null = null;
        do {
          const page: { body: { items: { name: string }[]; nextCursor: string | null } } = await ada.raw(
            'GET',
            `/workspaces/${ada.workspace.id}/items/${box.id}/children?sort=${sort}&order=${order}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
          );
          paged.push(...page.body.items.map((i) => i.name));
          cursor = page.body.nextCursor;
        } while (cursor);
        expect(paged, `${sort} ${order}`).toEqual(all);
        expect(all.slice(0, 3).sort(), `${sort} ${order}: folders first`).toEqual(['Mid', 'Zeta', 'alpha']);
      }
    }
  });
});

describe('documents', () => {
  it('creates a document in a folder: it lists after the folders, moves, trashes and restores like any item, and a copy carries its content', async () => {
    const ada = await g.person('Ada');
    const notes = await folder(ada, ada.workspace.homeId, 'Notes');
    const doc = await ada.call(itemsApi.create, { params: { ws: ada.workspace.id }, body: { kind: 'document', name: 'Plan', parentId: ada.workspace.homeId } });
    expect(doc.status).toBe(201);
    expect(doc.body).toMatchObject({ kind: 'document', name: 'Plan', parentId: ada.workspace.homeId, size: 0, role: 'manager' });
    const listed = await ada.call(itemsApi.children, { params: { ws: ada.workspace.id, id: ada.workspace.homeId } });
    expect(listed.body.items.map((i: { name: string }) => i.name)).toEqual(['Notes', 'Plan']);
    // A document is no folder: nothing is created inside it.
    expect(await folder(ada, doc.body.id, 'inside')).toFail('invalid_input');

    await storeDocument(t.ctx.db, doc.body.id, { state: new Uint8Array([1, 2, 3]), text: 'the plan' }, { by: null });
    const copy = await ada.raw('POST', `/items/${doc.body.id}/copy`, { parentId: notes.body.id });
    expect(copy.body).toMatchObject({ kind: 'document', name: 'Plan', parentId: notes.body.id });
    const content = await t.ctx.db.selectFrom('document_contents').select(['state', 'text']).where('item_id', '=', copy.body.id).executeTakeFirstOrThrow();
    expect([...content.state]).toEqual([1, 2, 3]);
    expect(content.text).toBe('the plan');

    expect((await ada.call(itemsApi.update, { params: { id: doc.body.id }, body: { parentId: notes.body.id, name: 'Plan v2' } })).body).toMatchObject({
      parentId: notes.body.id,
      name: 'Plan v2',
    });
    expect((await ada.call(itemsApi.trash, { params: { id: doc.body.id } })).status).toBe(200);
    expect((await ada.call(itemsApi.restore, { params: { id: doc.body.id } })).status).toBe(200);
    expect(await ada.call(filesApi.content, { params: { id: doc.body.id } })).toFail('not_found');
  });
});
