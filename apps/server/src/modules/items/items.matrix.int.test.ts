import { ERROR_STATUS, type ErrorCode } from '@cabinet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given, type Person } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * Every item endpoint × workspace role × relation to the item, against PRODUCT.md §6 written
 * out here independently of the policy module: invisible → 404, visible but too weak → 403.
 */
type Role = 'owner' | 'admin' | 'member' | 'guest' | 'outsider';
type Relation = 'own' | 'colleague-private' | 'shared' | 'other-workspace';
type Need = 'view' | 'edit' | 'manage';
const RANK = { none: 0, view: 1, edit: 3, manage: 4 } as const;

/** The role each caller has on an item, by the product's rules. */
function expectedRank(role: Role, relation: Relation): number {
  // "own" is the caller's own My files; an outsider's is in their own workspace.
  if (relation === 'own') return role === 'guest' ? RANK.view : RANK.manage;
  if (relation === 'other-workspace' || relation === 'colleague-private' || role === 'outsider') return RANK.none;
  return role === 'owner' || role === 'admin' ? RANK.manage : role === 'member' ? RANK.edit : RANK.none;
}

interface Target {
  id: string;
  /** A folder in the same tree to move into. */
  sibling: string;
  workspaceId: string;
  trashed: boolean;
}

interface Endpoint {
  name: string;
  need: Need;
  trashed?: boolean;
  ok: number;
  call(p: Person, t: Target): ReturnType<Person['call']>;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'GET /items/:id', need: 'view', ok: 200, call: (p, t) => p.call('GET', `/items/${t.id}`) },
  { name: 'GET /items/:id/ancestors', need: 'view', ok: 200, call: (p, t) => p.call('GET', `/items/${t.id}/ancestors`) },
  { name: 'GET children', need: 'view', ok: 200, call: (p, t) => p.call('GET', `/workspaces/${t.workspaceId}/items/${t.id}/children`) },
  { name: 'POST create inside', need: 'edit', ok: 201, call: (p, t) => p.call('POST', `/workspaces/${t.workspaceId}/items`, { kind: 'folder', name: 'new', parentId: t.id }) },
  { name: 'PATCH rename', need: 'edit', ok: 200, call: (p, t) => p.call('PATCH', `/items/${t.id}`, { name: `renamed-${Math.random()}` }) },
  { name: 'PATCH move', need: 'edit', ok: 200, call: (p, t) => p.call('PATCH', `/items/${t.id}`, { parentId: t.sibling }) },
  { name: 'POST trash', need: 'edit', ok: 200, call: (p, t) => p.call('POST', `/items/${t.id}/trash`) },
  { name: 'POST restore', need: 'edit', trashed: true, ok: 200, call: (p, t) => p.call('POST', `/items/${t.id}/restore`) },
  { name: 'DELETE forever', need: 'manage', trashed: true, ok: 204, call: (p, t) => p.call('DELETE', `/items/${t.id}`) },
  // Copying into the sibling needs edit there; the sibling sits in the same tree, so it is the same role.
  { name: 'POST copy', need: 'edit', ok: 201, call: (p, t) => p.call('POST', `/items/${t.id}/copy`, { parentId: t.sibling }) },
  { name: 'PUT star', need: 'view', ok: 204, call: (p, t) => p.call('PUT', `/items/${t.id}/star`) },
  { name: 'DELETE star', need: 'view', ok: 204, call: (p, t) => p.call('DELETE', `/items/${t.id}/star`) },
  { name: 'GET versions', need: 'view', ok: 200, call: (p, t) => p.call('GET', `/items/${t.id}/versions`) },
  { name: 'GET content (zip)', need: 'view', ok: 200, call: (p, t) => p.call('GET', `/items/${t.id}/content`) },
  { name: 'GET zip of ids', need: 'view', ok: 200, call: (p, t) => p.call('GET', `/workspaces/${t.workspaceId}/zip?ids=${t.id}`) },
  { name: 'GET grants', need: 'manage', ok: 200, call: (p, t) => p.call('GET', `/items/${t.id}/grants`) },
  { name: 'POST import a document into', need: 'edit', ok: 201, call: (p, t) => p.call('POST', `/workspaces/${t.workspaceId}/documents/import?parentId=${t.id}&fileName=notes-${Math.random()}.md`, '# Notes') },
  { name: 'POST upload into', need: 'edit', ok: 201, call: (p, t) => p.call('POST', `/workspaces/${t.workspaceId}/uploads`, { parentId: t.id, name: 'up.bin', size: 1 }) },
  // A batch answers 200 and each entry for itself: the entry's error stands for the status its own call would have had.
  {
    name: 'POST upload batch into',
    need: 'edit',
    ok: 201,
    call: async (p, t) => {
      const res = await p.call('POST', `/workspaces/${t.workspaceId}/uploads/batch`, { uploads: [{ parentId: t.id, name: 'up.bin', size: 1 }] });
      const entry = res.body.results?.[0] as { error?: { code: ErrorCode } } | undefined;
      return { ...res, status: res.status !== 200 || !entry ? res.status : entry.error ? ERROR_STATUS[entry.error.code] : 201 };
    },
  },
];

