import { grantsApi, groupsApi, itemsApi, membersApi } from '@cabinet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given, type Person } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { userForIdentity } from '../auth/index.ts';
import { syncIdpGroups } from './index.ts';

let t: TestApp;
let g: ReturnType<typeof given>;

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'error' });
  g = given(t.ctx, t.url);
});
afterAll(() => t.close());

type Role = 'owner' | 'admin' | 'member' | 'guest' | 'outsider';

/** A workspace with one person of each role (the guest holds a share, so is in it), and someone outside. */
async function team() {
  const owner = await g.person('Owner');
  const admin = await g.person('Admin');
  const member = await g.person('Member');
  const guest = await g.person('Guest');
  const outsider = await g.person('Outsider');
  const ws = owner.workspace.id;
  await g.membership(admin, ws, 'admin');
  await g.membership(member, ws, 'member');
  await g.membership(guest, ws, 'guest');
  await g.grant((await g.folder(owner, owner.workspace.rootId, `For the guest ${Math.random()}`)).id, { user: guest }, 'viewer');
  const people: Record<Role, Person> = { owner, admin, member, guest, outsider };
  return { ws, people };
}

const groupsOf = (_: Person, ws: string) => `/workspaces/${ws}/groups`;

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
      const base = `/workspaces/${ws}/groups`;
      const cells: [string, 'read' | 'manage', number, () => ReturnType<Person['call']>][] = [
        ['list', 'read', 200, () => caller.raw('GET', base)],
        ['list members', 'read', 200, () => caller.raw('GET', `${base}/${group.id}/members`)],
        ['create', 'manage', 201, () => caller.raw('POST', base, { name: `Made by ${role}` })],
        ['rename', 'manage', 200, () => caller.raw('PATCH', `${base}/${group.id}`, { name: `Design by ${role}` })],
        ['add members', 'manage', 200, () => caller.raw('POST', `${base}/${group.id}/members`, { userIds: [people.member.id] })],
        ['remove a member', 'manage', 204, () => caller.raw('DELETE', `${base}/${group.id}/members/${people.admin.id}`)],
        ['delete', 'manage', 204, () => caller.raw('DELETE', `${base}/${group.id}`)],
      ];
      for (const [name, kind, ok, call] of cells) {
        const res = await call();
        const want = expected(role, kind, ok);
        expect(res.status, `${role} ${name}: ${JSON.stringify(res.body)}`).toBe(want);
        if (want === 403) expect(res.error?.code).toBe('forbidden');
        if (want === 404) expect(res.error?.code).toBe('not_found');
      }
      // The owner sees what the calls that succeeded did.
      const after = (await people.owner.raw('GET', base)).body.items.map((x: { name: string }) => x.name);
      if (role === 'owner' || role === 'admin') expect(after).toEqual([`Made by ${role}`]);
      else expect(after).toEqual(['Design']);
    });
  }
});

