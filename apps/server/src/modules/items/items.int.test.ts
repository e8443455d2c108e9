import { filesApi, groupsApi, itemsApi, type TChildrenQuery } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { type Person } from '../../testing/given.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { storeDocument } from '../documents/documents.service.ts';

const test = useTestApp();

/** Makes a folder through the API and answers as it does (for tests of making them; fixtures come from `given`). */
const folder = (p: Person, parentId: string, name: string) =>
  p.call(itemsApi.create, { params: { ws: p.workspace.id }, body: { kind: 'folder', name, parentId } });

/** Every name in a folder, in the listing's order, a page of `limit` at a time. */
async function namesByPage(p: Person, folderId: string, limit: number, query: Partial<Pick<TChildrenQuery, 'sort' | 'order'>> = {}) {
  const pageAfter = (cursor?: string) => p.call(itemsApi.children, { params: { ws: p.workspace.id, id: folderId }, query: { ...query, limit, cursor } });
  const names: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await pageAfter(cursor ?? undefined);
    names.push(...page.body.items.map((i) => i.name));
    cursor = page.body.nextCursor;
  } while (cursor);
  return names;
}

describe('folders', () => {
  it('creates folders in the shared root and in My files, and lists them folders first, page by page', async () => {
    const ada = await test.given.person('Ada');
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
    expect(await namesByPage(ada, shared.body.id, 2)).toEqual(['Alpha', 'bravo', 'charlie', 'delta', 'echo']);
    const desc = await ada.call(itemsApi.children, { params: { ws: ada.workspace.id, id: shared.body.id }, query: { order: 'desc', limit: '3' } });
    expect(desc.body.items.map((i) => i.name)).toEqual(['echo', 'delta', 'charlie']);
  });

  it('refuses names that break the rules, one entry per field', async () => {
    const ada = await test.given.person();
    for (const name of ['', ' lead', 'trail ', 'a/b', '.', '..', 'bell\u0007', 'x'.repeat(256), 'é'.repeat(128)]) {
      const res = await folder(ada, ada.workspace.rootId, name);
      expect(res, JSON.stringify(name)).toFail('invalid_input');
      expect(res.error?.details?.fields).toHaveLength(1);
    }
    const decomposed = await folder(ada, ada.workspace.rootId, 'Cafe\u0301');
    expect(decomposed.body.name).toBe('Caf\u00e9');
  });

  it('answers name_conflict with a free name, ignoring case, and names the item that has the name', async () => {
    const ada = await test.given.person();
    const reports = (await folder(ada, ada.workspace.rootId, 'Reports')).body;
    await folder(ada, ada.workspace.rootId, 'Reports (2)');
    const clash = await folder(ada, ada.workspace.rootId, 'reports');
    expect(clash).toFail('name_conflict');
    expect(clash.error?.details).toEqual({ suggestedName: 'reports (3)', existing: { id: reports.id, kind: 'folder' } });
    // A document in the way is named as one: a client making a folder knows it cannot use it.
    const notes = await test.given.document(ada, ada.workspace.rootId, 'Notes');
    const onDocument = await folder(ada, ada.workspace.rootId, 'NOTES');
    expect(onDocument.error?.details).toEqual({ suggestedName: 'NOTES (2)', existing: { id: notes.id, kind: 'document' } });
  });

  it('names the item in the way only to whoever may see it: renaming an item shared alone answers the free name', async () => {
    const owner = await test.given.person();
    const guest = await test.given.person();
    await test.given.membership(guest, owner.workspace.id, 'guest');
    await test.given.folder(owner, owner.workspace.homeId, 'Diary');
    const plans = await test.given.folder(owner, owner.workspace.homeId, 'Plans');
    await test.given.grant(plans.id, { user: guest }, 'editor');
    const clash = await guest.call(itemsApi.update, { params: { id: plans.id }, body: { name: 'diary' } });
    expect(clash).toFail('name_conflict');
    expect(clash.error?.details).toMatchObject({ suggestedName: 'diary (2)' });
    expect(clash.error?.details).not.toHaveProperty('existing');
  });

  it('renames and moves, refuses cycles, and refuses a stale If-Match', async () => {
    const ada = await test.given.person();
    const a = await test.given.folder(ada, ada.workspace.rootId, 'A');
    const b = await test.given.folder(ada, a.id, 'B');
    const renamed = await ada.call(itemsApi.update, { params: { id: b.id }, body: { name: 'Bee' } }, { headers: { 'if-match': '"1"' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Bee', version: 2 });
    expect(renamed.headers.get('etag')).toBe('"2"');
    const stale = await ada.call(itemsApi.update, { params: { id: b.id }, body: { name: 'Stale' } }, { headers: { 'if-match': '"1"' } });
    expect(stale).toFail('version_mismatch');

    const cycle = await ada.call(itemsApi.update, { params: { id: a.id }, body: { parentId: b.id } });
    expect(cycle).toFail('cycle');
    expect(await ada.call(itemsApi.update, { params: { id: a.id }, body: { parentId: a.id } })).toFail('cycle');

    const moved = await ada.call(itemsApi.update, { params: { id: b.id }, body: { parentId: ada.workspace.homeId } });
    expect(moved.body).toMatchObject({ parentId: ada.workspace.homeId, name: 'Bee' });
    await test.given.folder(ada, a.id, 'Bee');
    const back = await ada.call(itemsApi.update, { params: { id: b.id }, body: { parentId: a.id } });
    expect(back).toFail('name_conflict');
    expect(back.error?.details).toMatchObject({ suggestedName: 'Bee (2)' });

    expect(await ada.call(itemsApi.update, { params: { id: ada.workspace.rootId }, body: { name: 'Mine' } })).toFail('forbidden');
  });
});

describe('who sees what', () => {
  it('keeps My files private, other workspaces invisible, and shows shared items by grant', async () => {
    const owner = await test.given.person('Owner');
    const colleague = await test.given.person('Colleague');
    const guest = await test.given.person('Guest');
    const stranger = await test.given.person('Stranger');
    const colleagueHome = await test.given.membership(colleague, owner.workspace.id, 'member');
    await test.given.membership(guest, owner.workspace.id, 'guest');

    const privateFolder = await test.given.folder(owner, owner.workspace.homeId, 'Diary');
    const team = await test.given.folder(owner, owner.workspace.rootId, 'Team');
    const inner = await test.given.folder(owner, team.id, 'Inner');

    // A colleague edits the shared tree but does not see the owner's My files.
    expect((await colleague.call(itemsApi.get, { params: { id: team.id } })).body.role).toBe('editor');
    expect(await colleague.call(itemsApi.get, { params: { id: privateFolder.id } })).toFail('not_found');
    expect(
      (await colleague.call(itemsApi.create, { params: { ws: owner.workspace.id }, body: { kind: 'folder', name: 'Mine', parentId: colleagueHome } })).status,
    ).toBe(201);
    expect(await owner.call(itemsApi.get, { params: { id: colleagueHome } })).toFail('not_found');

    // A stranger sees nothing, not even by id.
    expect(await stranger.call(itemsApi.get, { params: { id: team.id } })).toFail('not_found');
    expect(await stranger.call(itemsApi.children, { params: { ws: owner.workspace.id, id: team.id } })).toFail('not_found');

    // A guest sees only what is shared with them, and what is below it.
    expect(await guest.call(itemsApi.get, { params: { id: team.id } })).toFail('not_found');
    await test.given.grant(team.id, { user: guest }, 'viewer');
    expect((await guest.call(itemsApi.get, { params: { id: inner.id } })).body.role).toBe('viewer');
    const listing = await guest.call(itemsApi.children, { params: { ws: owner.workspace.id, id: team.id } });
    expect(listing.body.items.map((i) => i.name)).toEqual(['Inner']);
    const create = await guest.call(itemsApi.create, { params: { ws: owner.workspace.id }, body: { kind: 'folder', name: 'No', parentId: team.id } });
    expect(create).toFail('forbidden');
    await test.given.grant(inner.id, { user: guest }, 'editor');
    expect((await guest.call(itemsApi.create, { params: { ws: owner.workspace.id }, body: { kind: 'folder', name: 'Yes', parentId: inner.id } })).status).toBe(
      201,
    );

    // An expired grant grants nothing.
    await test.given.grant(privateFolder.id, { user: colleague }, 'viewer', new Date(Date.now() - 1000));
    expect(await colleague.call(itemsApi.get, { params: { id: privateFolder.id } })).toFail('not_found');
    await test.given.grant(privateFolder.id, { user: stranger }, 'viewer');
    expect(await stranger.call(itemsApi.get, { params: { id: privateFolder.id } })).toFail('not_found');

    // Nothing moves to another workspace.
    const elsewhere = await colleague.call(itemsApi.update, { params: { id: team.id }, body: { parentId: colleague.workspace.rootId } });
    expect(elsewhere).toFail('forbidden');
  });

  it('gives each child in a list the stronger of the folder’s role and the grants on the child itself, as the child’s own page does', async () => {
    const owner = await test.given.person('Owner');
    const member = await test.given.person('Member');
    const guest = await test.given.person('Guest');
    const ws = owner.workspace.id;
    await test.given.membership(member, ws, 'member');
    await test.given.membership(guest, ws, 'guest');
    const team = await test.given.folder(owner, owner.workspace.rootId, 'Team');
    const names = ['a plain', 'b to the guest', 'c to the workspace', 'd to a group', 'e expired'] as const;
    const child = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await test.given.folder(owner, team.id, n)] as const)));
    await test.given.grant(team.id, { user: guest }, 'viewer');
    await test.given.grant(child['b to the guest']!.id, { user: guest }, 'manager');
    // A grant to the workspace or a group holds for its members, never for a guest.
    await test.given.grant(child['c to the workspace']!.id, { workspace: ws }, 'manager');
    const group = (await owner.call(groupsApi.create, { params: { ws }, body: { name: 'Leads' } })).body.id;
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: group }, body: { userIds: [member.id] } });
    // A guest is never added to a group; one left in it (made a guest after) has no role from it.
    await test.app.ctx.db.insertInto('group_members').values({ group_id: group, user_id: guest.id, workspace_id: ws }).execute();
    await test.given.grant(child['d to a group']!.id, { group }, 'manager');
    await test.given.grant(child['e expired']!.id, { user: member }, 'manager', new Date(Date.now() - 1000));

    for (const [person, expected] of [
      [member, ['editor', 'editor', 'manager', 'manager', 'editor']],
      [guest, ['viewer', 'manager', 'viewer', 'viewer', 'viewer']],
    ] as const) {
      const listed = (await person.call(itemsApi.children, { params: { ws, id: team.id } })).body.items;
      expect(listed.map((i) => [i.name, i.role])).toEqual(names.map((n, k) => [n, expected[k]]));
      for (const item of listed) {
        const own = (await person.call(itemsApi.get, { params: { id: item.id } })).body;
        expect([item.name, item.role, item.abilities]).toEqual([own.name, own.role, own.abilities]);
      }
    }
  });
});