let t: TestApp;
let people: Record<Role, Person>;
let homes: Record<Exclude<Role, 'outsider'>, string>;
let colleague: { person: Person; home: string };
let workspace: { id: string; rootId: string };
let elsewhere: Person;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.ctx, t.url);
  const owner = await g.person('Owner');
  workspace = owner.workspace;
  const admin = await g.person('Admin');
  const member = await g.person('Member');
  const guest = await g.person('Guest');
  const colleaguePerson = await g.person('Colleague');
  people = { owner, admin, member, guest, outsider: await g.person('Outsider') };
  homes = {
    owner: owner.workspace.homeId,
    admin: await g.membership(admin, workspace.id, 'admin'),
    member: await g.membership(member, workspace.id, 'member'),
    guest: await g.membership(guest, workspace.id, 'guest'),
  };
  colleague = { person: colleaguePerson, home: await g.membership(colleaguePerson, workspace.id, 'member') };
  // A guest is in the workspace only while something in it is shared with them.
  await g.grant((await g.folder(owner, workspace.rootId, 'For the guest')).id, { user: guest }, 'viewer');
  elsewhere = await g.person('Elsewhere');
});
afterAll(() => t.close());

/** A fresh folder (and a sibling to move into) for one cell, made by whoever may make it. */
async function target(role: Role, relation: Relation, trashed: boolean): Promise<Target> {
  const make = async (maker: Person, ws: string, parent: string) => {
    const folder = (await maker.call('POST', `/workspaces/${ws}/items`, { kind: 'folder', name: `t-${Math.random()}`, parentId: parent })).body;
    const sibling = (await maker.call('POST', `/workspaces/${ws}/items`, { kind: 'folder', name: `s-${Math.random()}`, parentId: parent })).body;
    if (trashed) await maker.call('POST', `/items/${folder.id}/trash`);
    return { id: folder.id as string, sibling: sibling.id as string, workspaceId: ws, trashed };
  };
  if (relation === 'other-workspace') return make(elsewhere, elsewhere.workspace.id, elsewhere.workspace.rootId);
  if (relation === 'colleague-private') return make(colleague.person, workspace.id, colleague.home);
  if (relation === 'shared') return make(people.owner, workspace.id, workspace.rootId);
  if (role === 'outsider') return make(people.outsider, people.outsider.workspace.id, people.outsider.workspace.homeId);
  if (role === 'guest') {
    return { id: homes.guest, sibling: homes.guest, workspaceId: workspace.id, trashed: false };
  }
  return make(people[role], workspace.id, homes[role]);
}

describe.each(['owner', 'admin', 'member', 'guest', 'outsider'] as Role[])('as %s', (role) => {
  for (const relation of ['own', 'colleague-private', 'shared', 'other-workspace'] as Relation[]) {
    for (const endpoint of ENDPOINTS) {
      // Nothing can be put in a guest's own root, so a guest's "own" cells are checked on that root itself.
      it(`${endpoint.name} on ${relation}`, async () => {
        const cell = await target(role, relation, !!endpoint.trashed && !(role === 'guest' && relation === 'own'));
        const res = await endpoint.call(people[role], cell);
        const rank = expectedRank(role, relation);
        const guestRoot = role === 'guest' && relation === 'own';
        const expected =
          rank === RANK.none ? 404
          : guestRoot && endpoint.trashed ? 404
          : rank < RANK[endpoint.need] ? 403
          : endpoint.ok;
        expect(res.status, `${role} ${endpoint.name} on ${relation}: ${JSON.stringify(res.body)}`).toBe(expected);
      });
    }
  }
});

/**
 * Moves across trees: every workspace role × where the item is × where it goes, against ADR 0017
 * written out here: someone who manages the item may move it anywhere they may edit; anyone else
 * only within the same root, and nowhere their role on it would be stronger.
 */
