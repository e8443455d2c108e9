import { grantsApi, groupsApi, itemsApi, meApi, workspacesApi, type TCreateGrantRequest } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { type Person } from '../../testing/given.ts';
import { updateUser } from '../users/users.repo.ts';
import { useTestApp } from '../../testing/test-app.ts';

const test = useTestApp({ LOG_LEVEL: 'error' });

describe('sharing an item', () => {
  it('shares with someone outside the workspace by email, who joins as a guest and sees only that item', async () => {
    const ada = await test.given.person('Ada');
    const bea = await test.given.person('Bea');
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Plans');
    const other = await test.given.folder(ada, ada.workspace.rootId, 'Other');
    const email = (await bea.call(meApi.get)).body.user.email;
    expect(await bea.call(itemsApi.get, { params: { id: folder.id } })).toFail('not_found');
    const shared = await ada.call(grantsApi.create, {
      params: { id: folder.id },
      body: { principal: { type: 'user', email: email.toUpperCase() }, role: 'commenter' },
    });
    expect(shared.status).toBe(201);
    expect(shared.body).toMatchObject({ itemId: folder.id, role: 'commenter', expiresAt: null, principal: { type: 'user', id: bea.id, name: 'Bea', email } });
    expect((await bea.call(itemsApi.get, { params: { id: folder.id } })).body.role).toBe('commenter');
    expect(await bea.call(itemsApi.get, { params: { id: other.id } })).toFail('not_found');
    const workspaces = (await bea.call(workspacesApi.list)).body.items;
    expect(workspaces.find((w) => w.id === ada.workspace.id)?.role).toBe('guest');

    // Sharing again changes the role; the list shows one grant.
    await ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', id: bea.id }, role: 'editor' } });
    const list = (await ada.call(grantsApi.list, { params: { id: folder.id } })).body.items;
    expect(list.map((x) => x.role)).toEqual(['editor']);
    expect((await bea.call(itemsApi.get, { params: { id: folder.id } })).body.role).toBe('editor');

    const grantId = list[0]!.id;
    expect((await ada.call(grantsApi.remove, { params: { id: folder.id, grantId } })).status).toBe(204);
    expect(await bea.call(itemsApi.get, { params: { id: folder.id } })).toFail('not_found');
    expect(await ada.call(grantsApi.remove, { params: { id: folder.id, grantId } })).toFail('not_found');
  });

  it('by email reaches only an account that proved the address; one that did not gains nothing', async () => {
    const ada = await test.given.person('Ada');
    const real = await test.given.person('Real CEO');
    const squatter = await test.given.person('Squatter');
    const email = (await real.call(meApi.get)).body.user.email;
    // Someone signs up elsewhere claiming the address, and never proves it.
    await updateUser(test.app.ctx.db, squatter.id, { email, email_verified: false });
    await updateUser(test.app.ctx.db, real.id, { email_verified: false });
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Board');
    const share = () => ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', email }, role: 'editor' } });
    const refused = await share();
    expect(refused).toFail('invalid_input');
    expect(refused.error).toMatchObject({
      details: { fields: [{ path: 'body.principal', message: expect.stringContaining('confirmed') }] },
    });
    for (const p of [real, squatter]) {
      expect(await p.call(itemsApi.get, { params: { id: folder.id } })).toFail('not_found');
      expect((await p.call(workspacesApi.list)).body.items.map((w) => w.id)).not.toContain(ada.workspace.id);
    }
    expect((await ada.call(grantsApi.list, { params: { id: folder.id } })).body.items).toEqual([]);

    // Once the real owner of the address has proved it, the share reaches them, and only them.
    await updateUser(test.app.ctx.db, real.id, { email_verified: true });
    expect((await share()).body.principal).toMatchObject({ type: 'user', id: real.id });
    expect((await real.call(itemsApi.get, { params: { id: folder.id } })).body.role).toBe('editor');
    expect(await squatter.call(itemsApi.get, { params: { id: folder.id } })).toFail('not_found');
  });

  it('shares with the whole workspace: its members, never its guests', async () => {
    const ada = await test.given.person('Ada');
    const bea = await test.given.person('Bea');
    const cy = await test.given.person('Cy');
    await test.given.membership(bea, ada.workspace.id, 'member');
    await test.given.membership(cy, ada.workspace.id, 'guest');
    const mine = await test.given.folder(ada, ada.workspace.homeId, 'Mine');
    const inside = await test.given.folder(ada, mine.id, 'Inside');
    await test.given.grant(inside.id, { user: cy }, 'viewer');
    expect(await bea.call(itemsApi.get, { params: { id: mine.id } })).toFail('not_found');
    const res = await ada.call(grantsApi.create, { params: { id: mine.id }, body: { principal: { type: 'workspace' }, role: 'editor' } });
    expect(res.body.principal).toMatchObject({ type: 'workspace', id: ada.workspace.id });
    expect((await bea.call(itemsApi.get, { params: { id: mine.id } })).body.role).toBe('editor');
    expect(await cy.call(itemsApi.get, { params: { id: mine.id } })).toFail('not_found');
    // Below it, the guest has what is shared with them alone.
    expect((await cy.call(itemsApi.get, { params: { id: inside.id } })).body.role).toBe('viewer');
    expect(await cy.call(itemsApi.create, { params: { ws: ada.workspace.id }, body: { kind: 'folder', name: 'x', parentId: inside.id } })).toFail('forbidden');
  });

  it('shows who has access to a manager reading through a token that may only read, who still cannot change it', async () => {
    const ada = await test.given.person('Ada');
    const bea = await test.given.person('Bea');
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Plans');
    await ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', id: bea.id }, role: 'viewer' } });
    const reader = await test.given.readOnly(ada);
    const list = await reader.call(grantsApi.list, { params: { id: folder.id } });
    expect(list.status).toBe(200);
    expect(list.body.items.map((x) => x.principal.id)).toEqual([bea.id]);
    expect(await reader.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', id: bea.id }, role: 'editor' } })).toFail(
      'forbidden',
    );
    // A viewer sees the item, not who else has it.
    expect(await bea.call(grantsApi.list, { params: { id: folder.id } })).toFail('forbidden');
  });

  it('is for managers, with a known person and an expiry still to come', async () => {
    const ada = await test.given.person('Ada');
    const bea = await test.given.person('Bea');
    const cy = await test.given.person('Cy');
    await test.given.membership(bea, ada.workspace.id, 'member');
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Team');
    const share = (by: Person, body: TCreateGrantRequest) => by.call(grantsApi.create, { params: { id: folder.id }, body });
    expect(await share(bea, { principal: { type: 'user', id: cy.id }, role: 'viewer' })).toFail('forbidden');
    expect(await bea.call(grantsApi.list, { params: { id: folder.id } })).toFail('forbidden');
    expect(await share(cy, { principal: { type: 'workspace' }, role: 'viewer' })).toFail('not_found');
    expect(await share(ada, { principal: { type: 'user', email: 'nobody@example.com' }, role: 'viewer' })).toFail('invalid_input');
    const gone = await test.given.person('Gone');
    await updateUser(test.app.ctx.db, gone.id, { status: 'deactivated' });
    expect(await share(ada, { principal: { type: 'user', id: gone.id }, role: 'viewer' })).toFail('invalid_input');
    // No declaration allows the role 'owner': sent as it is.
    expect(await ada.raw('POST', `/items/${folder.id}/grants`, { principal: { type: 'user', id: cy.id }, role: 'owner' })).toFail('invalid_input');
    expect(await share(ada, { principal: { type: 'user', id: cy.id }, role: 'viewer', expiresAt: new Date(Date.now() - 1000).toISOString() })).toFail(
      'invalid_input',
    );
    const later = new Date(Date.now() + 86_400_000).toISOString();
    expect((await share(ada, { principal: { type: 'user', id: cy.id }, role: 'viewer', expiresAt: later })).body.expiresAt).toBe(later);
  });

  it('lists who has access: the owner, grants on the item, and those inherited from the folders above, nearest first', async () => {
    const ada = await test.given.person('Ada');
    const bea = await test.given.person('Bea');
    const cy = await test.given.person('Cy');
    await test.given.membership(bea, ada.workspace.id, 'member');
    const top = await test.given.folder(ada, ada.workspace.homeId, 'Top');
    const mid = await test.given.folder(ada, top.id, 'Mid');
    const doc = await test.given.document(ada, mid.id, 'Notes');
    await ada.call(grantsApi.create, { params: { id: top.id }, body: { principal: { type: 'workspace' }, role: 'viewer' } });
    await ada.call(grantsApi.create, { params: { id: mid.id }, body: { principal: { type: 'user', id: cy.id }, role: 'commenter' } });
    await test.given.grant(top.id, { user: cy }, 'editor', new Date(Date.now() - 1000));
    const direct = (await ada.call(grantsApi.create, { params: { id: doc.id }, body: { principal: { type: 'user', id: bea.id }, role: 'editor' } })).body;
    expect(direct.inheritedFrom).toBeNull();

    const list = (await ada.call(grantsApi.list, { params: { id: doc.id } })).body;
    expect(list.owner).toMatchObject({ id: ada.id, name: 'Ada' });
    // The expired grant on Top holds no more, and is not listed.
    expect(list.items.map((x) => [x.principal.id, x.role, x.inheritedFrom])).toEqual([
      [bea.id, 'editor', null],
      [cy.id, 'commenter', { id: mid.id, name: 'Mid' }],
      [ada.workspace.id, 'viewer', { id: top.id, name: 'Top' }],
    ]);

    // An inherited grant changes or goes only on its own folder.
    const fromMid = list.items[1]!.id;
    expect(await ada.call(grantsApi.update, { params: { id: doc.id, grantId: fromMid }, body: { role: 'viewer' } })).toFail('not_found');
    expect(await ada.call(grantsApi.remove, { params: { id: doc.id, grantId: fromMid } })).toFail('not_found');

    // A manager of the document alone does not see what is shared on the folders above it: Cy may
    // view Mid (as a commenter) but not see who has access there, and cannot see Top at all.
    await ada.call(grantsApi.create, { params: { id: doc.id }, body: { principal: { type: 'user', id: cy.id }, role: 'manager' } });
    const theirs = (await cy.call(grantsApi.list, { params: { id: doc.id } })).body;
    expect(theirs.items.filter((x) => x.inheritedFrom)).toEqual([]);
    // Made a manager of Mid, Cy sees Mid's grants, still not Top's.
    await ada.call(grantsApi.create, { params: { id: mid.id }, body: { principal: { type: 'user', id: cy.id }, role: 'manager' } });
    const now = (await cy.call(grantsApi.list, { params: { id: doc.id } })).body;
    expect(now.items.filter((x) => x.inheritedFrom).map((x) => x.inheritedFrom?.name)).toEqual(['Mid']);
  });

  it('changes a grant’s role and expiry, recorded on the activity record', async () => {
    const ada = await test.given.person('Ada');
    const bea = await test.given.person('Bea');
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Plans');
    const grant = (await ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', id: bea.id }, role: 'viewer' } })).body;
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const changed = await ada.call(grantsApi.update, { params: { id: folder.id, grantId: grant.id }, body: { role: 'editor', expiresAt: later } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: grant.id, role: 'editor', expiresAt: later, principal: { id: bea.id } });
    expect((await bea.call(itemsApi.get, { params: { id: folder.id } })).body.role).toBe('editor');
    expect((await ada.call(grantsApi.update, { params: { id: folder.id, grantId: grant.id }, body: { expiresAt: null } })).body).toMatchObject({
      role: 'editor',
      expiresAt: null,
    });

    const events = await test.app.ctx.db
      .selectFrom('activity_events')
      .select(['action', 'data'])
      .where('item_id', '=', folder.id)
      .where('action', '=', 'item.shared')
      .orderBy('id')
      .execute();
    expect(events.map((e) => [e.action, (e.data as { role: string }).role])).toEqual([
      ['item.shared', 'viewer'],
      ['item.shared', 'editor'],
      ['item.shared', 'editor'],
    ]);

    expect(await ada.call(grantsApi.update, { params: { id: folder.id, grantId: grant.id }, body: {} })).toFail('invalid_input');
    // No declaration allows the role 'owner': sent as it is.
    expect(await ada.raw('PATCH', `/items/${folder.id}/grants/${grant.id}`, { role: 'owner' })).toFail('invalid_input');
    expect(
      await ada.call(grantsApi.update, { params: { id: folder.id, grantId: grant.id }, body: { expiresAt: new Date(Date.now() - 1000).toISOString() } }),
    ).toFail('invalid_input');
    // Bea, an editor now, may not change who has access; an outsider finds nothing.
    expect(await bea.call(grantsApi.update, { params: { id: folder.id, grantId: grant.id }, body: { role: 'manager' } })).toFail('forbidden');
    const outsider = await test.given.person('Outsider');
    expect(await outsider.call(grantsApi.update, { params: { id: folder.id, grantId: grant.id }, body: { role: 'manager' } })).toFail('not_found');
    const other = await test.given.folder(ada, ada.workspace.rootId, 'Other');
    expect(await ada.call(grantsApi.update, { params: { id: other.id, grantId: grant.id }, body: { role: 'viewer' } })).toFail('not_found');
  });
});

describe('shared with me', () => {
  it('lists what was shared with the caller themself, newest share first, with who shared it and when, only what they can see', async () => {
    const ada = await test.given.person('Ada');
    const bea = await test.given.person('Bea');
    const email = (await bea.call(meApi.get)).body.user.email;
    const first = await test.given.folder(ada, ada.workspace.homeId, 'First');
    const inside = await test.given.folder(ada, first.id, 'Inside');
    const second = await test.given.document(ada, ada.workspace.homeId, 'Second');
    const everyone = await test.given.folder(ada, ada.workspace.homeId, 'For everyone');
    await ada.call(grantsApi.create, { params: { id: first.id }, body: { principal: { type: 'user', email }, role: 'viewer' } });
    await ada.call(grantsApi.create, { params: { id: inside.id }, body: { principal: { type: 'user', id: bea.id }, role: 'editor' } });
    await ada.call(grantsApi.create, { params: { id: second.id }, body: { principal: { type: 'user', id: bea.id }, role: 'commenter' } });
    await ada.call(grantsApi.create, { params: { id: everyone.id }, body: { principal: { type: 'workspace' }, role: 'viewer' } });
    // Ada's own workspace lists nothing shared with Ada.
    expect((await ada.call(grantsApi.sharedWithMe, { params: { ws: ada.workspace.id } })).body).toEqual({ items: [], nextCursor: null });

    const res = await bea.call(grantsApi.sharedWithMe, { params: { ws: ada.workspace.id } });
    expect(res.status).toBe(200);
    expect(res.body.items.map((x) => [x.item.name, x.role])).toEqual([
      ['Second', 'commenter'],
      ['Inside', 'editor'],
      ['First', 'viewer'],
    ]);
    expect(res.body.items[0]).toMatchObject({
      sharedBy: { id: ada.id, name: 'Ada' },
      item: { kind: 'document', role: 'commenter', abilities: { comment: true } },
    });
    // Bea is a guest: she sees who shared it by name, not by address.
    expect(res.body.items.map((x) => x.sharedBy?.email)).toEqual([null, null, null]);
    expect(Date.parse(res.body.items[0]!.sharedAt)).toBeGreaterThan(Date.now() - 60_000);

    // Paging: one at a time, the same items in the same order.
    const pageAfter = (cursor?: string) => bea.call(grantsApi.sharedWithMe, { params: { ws: ada.workspace.id }, query: { limit: 1, cursor } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await pageAfter(cursor ?? undefined);
      seen.push(...page.body.items.map((x) => x.item.name));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['Second', 'Inside', 'First']);

    // In the trash, or inside a folder in the trash, it is out of sight.
    await ada.call(itemsApi.trash, { params: { id: second.id } });
    await ada.call(itemsApi.trash, { params: { id: first.id } });
    expect((await bea.call(grantsApi.sharedWithMe, { params: { ws: ada.workspace.id } })).body.items).toEqual([]);
    await ada.call(itemsApi.restore, { params: { id: first.id } });
    expect((await bea.call(grantsApi.sharedWithMe, { params: { ws: ada.workspace.id } })).body.items.map((x) => x.item.name)).toEqual(['Inside', 'First']);

    // Someone not in the workspace finds no such workspace; a bad cursor is invalid input.
    const outsider = await test.given.person('Outsider');
    expect(await outsider.call(grantsApi.sharedWithMe, { params: { ws: ada.workspace.id } })).toFail('not_found');
    expect(await bea.call(grantsApi.sharedWithMe, { params: { ws: ada.workspace.id }, query: { cursor: 'nonsense' } })).toFail('invalid_input');
    // The guest sees no member list, only what is shared with them.
    expect(await bea.call(workspacesApi.members, { params: { ws: ada.workspace.id } })).toFail('forbidden');
  });
});

describe('who has access, as each caller may see it', () => {
  it('a guest managing an item sees names, not addresses; grants above are listed only where the caller may see them; expired grants are not listed', async () => {
    const ada = await test.given.person('Ada');
    const bea = await test.given.person('Bea');
    const gus = await test.given.person('Gus');
    const mia = await test.given.person('Mia');
    const ws = ada.workspace.id;
    await test.given.membership(mia, ws, 'member');
    await test.given.membership(gus, ws, 'guest');
    const parent = await test.given.folder(ada, ada.workspace.rootId, 'Parent');
    const child = await test.given.folder(ada, parent.id, 'Child');
    await test.given.grant(parent.id, { user: bea }, 'viewer');
    await test.given.grant(child.id, { user: gus }, 'manager');
    await test.given.grant(child.id, { user: mia }, 'manager');
    // An expired grant on the item gives nothing: it is not listed, as expired grants above are not.
    await test.given.grant(child.id, { workspace: ws }, 'editor', new Date(Date.now() - 60_000));

    const byAda = (await ada.call(grantsApi.list, { params: { id: child.id } })).body;
    expect(byAda.items.map((x) => x.principal.id).sort()).toEqual([bea.id, gus.id, mia.id].sort());
    expect(byAda.owner?.email).toEqual(expect.stringContaining('@'));

    // Mia manages the child but is only an editor of the parent: the parent's grants are not hers to see.
    const byMia = (await mia.call(grantsApi.list, { params: { id: child.id } })).body;
    expect(byMia.items.map((x) => x.principal.id).sort()).toEqual([gus.id, mia.id].sort());
    expect(byMia.items.every((x) => x.inheritedFrom === null)).toBe(true);
    expect(byMia.items.find((x) => x.principal.id === gus.id)?.principal.email).toEqual(expect.stringContaining('@'));

    // Gus, a guest, manages the child: names only.
    const byGus = await gus.call(grantsApi.list, { params: { id: child.id } });
    expect(byGus.status).toBe(200);
    expect(byGus.body.items.map((x) => x.principal.email)).toEqual([null, null]);
    expect(byGus.body.owner).toMatchObject({ id: ada.id, name: 'Ada', email: null });

    // He shares it with a person, but not with the whole workspace or a group of it, which he does not see.
    const group = (await ada.call(groupsApi.create, { params: { ws }, body: { name: 'Everyone here' } })).body.id;
    for (const principal of [{ type: 'workspace' }, { type: 'group', id: group }] as const) {
      const refused = await gus.call(grantsApi.create, { params: { id: child.id }, body: { principal, role: 'viewer' } });
      expect(refused).toFail('forbidden');
      expect(refused.error?.message).toBe('Guests share with people, not with a group or the whole workspace.');
    }
    expect((await gus.call(grantsApi.create, { params: { id: child.id }, body: { principal: { type: 'user', id: bea.id }, role: 'viewer' } })).status).toBe(
      201,
    );
    const everyone = await mia.call(grantsApi.create, { params: { id: child.id }, body: { principal: { type: 'workspace' }, role: 'viewer' } });
    expect(everyone.status).toBe(201);
    // Nor does he change or renew one someone else made: that would be sharing with them again. He may take it away.
    for (const body of [{ role: 'manager' }, { expiresAt: null }] as const) {
      expect(await gus.call(grantsApi.update, { params: { id: child.id, grantId: everyone.body.id }, body })).toFail('forbidden');
    }
    expect((await gus.call(grantsApi.remove, { params: { id: child.id, grantId: everyone.body.id } })).status).toBe(204);
  });

  it('a member sees who shared something with them by address too', async () => {
    const ada = await test.given.person('Ada');
    const mia = await test.given.person('Mia');
    await test.given.membership(mia, ada.workspace.id, 'member');
    const doc = await test.given.folder(ada, ada.workspace.homeId, 'For Mia');
    await ada.call(grantsApi.create, { params: { id: doc.id }, body: { principal: { type: 'user', id: mia.id }, role: 'viewer' } });
    const email = (await ada.call(meApi.get)).body.user.email;
    expect((await mia.call(grantsApi.sharedWithMe, { params: { ws: ada.workspace.id } })).body.items[0]?.sharedBy).toEqual({ id: ada.id, name: 'Ada', email });
  });
});
