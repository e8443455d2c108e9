import { grantsApi, groupsApi, itemsApi, membersApi, type TCreateGrantRequest } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import type { Person } from '../../testing/given.ts';
import { invalidFields, type Answer } from '../../testing/route-call.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { userForIdentity } from '../auth/index.ts';
import { syncIdpGroups } from './index.ts';

const test = useTestApp({ LOG_LEVEL: 'error' });

type Role = 'owner' | 'admin' | 'member' | 'guest' | 'outsider';

/** A workspace with one person of each role (the guest holds a share, so is in it), and someone outside. */
async function team() {
  const owner = await test.given.person('Owner');
  const admin = await test.given.person('Admin');
  const member = await test.given.person('Member');
  const guest = await test.given.person('Guest');
  const outsider = await test.given.person('Outsider');
  const ws = owner.workspace.id;
  await test.given.membership(admin, ws, 'admin');
  await test.given.membership(member, ws, 'member');
  await test.given.membership(guest, ws, 'guest');
  await test.given.grant((await test.given.folder(owner, owner.workspace.rootId, `For the guest ${Math.random()}`)).id, { user: guest }, 'viewer');
  const people: Record<Role, Person> = { owner, admin, member, guest, outsider };
  return { ws, people };
}

/** A group made through the API by `p` in the workspace `ws`. */
async function groupOf(p: Person, ws: string, name: string) {
  const res = await p.call(groupsApi.create, { params: { ws }, body: { name } });
  if (res.status !== 201) throw new Error(`could not make the group ${name}: ${JSON.stringify(res.error)}`);
  return res.body;
}

describe('every group call by role', () => {
  const ROLES: Role[] = ['owner', 'admin', 'member', 'guest', 'outsider'];
  /** What each role is answered: managing is for the owner and admins, reading for anyone but guests, and outsiders see no workspace. */
  const expected = (role: Role, kind: 'read' | 'manage', ok: number) =>
    role === 'outsider' ? 404 : role === 'guest' ? 403 : kind === 'manage' && role === 'member' ? 403 : ok;

  for (const role of ROLES) {
    it(`as ${role}`, async () => {
      const { ws, people } = await team();
      const caller = people[role];
      const group = (await people.owner.call(groupsApi.create, { params: { ws }, body: { name: 'Design' } })).body;
      await people.owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [people.admin.id] } });
      const groupId = group.id;
      const cells: [string, 'read' | 'manage', number, () => Promise<Answer<unknown>>][] = [
        ['list', 'read', 200, () => caller.call(groupsApi.list, { params: { ws } })],
        ['list members', 'read', 200, () => caller.call(groupsApi.members, { params: { ws, groupId } })],
        ['create', 'manage', 201, () => caller.call(groupsApi.create, { params: { ws }, body: { name: `Made by ${role}` } })],
        ['rename', 'manage', 200, () => caller.call(groupsApi.rename, { params: { ws, groupId }, body: { name: `Design by ${role}` } })],
        ['add members', 'manage', 200, () => caller.call(groupsApi.addMembers, { params: { ws, groupId }, body: { userIds: [people.member.id] } })],
        ['remove a member', 'manage', 204, () => caller.call(groupsApi.removeMember, { params: { ws, groupId, userId: people.admin.id } })],
        ['delete', 'manage', 204, () => caller.call(groupsApi.remove, { params: { ws, groupId } })],
      ];
      for (const [name, kind, ok, call] of cells) {
        const res = await call();
        const want = expected(role, kind, ok);
        const label = `${role} ${name}: ${JSON.stringify(res.body)}`;
        if (want === 403) expect(res, label).toFail('forbidden');
        else if (want === 404) expect(res, label).toFail('not_found');
        else expect(res.status, label).toBe(want);
      }
      // The owner sees what the calls that succeeded did.
      const after = (await people.owner.call(groupsApi.list, { params: { ws } })).body.items.map((x) => x.name);
      if (role === 'owner' || role === 'admin') expect(after).toEqual([`Made by ${role}`]);
      else expect(after).toEqual(['Design']);
    });
  }
});