describe('groups', () => {
  it('are listed by name with member counts, made, renamed and deleted, each recorded', async () => {
    const { ws, people } = await team();
    const { owner, admin, member } = people;
    const made = await owner.raw('POST', groupsOf(owner, ws), { name: '  Sales  ' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Sales', workspaceId: ws, memberCount: 0 });
    const design = (await admin.raw('POST', groupsOf(owner, ws), { name: 'design' })).body;
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: design.id }, body: { userIds: [member.id, admin.id, member.id] } });
    const list = (await member.raw('GET', groupsOf(owner, ws))).body;
    expect(list.items.map((x: { name: string; memberCount: number }) => [x.name, x.memberCount])).toEqual([
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
    const events = await t.ctx.db
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
    const create = (body: unknown) => owner.raw('POST', groupsOf(owner, ws), body);
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 'Bad\u0007name' }, { name: 42 }]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_input', details: { fields: [expect.objectContaining({ path: 'body.name' })] } });
    }
    expect((await create({ name: 'x'.repeat(100) })).status).toBe(201);
    const sales = (await create({ name: 'Sales' })).body;
    const taken = await create({ name: 'SALES' });
    expect(taken.body.error).toMatchObject({
      code: 'invalid_input',
      details: { fields: [{ path: 'body.name', message: expect.stringContaining('already exists') }] },
    });
    const other = (await create({ name: 'Support' })).body;
    const renamed = await owner.call(groupsApi.rename, { params: { ws, groupId: other.id }, body: { name: 'sales' } });
    expect(renamed.body.error).toMatchObject({ code: 'invalid_input', details: { fields: [{ path: 'body.name' }] } });
    expect(await owner.call(groupsApi.rename, { params: { ws, groupId: sales.id }, body: { name: '' } })).toFail('invalid_input');
    // Another workspace may use the same name.
    const mine = people.member;
    expect((await mine.raw('POST', groupsOf(mine, mine.workspace.id), { name: 'Sales' })).status).toBe(201);
    expect((await owner.raw('GET', `/workspaces/${ws}/groups/not-an-id`)).status).toBe(404);
  });

  it('hold members of the workspace, not guests or strangers; adding twice changes nothing; removing someone not in it is not found', async () => {
    const { ws, people } = await team();
    const { owner, member, guest, outsider } = people;
    const group = (await owner.raw('POST', groupsOf(owner, ws), { name: 'Ops' })).body;
    const add = (userIds: unknown) => owner.raw('POST', `/workspaces/${ws}/groups/${group.id}/members`, { userIds });
    const added = await add([member.id]);
    expect(added.status).toBe(200);
    expect(added.body.items).toEqual([expect.objectContaining({ userId: member.id, name: 'Member', role: 'member', source: 'manual' })]);
    expect((await add([member.id])).body.items).toHaveLength(1);
    for (const [ids, path] of [
      [[guest.id], 'body.userIds.0'],
      [[owner.id, outsider.id], 'body.userIds.1'],
    ] as const) {
      const res = await add(ids);
      expect(res.body.error).toMatchObject({ code: 'invalid_input', details: { fields: [{ path }] } });
    }
    expect(await add([])).toFail('invalid_input');
    expect(await add(['nope'])).toFail('invalid_input');
    // Nothing of a refused batch was added.
    expect((await owner.call(groupsApi.members, { params: { ws, groupId: group.id } })).body.items.map((m: { userId: string }) => m.userId)).toEqual([
      member.id,
    ]);
    expect((await owner.call(groupsApi.removeMember, { params: { ws, groupId: group.id, userId: owner.id } })).status).toBe(404);
    expect((await owner.call(groupsApi.removeMember, { params: { ws, groupId: group.id, userId: member.id } })).status).toBe(204);
    expect((await owner.call(groupsApi.members, { params: { ws, groupId: group.id } })).body.items).toEqual([]);
  });

  it('lose someone who leaves the workspace, recorded', async () => {
    const { ws, people } = await team();
    const { owner, member } = people;
    const a = (await owner.raw('POST', groupsOf(owner, ws), { name: 'A' })).body;
    const b = (await owner.raw('POST', groupsOf(owner, ws), { name: 'B' })).body;
    for (const group of [a, b]) await owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [member.id, people.admin.id] } });
    expect((await owner.call(membersApi.remove, { params: { ws, userId: member.id }, query: { filesTo: owner.id } })).status).toBe(204);
    const counts = (await owner.raw('GET', groupsOf(owner, ws))).body.items.map((x: { memberCount: number }) => x.memberCount);
    expect(counts).toEqual([1, 1]);
    const removed = await t.ctx.db
      .selectFrom('activity_events')
      .select('data')
      .where('workspace_id', '=', ws)
      .where('action', '=', 'group.member_removed')
      .execute();
    expect(removed.map((r) => (r.data as { groupId: string; userId: string }).groupId).sort()).toEqual([a.id, b.id].sort());
    expect(removed.every((r) => (r.data as { userId: string }).userId === member.id)).toBe(true);
    // The database holds to it too: no one is in a group through a membership of another workspace, nor without one.
    const elsewhere = await g.person('Elsewhere');
    const row = (workspaceId: string, userId: string) => ({ group_id: a.id, workspace_id: workspaceId, user_id: userId });
    await expect(t.ctx.db.insertInto('group_members').values(row(elsewhere.workspace.id, elsewhere.id)).execute()).rejects.toThrow(/foreign key/);
    await expect(t.ctx.db.insertInto('group_members').values(row(ws, member.id)).execute()).rejects.toThrow(/foreign key/);
  });
});

