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