type Place = 'shared' | 'shared-editor-grant' | 'own' | 'colleague' | 'colleague-editor-grant' | 'colleague-manager-grant' | 'colleague-item-editor-grant' | 'within';
const SOURCES: Exclude<Place, 'within'>[] = ['shared', 'shared-editor-grant', 'own', 'colleague', 'colleague-editor-grant', 'colleague-manager-grant', 'colleague-item-editor-grant'];
const TARGETS: Place[] = ['shared', 'shared-editor-grant', 'own', 'colleague', 'colleague-editor-grant', 'colleague-manager-grant', 'within'];
type Member = Exclude<Role, 'outsider'>;

function rankAt(role: Member, place: Exclude<Place, 'within'>): number {
  const team = role === 'owner' || role === 'admin' ? RANK.manage : role === 'member' ? RANK.edit : RANK.none;
  switch (place) {
    case 'shared': return team;
    case 'shared-editor-grant': return Math.max(team, RANK.edit);
    case 'own': return role === 'guest' ? RANK.view : RANK.manage;
    case 'colleague': return RANK.none;
    case 'colleague-editor-grant': case 'colleague-item-editor-grant': return RANK.edit;
    case 'colleague-manager-grant': return RANK.manage;
  }
}
const rootOf = (place: Place) => (place.startsWith('shared') ? 'shared' : place.startsWith('colleague') ? 'colleague' : 'own');

function expectedMove(role: Member, source: Exclude<Place, 'within'>, target: Place): number {
  const from = rankAt(role, source);
  if (from === RANK.none) return 404;
  if (from < RANK.edit) return 403;
  // "within" is a folder beside the item: the caller has there what they have on the source folder (a grant on the item alone reaches only the item).
  const to = rankAt(role, target !== 'within' ? target : source === 'colleague-item-editor-grant' ? 'colleague' : source);
  if (to === RANK.none) return 404;
  if (to < RANK.edit) return 403;
  const sameRoot = target === 'within' || rootOf(source) === rootOf(target);
  return from === RANK.manage || (sameRoot && to <= from) ? 200 : 403;
}

describe.each(['owner', 'admin', 'member', 'guest'] as Member[])('moving across trees as %s', (role) => {
  const folderIn = async (maker: Person, parentId: string) => (await maker.call('POST', `/workspaces/${workspace.id}/items`, { kind: 'folder', name: `m-${Math.random()}`, parentId })).body.id as string;
  /** A folder in a place, granted to the caller as the place says; and who manages that tree. */
  async function place(p: Exclude<Place, 'within'>, grantOnFolder = true): Promise<{ folder: string; manager: Person }> {
    const caller = people[role];
    if (p === 'own') return { folder: role === 'guest' ? homes.guest : await folderIn(caller, homes[role]), manager: caller };
    const [maker, parent] = p.startsWith('shared') ? [people.owner, workspace.rootId] : [colleague.person, colleague.home];
    const folder = await folderIn(maker, parent);
    const grant = p.endsWith('editor-grant') ? 'editor' : p.endsWith('manager-grant') ? 'manager' : null;
    if (grant && grantOnFolder) await given(t.ctx, t.url).grant(folder, { user: caller }, grant);
    return { folder, manager: maker };
  }

  for (const source of SOURCES) {
    if (role === 'guest' && source === 'own') continue; // nothing can be put in a guest's own root
    for (const target of TARGETS) {
      it(`from ${source} to ${target}`, async () => {
        const caller = people[role];
        const from = await place(source, source !== 'colleague-item-editor-grant');
        const item = await folderIn(from.manager, from.folder);
        if (source === 'colleague-item-editor-grant') await given(t.ctx, t.url).grant(item, { user: caller }, 'editor');
        const to = target === 'within' ? await folderIn(from.manager, from.folder) : (await place(target)).folder;
        const res = await caller.call('PATCH', `/items/${item}`, { parentId: to });
        const expected = expectedMove(role, source, target);
        expect(res.status, `${role} moving from ${source} to ${target}: ${JSON.stringify(res.body)}`).toBe(expected);
        if (expected === 403) expect(res.body.error.code).toBe('forbidden');
        // Whoever managed the item still has it where it is (refused), or manages it still (moved by a non-manager).
        const seen = await from.manager.call('GET', `/items/${item}`);
        if (expected !== 200) expect(seen.body).toMatchObject({ parentId: from.folder, role: 'manager' });
        else if (rankAt(role, source) < RANK.manage) expect(seen.body).toMatchObject({ parentId: to, role: 'manager' });
      });
    }
  }
});