describe('sharing with a group', () => {
  it('gives its people the role on the item and below, the strongest grant winning, while they are in it and the grant holds', async () => {
    const { ws, people } = await team();
    const { owner, admin, member } = people;
    const colleague = await g.person('Colleague');
    await g.membership(colleague, ws, 'member');
    const group = (await owner.raw('POST', groupsOf(owner, ws), { name: 'Readers' })).body;
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [member.id, colleague.id] } });
    // Owner's My files: nobody else sees it unless it is shared.
    const folder = await g.folder(owner, owner.workspace.homeId, 'Plans');
    const inside = await g.folder(owner, folder.id, 'Inside');
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
    expect(
      list.map((x: { principal: { type: string; name: string }; inheritedFrom: { name: string } | null }) => [
        x.principal.type,
        x.principal.name,
        x.inheritedFrom?.name ?? null,
      ]),
    ).toEqual([
      ['user', 'Member', null],
      ['group', 'Readers', 'Plans'],
    ]);
    const grantId = (await owner.raw('GET', `/items/${folder.id}/grants`)).body.items[0].id as string;
    expect((await owner.call(grantsApi.update, { params: { id: folder.id, grantId }, body: { role: 'commenter' } })).body).toMatchObject({
      role: 'commenter',
      principal: { type: 'group' },
    });
    expect((await colleague.call(itemsApi.get, { params: { id: folder.id } })).body.role).toBe('commenter');
    // Expired, it holds no more.
    await t.ctx.db
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
    expect(await t.ctx.db.selectFrom('group_members').select('user_id').where('group_id', '=', group.id).where('user_id', '=', colleague.id).execute()).toEqual(
      [],
    );
    await owner.call(membersApi.update, { params: { ws, userId: colleague.id }, body: { role: 'member' } });
    expect((await colleague.call(itemsApi.get, { params: { id: folder.id } })).status).toBe(404);
    // Withdrawn: gone.
    expect((await owner.call(grantsApi.remove, { params: { id: folder.id, grantId } })).status).toBe(204);
    expect((await member.call(itemsApi.get, { params: { id: folder.id } })).status).toBe(404);
  });

  it('is withdrawn when the group is deleted', async () => {
    const { ws, people } = await team();
    const { owner, member } = people;
    const group = (await owner.raw('POST', groupsOf(owner, ws), { name: 'Temp' })).body;
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [member.id] } });
    const folder = await g.folder(owner, owner.workspace.homeId, 'Temp things');
    await owner.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'group', id: group.id }, role: 'editor' } });
    expect((await member.call(itemsApi.get, { params: { id: folder.id } })).body.role).toBe('editor');
    await owner.call(groupsApi.remove, { params: { ws, groupId: group.id } });
    expect((await member.call(itemsApi.get, { params: { id: folder.id } })).status).toBe(404);
    expect((await owner.call(grantsApi.list, { params: { id: folder.id } })).body.items).toEqual([]);
  });

  it('needs a group of the item’s workspace, and a manager of the item', async () => {
    const { ws, people } = await team();
    const { owner, member } = people;
    const folder = await g.folder(owner, owner.workspace.rootId, 'Team folder');
    const other = (await member.raw('POST', groupsOf(member, member.workspace.id), { name: 'Mine' })).body;
    const res = await owner.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'group', id: other.id }, role: 'viewer' } });
    expect(res.body.error).toMatchObject({ code: 'invalid_input', details: { fields: [{ path: 'body.principal' }] } });
    const group = (await owner.raw('POST', groupsOf(owner, ws), { name: 'Ours' })).body;
    // A member edits the shared root but does not manage it.
    expect(
      (await member.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'group', id: group.id }, role: 'viewer' } })).error?.code,
    ).toBe('forbidden');
    expect(await owner.raw('POST', `/items/${folder.id}/grants`, { principal: { type: 'group' }, role: 'viewer' })).toFail('invalid_input');
  });

  it('shows in Shared with me for the people in the group, naming the group, and no more once they leave it', async () => {
    const { ws, people } = await team();
    const { owner, member } = people;
    const group = (await owner.raw('POST', groupsOf(owner, ws), { name: 'Writers' })).body;
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [member.id] } });
    const doc = (await owner.call(itemsApi.create, { params: { ws }, body: { kind: 'document', name: 'Draft', parentId: owner.workspace.homeId } })).body;
    const mine = await g.folder(owner, owner.workspace.homeId, 'Just for Member');
    await owner.call(grantsApi.create, { params: { id: mine.id }, body: { principal: { type: 'user', id: member.id }, role: 'viewer' } });
    await owner.call(grantsApi.create, { params: { id: doc.id }, body: { principal: { type: 'group', id: group.id }, role: 'editor' } });
    const shared = (await member.call(grantsApi.sharedWithMe, { params: { ws } })).body.items;
    expect(shared.map((x: { item: { name: string }; role: string; group: { name: string } | null }) => [x.item.name, x.role, x.group?.name ?? null])).toEqual([
      ['Draft', 'editor', 'Writers'],
      ['Just for Member', 'viewer', null],
    ]);
    expect(shared[0]).toMatchObject({ sharedBy: { id: owner.id }, item: { role: 'editor', abilities: { edit: true } } });
    // The owner is not in the group: nothing shared with them.
    expect((await owner.call(grantsApi.sharedWithMe, { params: { ws } })).body.items).toEqual([]);
    await owner.call(groupsApi.removeMember, { params: { ws, groupId: group.id, userId: member.id } });
    expect((await member.call(grantsApi.sharedWithMe, { params: { ws } })).body.items.map((x: { item: { name: string } }) => x.item.name)).toEqual([
      'Just for Member',
    ]);
  });

  it('shows an item shared with someone both themself and through groups once, with the strongest role, as its latest share, across pages', async () => {
    const { ws, people } = await team();
    const { owner, admin, member } = people;
    const writers = (await owner.raw('POST', groupsOf(owner, ws), { name: 'Writers' })).body;
    const readers = (await owner.raw('POST', groupsOf(owner, ws), { name: 'Readers' })).body;
    for (const group of [writers, readers]) await owner.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [member.id] } });
    const make = async (name: string) =>
      (await owner.call(itemsApi.create, { params: { ws }, body: { kind: 'document', name, parentId: owner.workspace.homeId } })).body as { id: string };
    const share = (id: string, principal: object, role: string, by = owner) => by.raw('POST', `/items/${id}/grants`, { principal, role });
    const plan = await make('Plan');
    const notes = await make('Notes');
    // Plan: first to Writers as editor, then to Member as viewer (by the admin, made a manager of it), then to Readers as viewer.
    await share(plan.id, { type: 'user', id: admin.id }, 'manager');
    await share(plan.id, { type: 'group', id: writers.id }, 'editor');
    await share(notes.id, { type: 'user', id: member.id }, 'commenter');
    await share(plan.id, { type: 'user', id: member.id }, 'viewer', admin);
    await share(plan.id, { type: 'group', id: readers.id }, 'viewer');
    type Shared = { item: { name: string; role: string }; role: string; group: { name: string } | null; sharedBy: { id: string } | null };
    const all = (await member.call(grantsApi.sharedWithMe, { params: { ws } })).body.items as Shared[];
    expect(all.map((x) => [x.item.name, x.role, x.group?.name ?? null, x.sharedBy?.id])).toEqual([
      ['Plan', 'editor', 'Readers', owner.id],
      ['Notes', 'commenter', null, owner.id],
    ]);
    expect(all[0]!.item.role).toBe('editor');
    // A page of one at a time: each item once, in the same order.
    const first = (await member.call(grantsApi.sharedWithMe, { params: { ws }, query: { limit: '1' } })).body;
    const second = (await member.raw('GET', `/workspaces/${ws}/shared?limit=1&cursor=${first.nextCursor}`)).body;
    expect([...first.items, ...second.items].map((x: Shared) => x.item.name)).toEqual(['Plan', 'Notes']);
    expect(second.nextCursor).toBeNull();
    // Out of the groups, what is shared with them themself remains, with its own role.
    for (const group of [writers, readers]) await owner.call(groupsApi.removeMember, { params: { ws, groupId: group.id, userId: member.id } });
    expect(((await member.call(grantsApi.sharedWithMe, { params: { ws } })).body.items as Shared[]).map((x) => [x.item.name, x.role, x.sharedBy?.id])).toEqual([
      ['Plan', 'viewer', admin.id],
      ['Notes', 'commenter', owner.id],
    ]);
  });
});