describe('groups', () => {
  it('are listed by name with member counts, made, renamed and deleted, each recorded', async () => {
    const { ws, people } = await team();
    const { owner, admin, member } = people;
    const made = await owner.call(groupsApi.create, { params: { ws }, body: { name: '  Sales  ' } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Sales', workspaceId: ws, memberCount: 0 });
    const design = await groupOf(admin, ws, 'design');
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: design.id }, body: { userIds: [member.id, admin.id, member.id] } });
    const list = (await member.call(groupsApi.list, { params: { ws } })).body;
    expect(list.items.map((x) => [x.name, x.memberCount])).toEqual([
      ['design', 2],
      ['Sales', 0],
    ]);
    expect(list.nextCursor).toBeNull();
    const renamed = await owner.call(groupsApi.rename, { params: { ws, groupId: design.id }, body: { name: 'Design team' } });
    expect(renamed.body).toMatchObject({ id: design.id, name: 'Design team', memberCount: 2 });
    // Renaming to its own name in another case is allowed: the name is its own.
    expect((await owner.call(groupsApi.rename, { params: { ws, groupId: design.id }, body: { name: 'DESIGN TEAM' } })).status).toBe(200);
    expect((await owner.call(groupsApi.remove, { params: { ws, groupId: made.body.id } })).status).toBe(204);
    expect((await owner.call(groupsApi.remove, { params: { ws, groupId: made.body.id } })).status).toBe(404);
    expect((await owner.call(groupsApi.rename, { params: { ws, groupId: made.body.id }, body: { name: 'Back' } })).status).toBe(404);
    expect((await owner.call(groupsApi.members, { params: { ws, groupId: made.body.id } })).status).toBe(404);
    const events = await test.app.ctx.db
      .selectFrom('activity_events')
      .select(['action', 'data', 'actor_user_id'])
      .where('workspace_id', '=', ws)
      .where('action', 'like', 'group.%')
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.action)).toEqual([
      'group.created',
      'group.created',
      'group.member_added',
      'group.member_added',
      'group.renamed',
      'group.renamed',
      'group.deleted',
    ]);
    expect(events[4]!.data).toMatchObject({ groupId: design.id, from: 'design', to: 'Design team' });
    expect(events[1]!.actor_user_id).toBe(admin.id);
    // A group of one workspace is not found through another.
    const elsewhere = people.outsider;
    expect((await elsewhere.call(groupsApi.members, { params: { ws: elsewhere.workspace.id, groupId: design.id } })).status).toBe(404);
  });

  it('refuse names that are empty, too long, with control characters, or taken whatever the case', async () => {
    const { ws, people } = await team();
    const { owner } = people;
    const create = (name: string) => owner.call(groupsApi.create, { params: { ws }, body: { name } });
    // Raw: some of these bodies are of types the declaration does not allow.
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 'Bad\u0007name' }, { name: 42 }]) {
      const res = await owner.raw('POST', `/workspaces/${ws}/groups`, body);
      expect(res, JSON.stringify(body)).toFail('invalid_input');
      expect(invalidFields(res)).toMatchObject([{ path: 'body.name' }]);
    }
    expect((await create('x'.repeat(100))).status).toBe(201);
    const sales = (await create('Sales')).body;
    const taken = await create('SALES');
    expect(taken).toFail('invalid_input');
    expect(invalidFields(taken)).toMatchObject([{ path: 'body.name', message: expect.stringContaining('already exists') }]);
    const other = (await create('Support')).body;
    const renamed = await owner.call(groupsApi.rename, { params: { ws, groupId: other.id }, body: { name: 'sales' } });
    expect(renamed).toFail('invalid_input');
    expect(invalidFields(renamed)).toMatchObject([{ path: 'body.name' }]);
    expect(await owner.call(groupsApi.rename, { params: { ws, groupId: sales.id }, body: { name: '' } })).toFail('invalid_input');
    // Another workspace may use the same name.
    const mine = people.member;
    expect((await mine.call(groupsApi.create, { params: { ws: mine.workspace.id }, body: { name: 'Sales' } })).status).toBe(201);
    // Raw: no route answers GET for one group.
    expect((await owner.raw('GET', `/workspaces/${ws}/groups/not-an-id`)).status).toBe(404);
  });

  it('hold members of the workspace, not guests or strangers; adding twice changes nothing; removing someone not in it is not found', async () => {
    const { ws, people } = await team();
    const { owner, member, guest, outsider } = people;
    const group = await groupOf(owner, ws, 'Ops');
    const add = (userIds: readonly string[]) => owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [...userIds] } });
    const added = await add([member.id]);
    expect(added.status).toBe(200);
    expect(added.body.items).toEqual([expect.objectContaining({ userId: member.id, name: 'Member', role: 'member', source: 'manual' })]);
    expect((await add([member.id])).body.items).toHaveLength(1);
    for (const [ids, path] of [
      [[guest.id], 'body.userIds.0'],
      [[owner.id, outsider.id], 'body.userIds.1'],
    ] as const) {
      const res = await add(ids);
      expect(res).toFail('invalid_input');
      expect(invalidFields(res)).toMatchObject([{ path }]);
    }
    expect(await add([])).toFail('invalid_input');
    expect(await add(['nope'])).toFail('invalid_input');
    // Nothing of a refused batch was added.
    expect((await owner.call(groupsApi.members, { params: { ws, groupId: group.id } })).body.items.map((m) => m.userId)).toEqual([member.id]);
    expect((await owner.call(groupsApi.removeMember, { params: { ws, groupId: group.id, userId: owner.id } })).status).toBe(404);
    expect((await owner.call(groupsApi.removeMember, { params: { ws, groupId: group.id, userId: member.id } })).status).toBe(204);
    expect((await owner.call(groupsApi.members, { params: { ws, groupId: group.id } })).body.items).toEqual([]);
  });

  it('lose someone who leaves the workspace, recorded', async () => {
    const { ws, people } = await team();
    const { owner, member } = people;
    const a = await groupOf(owner, ws, 'A');
    const b = await groupOf(owner, ws, 'B');
    for (const group of [a, b]) await owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [member.id, people.admin.id] } });
    expect((await owner.call(membersApi.remove, { params: { ws, userId: member.id }, query: { filesTo: owner.id } })).status).toBe(204);
    const counts = (await owner.call(groupsApi.list, { params: { ws } })).body.items.map((x) => x.memberCount);
    expect(counts).toEqual([1, 1]);
    const removed = await test.app.ctx.db
      .selectFrom('activity_events')
      .select('data')
      .where('workspace_id', '=', ws)
      .where('action', '=', 'group.member_removed')
      .execute();
    expect(removed.map((r) => (r.data as { groupId: string; userId: string }).groupId).sort()).toEqual([a.id, b.id].sort());
    expect(removed.every((r) => (r.data as { userId: string }).userId === member.id)).toBe(true);
    // The database holds to it too: no one is in a group through a membership of another workspace, nor without one.
    const elsewhere = await test.given.person('Elsewhere');
    const row = (workspaceId: string, userId: string) => ({ group_id: a.id, workspace_id: workspaceId, user_id: userId });
    await expect(test.app.ctx.db.insertInto('group_members').values(row(elsewhere.workspace.id, elsewhere.id)).execute()).rejects.toThrow(/foreign key/);
    await expect(test.app.ctx.db.insertInto('group_members').values(row(ws, member.id)).execute()).rejects.toThrow(/foreign key/);
  });
});