describe('listing pages', () => {
  it('pages through folders and files by every sort and order, each item exactly once, in the one-page order', async () => {
    const ada = await test.given.person();
    const box = await test.given.folder(ada, ada.workspace.homeId, 'Box');
    for (const name of ['Zeta', 'alpha', 'Mid']) await test.given.folder(ada, box.id, name);
    for (const [name, size] of [
      ['b.txt', 30],
      ['A.png', 10],
      ['c.pdf', 20],
      ['d.txt', 10],
    ] as const)
      await test.given.upload(ada, box.id, name, Buffer.alloc(size, 1));
    for (const sort of ['name', 'modified', 'size', 'type'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const all = (await ada.call(itemsApi.children, { params: { ws: ada.workspace.id, id: box.id }, query: { sort, order, limit: 1000 } })).body.items.map(
          (i) => i.name,
        );
        const paged = await namesByPage(ada, box.id, 2, { sort, order });
        expect(paged, `${sort} ${order}`).toEqual(all);
        expect(all.slice(0, 3).sort(), `${sort} ${order}: folders first`).toEqual(['Mid', 'Zeta', 'alpha']);
      }
    }
  });
});

describe('documents', () => {
  it('creates a document in a folder: it lists after the folders, moves, trashes and restores like any item, and a copy carries its content', async () => {
    const ada = await test.given.person('Ada');
    const notes = await test.given.folder(ada, ada.workspace.homeId, 'Notes');
    const doc = await ada.call(itemsApi.create, { params: { ws: ada.workspace.id }, body: { kind: 'document', name: 'Plan', parentId: ada.workspace.homeId } });
    expect(doc.status).toBe(201);
    expect(doc.body).toMatchObject({ kind: 'document', name: 'Plan', parentId: ada.workspace.homeId, size: 0, role: 'manager' });
    const listed = await ada.call(itemsApi.children, { params: { ws: ada.workspace.id, id: ada.workspace.homeId } });
    expect(listed.body.items.map((i) => i.name)).toEqual(['Notes', 'Plan']);
    // A document is no folder: nothing is created inside it.
    expect(await folder(ada, doc.body.id, 'inside')).toFail('invalid_input');

    await storeDocument(test.app.ctx.db, doc.body.id, { state: new Uint8Array([1, 2, 3]), text: 'the plan' }, { by: null });
    const copy = await ada.call(itemsApi.copy, { params: { id: doc.body.id }, body: { parentId: notes.id } });
    expect(copy.body).toMatchObject({ kind: 'document', name: 'Plan', parentId: notes.id });
    const content = await test.app.ctx.db
      .selectFrom('document_contents')
      .select(['state', 'text'])
      .where('item_id', '=', copy.body.id)
      .executeTakeFirstOrThrow();
    expect([...content.state]).toEqual([1, 2, 3]);
    expect(content.text).toBe('the plan');

    expect((await ada.call(itemsApi.update, { params: { id: doc.body.id }, body: { parentId: notes.id, name: 'Plan v2' } })).body).toMatchObject({
      parentId: notes.id,
      name: 'Plan v2',
    });
    expect((await ada.call(itemsApi.trash, { params: { id: doc.body.id } })).status).toBe(200);
    expect((await ada.call(itemsApi.restore, { params: { id: doc.body.id } })).status).toBe(200);
    expect(await ada.call(filesApi.content, { params: { id: doc.body.id } })).toFail('not_found');
  });
});