describe("the identity provider's groups claim", () => {
  it('keeps a person in the groups it names, in the workspaces they are a member of, and only takes out those it added', async () => {
    const { ws, people } = await team();
    const { owner, member, guest } = people;
    const make = async (p: Person, w: string, name: string) => (await p.call(groupsApi.create, { params: { ws: w }, body: { name } })).body.id as string;
    const engineering = await make(owner, ws, 'Engineering');
    const design = await make(owner, ws, 'Design');
    const sales = await make(owner, ws, 'Sales');
    // Added by hand to Sales: the claim never takes them out of it.
    await owner.call(groupsApi.addMembers, { params: { ws, groupId: sales }, body: { userIds: [member.id] } });
    // A guest is in no group, whatever the claim says.
    expect(await syncIdpGroups(t.ctx.db, guest.id, ['Engineering'])).toEqual({ added: 0, removed: 0 });
    const placesOf = async (userId: string) =>
      (await t.ctx.db.selectFrom('group_members').select(['group_id', 'source']).where('user_id', '=', userId).orderBy('group_id').execute()).map((r) => [
        r.group_id,
        r.source,
      ]);
    expect(await syncIdpGroups(t.ctx.db, member.id, ['engineering', 'DESIGN', 'Marketing', ' '])).toEqual({ added: 2, removed: 0 });
    expect(await placesOf(member.id)).toEqual(
      [
        [engineering, 'idp'],
        [design, 'idp'],
        [sales, 'manual'],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    // No group was made for a name the workspace does not have.
    expect((await owner.call(groupsApi.list, { params: { ws } })).body.items.map((x: { name: string }) => x.name)).toEqual(['Design', 'Engineering', 'Sales']);
    // Next sign-in, through the sign-in itself: Design is gone from the claim, Sales never came from it.
    const user = await t.ctx.db.selectFrom('users').selectAll().where('id', '=', member.id).executeTakeFirstOrThrow();
    await userForIdentity(t.ctx, {
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
    await userForIdentity(t.ctx, {
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
    expect(await syncIdpGroups(t.ctx.db, member.id, [])).toEqual({ added: 0, removed: 1 });
    const events = await t.ctx.db
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
    await syncIdpGroups(t.ctx.db, member.id, ['Engineering']);
    expect((await owner.call(groupsApi.members, { params: { ws, groupId: engineering } })).body.items).toEqual([
      expect.objectContaining({ userId: member.id, source: 'idp' }),
    ]);
  });
});