describe('sharing with a group', () => {
  it('gives its people the role on the item and below, the strongest grant winning, while they are in it and the grant holds', async () => {
    const { ws, people } = await team();
    const { owner, admin, member } = people;
    const colleague = await test.given.person('Colleague');
    await test.given.membership(colleague, ws, 'member');
    const group = await groupOf(owner, ws, 'Readers');
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [member.id, colleague.id] } });
    // Owner's My files: nobody else sees it unless it is shared.
    const folder = await test.given.folder(owner, owner.workspace.homeId, 'Plans');
    const inside = await test.given.folder(owner, folder.id, 'Inside');
    expect((await member.call(itemsApi.get, { params: { id: inside.id } })).status).toBe(404);
    const shared = await owner.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'group', id: group.id }, role: 'viewer' } });
    expect(shared.status).toBe(201);
    expect(shared.body).toMatchObject({ role: 'viewer', principal: { type: 'group', id: group.id, name: 'Readers', email: null } });
    for (const p of [member, colleague]) {
      expect((await p.call(itemsApi.get, { params: { id: inside.id } })).body).toMatchObject({ role: 'viewer', abilities: { view: true, edit: false } });
    }
    // Not in the group: nothing.
    expect((await admin.call(itemsApi.get, { params: { id: folder.id } })).status).toBe(404);
    // A stronger grant to the person wins; a weaker one does not lower the group's.
    await owner.call(grantsApi.create, { params: { id: inside.id }, body: { principal: { type: 'user', id: member.id }, role: 'editor' } });
    expect((await member.call(itemsApi.get, { params: { id: inside.id } })).body.role).toBe('editor');
    await owner.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'group', id: group.id }, role: 'manager' } });
    expect((await member.call(itemsApi.get, { params: { id: inside.id } })).body.role).toBe('manager');
    expect((await member.call(itemsApi.create, { params: { ws }, body: { kind: 'folder', name: 'New', parentId: inside.id } })).status).toBe(201);
    // Who has access lists the group by name; it can be changed and removed.
    const list = (await owner.call(grantsApi.list, { params: { id: inside.id } })).body.items;
    expect(list.map((x) => [x.principal.type, x.principal.name, x.inheritedFrom?.name ?? null])).toEqual([
      ['user', 'Member', null],
      ['group', 'Readers', 'Plans'],
    ]);
    const [grant] = (await owner.call(grantsApi.list, { params: { id: folder.id } })).body.items;
    expect(grant).toBeDefined();
    const grantId = grant!.id;
    expect((await owner.call(grantsApi.update, { params: { id: folder.id, grantId }, body: { role: 'commenter' } })).body).toMatchObject({
      role: 'commenter',
      principal: { type: 'group' },
    });
    expect((await colleague.call(itemsApi.get, { params: { id: folder.id } })).body.role).toBe('commenter');
    // Expired, it holds no more.
    await test.app.ctx.db
      .updateTable('item_grants')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', grantId)
      .execute();
    expect((await colleague.call(itemsApi.get, { params: { id: folder.id } })).status).toBe(404);
    expect(
      (await owner.call(grantsApi.update, { params: { id: folder.id, grantId }, body: { expiresAt: new Date(Date.now() + 86_400_000).toISOString() } })).status,
    ).toBe(200);
    expect((await colleague.call(itemsApi.get, { params: { id: folder.id } })).body.role).toBe('commenter');
    // Out of the group: gone at once.
    await owner.call(groupsApi.removeMember, { params: { ws, groupId: group.id, userId: colleague.id } });
    expect((await colleague.call(itemsApi.get, { params: { id: folder.id } })).status).toBe(404);
    // Made a guest: a group holds only for members of the workspace.
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [colleague.id] } });
    expect((await colleague.call(itemsApi.get, { params: { id: folder.id } })).body.role).toBe('commenter');
    await owner.call(membersApi.update, { params: { ws, userId: colleague.id }, body: { role: 'guest' } });
    expect((await colleague.call(itemsApi.get, { params: { id: folder.id } })).status).toBe(404);
    // …and leaves the group, so a later promotion does not bring back what the group was given.
    expect(
      await test.app.ctx.db.selectFrom('group_members').select('user_id').where('group_id', '=', group.id).where('user_id', '=', colleague.id).execute(),
    ).toEqual([]);
    await owner.call(membersApi.update, { params: { ws, userId: colleague.id }, body: { role: 'member' } });
    expect((await colleague.call(itemsApi.get, { params: { id: folder.id } })).status).toBe(404);
    // Withdrawn: gone.
    expect((await owner.call(grantsApi.remove, { params: { id: folder.id, grantId } })).status).toBe(204);
    expect((await member.call(itemsApi.get, { params: { id: folder.id } })).status).toBe(404);
  });

  it('is withdrawn when the group is deleted', async () => {
    const { ws, people } = await team();
    const { owner, member } = people;
    const group = await groupOf(owner, ws, 'Temp');
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [member.id] } });
    const folder = await test.given.folder(owner, owner.workspace.homeId, 'Temp things');
    await owner.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'group', id: group.id }, role: 'editor' } });
    expect((await member.call(itemsApi.get, { params: { id: folder.id } })).body.role).toBe('editor');
    await owner.call(groupsApi.remove, { params: { ws, groupId: group.id } });
    expect((await member.call(itemsApi.get, { params: { id: folder.id } })).status).toBe(404);
    expect((await owner.call(grantsApi.list, { params: { id: folder.id } })).body.items).toEqual([]);
  });

  it('needs a group of the item’s workspace, and a manager of the item', async () => {
    const { ws, people } = await team();
    const { owner, member } = people;
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Team folder');
    const other = await groupOf(member, member.workspace.id, 'Mine');
    const res = await owner.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'group', id: other.id }, role: 'viewer' } });
    expect(res).toFail('invalid_input');
    expect(invalidFields(res)).toMatchObject([{ path: 'body.principal' }]);
    const group = await groupOf(owner, ws, 'Ours');
    // A member edits the shared root but does not manage it.
    expect(await member.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'group', id: group.id }, role: 'viewer' } })).toFail(
      'forbidden',
    );
    // Raw: a principal without its id, which the declaration does not allow.
    expect(await owner.raw('POST', `/items/${folder.id}/grants`, { principal: { type: 'group' }, role: 'viewer' })).toFail('invalid_input');
  });

  it('shows in Shared with me for the people in the group, naming the group, and no more once they leave it', async () => {
    const { ws, people } = await team();
    const { owner, member } = people;
    const group = await groupOf(owner, ws, 'Writers');
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [member.id] } });
    const doc = await test.given.document(owner, owner.workspace.homeId, 'Draft');
    const mine = await test.given.folder(owner, owner.workspace.homeId, 'Just for Member');
    await owner.call(grantsApi.create, { params: { id: mine.id }, body: { principal: { type: 'user', id: member.id }, role: 'viewer' } });
    await owner.call(grantsApi.create, { params: { id: doc.id }, body: { principal: { type: 'group', id: group.id }, role: 'editor' } });
    const shared = (await member.call(grantsApi.sharedWithMe, { params: { ws } })).body.items;
    expect(shared.map((x) => [x.item.name, x.role, x.group?.name ?? null])).toEqual([
      ['Draft', 'editor', 'Writers'],
      ['Just for Member', 'viewer', null],
    ]);
    expect(shared[0]).toMatchObject({ sharedBy: { id: owner.id }, item: { role: 'editor', abilities: { edit: true } } });
    // The owner is not in the group: nothing shared with them.
    expect((await owner.call(grantsApi.sharedWithMe, { params: { ws } })).body.items).toEqual([]);
    await owner.call(groupsApi.removeMember, { params: { ws, groupId: group.id, userId: member.id } });
    expect((await member.call(grantsApi.sharedWithMe, { params: { ws } })).body.items.map((x) => x.item.name)).toEqual(['Just for Member']);
  });

  it('shows an item shared with someone both themself and through groups once, with the strongest role, as its latest share, across pages', async () => {
    const { ws, people } = await team();
    const { owner, admin, member } = people;
    const writers = await groupOf(owner, ws, 'Writers');
    const readers = await groupOf(owner, ws, 'Readers');
    for (const group of [writers, readers]) await owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [member.id] } });
    const make = (name: string) => test.given.document(owner, owner.workspace.homeId, name);
    const share = (id: string, principal: TCreateGrantRequest['principal'], role: TCreateGrantRequest['role'], by = owner) =>
      by.call(grantsApi.create, { params: { id }, body: { principal, role } });
    const plan = await make('Plan');
    const notes = await make('Notes');
    // Plan: first to Writers as editor, then to Member as viewer (by the admin, made a manager of it), then to Readers as viewer.
    await share(plan.id, { type: 'user', id: admin.id }, 'manager');
    await share(plan.id, { type: 'group', id: writers.id }, 'editor');
    await share(notes.id, { type: 'user', id: member.id }, 'commenter');
    await share(plan.id, { type: 'user', id: member.id }, 'viewer', admin);
    await share(plan.id, { type: 'group', id: readers.id }, 'viewer');
    const all = (await member.call(grantsApi.sharedWithMe, { params: { ws } })).body.items;
    expect(all.map((x) => [x.item.name, x.role, x.group?.name ?? null, x.sharedBy?.id])).toEqual([
      ['Plan', 'editor', 'Readers', owner.id],
      ['Notes', 'commenter', null, owner.id],
    ]);
    expect(all[0]!.item.role).toBe('editor');
    // A page of one at a time: each item once, in the same order.
    const first = (await member.call(grantsApi.sharedWithMe, { params: { ws }, query: { limit: '1' } })).body;
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await member.call(grantsApi.sharedWithMe, { params: { ws }, query: { limit: 1, cursor: first.nextCursor! } })).body;
    expect([...first.items, ...second.items].map((x) => x.item.name)).toEqual(['Plan', 'Notes']);
    expect(second.nextCursor).toBeNull();
    // Out of the groups, what is shared with them themself remains, with its own role.
    for (const group of [writers, readers]) await owner.call(groupsApi.removeMember, { params: { ws, groupId: group.id, userId: member.id } });
    expect((await member.call(grantsApi.sharedWithMe, { params: { ws } })).body.items.map((x) => [x.item.name, x.role, x.sharedBy?.id])).toEqual([
      ['Plan', 'viewer', admin.id],
      ['Notes', 'commenter', owner.id],
    ]);
  });
});

describe("the identity provider's groups claim", () => {
  it('keeps a person in the groups it names, in the workspaces they are a member of, and only takes out those it added', async () => {
    const { ws, people } = await team();
    const { owner, member, guest } = people;
    const make = async (p: Person, w: string, name: string) => (await groupOf(p, w, name)).id;
    const engineering = await make(owner, ws, 'Engineering');
    const design = await make(owner, ws, 'Design');
    const sales = await make(owner, ws, 'Sales');
    // Added by hand to Sales: the claim never takes them out of it.
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: sales }, body: { userIds: [member.id] } });
    // A guest is in no group, whatever the claim says.
    expect(await syncIdpGroups(test.app.ctx.db, guest.id, ['Engineering'])).toEqual({ added: 0, removed: 0 });
    const placesOf = async (userId: string) =>
      (await test.app.ctx.db.selectFrom('group_members').select(['group_id', 'source']).where('user_id', '=', userId).orderBy('group_id').execute()).map(
        (r) => [r.group_id, r.source],
      );
    expect(await syncIdpGroups(test.app.ctx.db, member.id, ['engineering', 'DESIGN', 'Marketing', ' '])).toEqual({ added: 2, removed: 0 });
    expect(await placesOf(member.id)).toEqual(
      [
        [engineering, 'idp'],
        [design, 'idp'],
        [sales, 'manual'],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    // No group was made for a name the workspace does not have.
    expect((await owner.call(groupsApi.list, { params: { ws } })).body.items.map((x) => x.name)).toEqual(['Design', 'Engineering', 'Sales']);
    // Next sign-in, through the sign-in itself: Design is gone from the claim, Sales never came from it.
    const user = await test.app.ctx.db.selectFrom('users').selectAll().where('id', '=', member.id).executeTakeFirstOrThrow();
    await userForIdentity(test.app.ctx, {
      issuer: user.issuer,
      subject: user.subject,
      email: user.email,
      emailVerified: true,
      name: user.name,
      picture: undefined,
      idToken: undefined,
      refreshToken: undefined,
      groups: ['Engineering'],
    });
    expect(await placesOf(member.id)).toEqual(
      [
        [engineering, 'idp'],
        [sales, 'manual'],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    // Without the claim (not configured, or not sent), nothing changes.
    await userForIdentity(test.app.ctx, {
      issuer: user.issuer,
      subject: user.subject,
      email: user.email,
      emailVerified: true,
      name: user.name,
      picture: undefined,
      idToken: undefined,
      refreshToken: undefined,
    });
    expect(await placesOf(member.id)).toHaveLength(2);
    // An empty claim takes them out of every group it put them in.
    expect(await syncIdpGroups(test.app.ctx.db, member.id, [])).toEqual({ added: 0, removed: 1 });
    const events = await test.app.ctx.db
      .selectFrom('activity_events')
      .select(['action', 'actor_kind', 'data'])
      .where('workspace_id', '=', ws)
      .where('action', 'in', ['group.member_added', 'group.member_removed'])
      .orderBy('id')
      .execute();
    expect(events.filter((e) => (e.data as { source?: string }).source === 'idp').map((e) => [e.action, e.actor_kind])).toEqual([
      ['group.member_added', 'system'],
      ['group.member_added', 'system'],
      ['group.member_removed', 'system'],
      ['group.member_removed', 'system'],
    ]);
    // The members list shows where each place came from.
    await syncIdpGroups(test.app.ctx.db, member.id, ['Engineering']);
    expect((await owner.call(groupsApi.members, { params: { ws, groupId: engineering } })).body.items).toEqual([
      expect.objectContaining({ userId: member.id, source: 'idp' }),
    ]);
  });
});
