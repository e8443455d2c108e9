import {
  ERROR_STATUS,
  commentsApi,
  documentsApi,
  filesApi,
  grantsApi,
  groupsApi,
  itemsApi,
  linksApi,
  uploadsApi,
  versionsApi,
  type ErrorCode,
  type TItemAbilities,
} from '@cabinet/contracts';
import { documentText } from '@cabinet/doc-schema/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addParagraph, collabClients, until } from './collab-client.ts';
import { given, type Person } from './given.ts';
import type { Answer } from './route-call.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { insertComment } from '../modules/comments/comments.repo.ts';
import { recordRevision } from '../modules/documents/documents.service.ts';

// The access matrices of items (apps/server/src/modules/items/matrix/*.int.test.ts, one file per part so that they run side
// by side): each file builds the same world (a workspace with an owner, admin, member, guest and colleague; an outsider
// with a workspace of their own) and checks its part of the product's rules.

/**
 * Every item endpoint × workspace role × relation to the item, against PRODUCT.md §6 written
 * out here independently of the policy module: invisible → 404, visible but too weak → 403. And
 * in every cell the item's `abilities`, as the API reports them to the caller, say what the call
 * does: the ability is true exactly when the call succeeds.
 */
export type Role = 'owner' | 'admin' | 'member' | 'guest' | 'outsider';
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
  /** Changes where the item is or whether it is in the trash: it gets an item of its own, where other calls share one per cell's row. */
  fresh?: boolean;
  ok: number;
  /** The abilities that let the call succeed: the item's, and the sibling folder's when the call puts something there. */
  allowed(item: TItemAbilities, sibling: TItemAbilities | null): boolean;
  call(p: Person, t: Target): Promise<Answer<unknown>>;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'GET /items/:id', need: 'view', ok: 200, allowed: (a) => a.view, call: (p, t) => p.call(itemsApi.get, { params: { id: t.id } }) },
  { name: 'GET /items/:id/ancestors', need: 'view', ok: 200, allowed: (a) => a.view, call: (p, t) => p.call(itemsApi.ancestors, { params: { id: t.id } }) },
  {
    name: 'GET children',
    need: 'view',
    ok: 200,
    allowed: (a) => a.view,
    call: (p, t) => p.call(itemsApi.children, { params: { ws: t.workspaceId, id: t.id } }),
  },
  {
    name: 'POST create inside',
    need: 'edit',
    ok: 201,
    allowed: (a) => a.createInside,
    call: (p, t) => p.call(itemsApi.create, { params: { ws: t.workspaceId }, body: { kind: 'folder', name: 'new', parentId: t.id } }),
  },
  {
    name: 'PATCH rename',
    need: 'edit',
    ok: 200,
    allowed: (a) => a.edit,
    call: (p, t) => p.call(itemsApi.update, { params: { id: t.id }, body: { name: `renamed-${Math.random()}` } }),
  },
  {
    name: 'PATCH move',
    need: 'edit',
    fresh: true,
    ok: 200,
    allowed: (a, s) => a.edit && !!s?.createInside,
    call: (p, t) => p.call(itemsApi.update, { params: { id: t.id }, body: { parentId: t.sibling } }),
  },
  { name: 'POST trash', need: 'edit', fresh: true, ok: 200, allowed: (a) => a.trash, call: (p, t) => p.call(itemsApi.trash, { params: { id: t.id } }) },
  { name: 'POST restore', need: 'edit', trashed: true, ok: 200, allowed: (a) => a.restore, call: (p, t) => p.call(itemsApi.restore, { params: { id: t.id } }) },
  {
    name: 'DELETE forever',
    need: 'manage',
    trashed: true,
    ok: 204,
    allowed: (a) => a.deleteForever,
    call: (p, t) => p.call(itemsApi.purge, { params: { id: t.id } }),
  },
  // Copying into the sibling needs edit there; the sibling sits in the same tree, so it is the same role.
  {
    name: 'POST copy',
    need: 'edit',
    ok: 201,
    allowed: (a, s) => a.view && !!s?.createInside,
    call: (p, t) => p.call(itemsApi.copy, { params: { id: t.id }, body: { parentId: t.sibling } }),
  },
  { name: 'PUT star', need: 'view', ok: 204, allowed: (a) => a.view, call: (p, t) => p.call(itemsApi.star, { params: { id: t.id } }) },
  { name: 'DELETE star', need: 'view', ok: 204, allowed: (a) => a.view, call: (p, t) => p.call(itemsApi.unstar, { params: { id: t.id } }) },
  { name: 'GET versions', need: 'view', ok: 200, allowed: (a) => a.view, call: (p, t) => p.call(versionsApi.list, { params: { id: t.id } }) },
  { name: 'GET content (zip)', need: 'view', ok: 200, allowed: (a) => a.download, call: (p, t) => p.call(filesApi.content, { params: { id: t.id } }) },
  {
    name: 'GET zip of ids',
    need: 'view',
    ok: 200,
    allowed: (a) => a.download,
    call: (p, t) => p.call(filesApi.zip, { params: { ws: t.workspaceId }, query: { ids: t.id } }),
  },
  { name: 'GET grants', need: 'manage', ok: 200, allowed: (a) => a.share, call: (p, t) => p.call(grantsApi.list, { params: { id: t.id } }) },
  { name: 'GET links', need: 'manage', ok: 200, allowed: (a) => a.share, call: (p, t) => p.call(linksApi.list, { params: { id: t.id } }) },
  {
    name: 'POST a link',
    need: 'manage',
    ok: 201,
    allowed: (a) => a.share,
    call: (p, t) => p.call(linksApi.create, { params: { id: t.id }, body: { kind: 'view', password: 'matrix password' } }),
  },
  {
    name: 'POST import a document into',
    need: 'edit',
    ok: 201,
    allowed: (a) => a.createInside,
    call: (p, t) =>
      p.call(documentsApi.import, {
        params: { ws: t.workspaceId },
        query: { parentId: t.id, fileName: `notes-${Math.random()}.md` },
        body: new Blob(['# Notes'], { type: 'text/markdown' }),
      }),
  },
  {
    name: 'POST upload into',
    need: 'edit',
    ok: 201,
    allowed: (a) => a.createInside,
    call: (p, t) => p.call(uploadsApi.start, { params: { ws: t.workspaceId }, body: { parentId: t.id, name: 'up.bin', size: 1 } }),
  },
  // A batch answers 200 and each entry for itself: the entry's error stands for the status its own call would have had.
  {
    name: 'POST upload batch into',
    need: 'edit',
    ok: 201,
    allowed: (a) => a.createInside,
    call: async (p, t) => {
      const res = await p.call(uploadsApi.startMany, { params: { ws: t.workspaceId }, body: { uploads: [{ parentId: t.id, name: 'up.bin', size: 1 }] } });
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
let g: ReturnType<typeof given>;
let clients: ReturnType<typeof collabClients>;

/** The world every part of the matrix works in, made once for its file. */
function useWorld() {
  beforeAll(async () => {
    t = await startTestApp();
    g = given(t.ctx, t.url);
    clients = collabClients(t.url);
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
  afterAll(async () => {
    clients.destroyAll();
    await t.close();
  });
}

/**
 * A fresh folder (and a sibling to move into) for one cell, made by whoever may make it. A folder
 * for a trash cell is trashed by the caller when they may (so it is in their trash, with its
 * abilities), else by its maker.
 */
async function target(role: Role, relation: Relation, trashed: boolean): Promise<Target> {
  const make = async (maker: Person, ws: string, parent: string) => {
    const folder = (await maker.call(itemsApi.create, { params: { ws }, body: { kind: 'folder', name: `t-${Math.random()}`, parentId: parent } })).body;
    const sibling = (await maker.call(itemsApi.create, { params: { ws }, body: { kind: 'folder', name: `s-${Math.random()}`, parentId: parent } })).body;
    if (trashed && (await people[role].call(itemsApi.trash, { params: { id: folder.id } })).status !== 200)
      await maker.call(itemsApi.trash, { params: { id: folder.id } });
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

/** The item's abilities as the API reports them to the caller: the item itself, or its entry in their trash; null when it reports none. */
async function reportedAbilities(p: Person, from: 'item' | 'trash', workspaceId: string, id: string): Promise<TItemAbilities | null> {
  if (from === 'item') {
    const res = await p.call(itemsApi.get, { params: { id } });
    return res.status === 200 ? res.body.abilities : null;
  }
  const res = await p.call(itemsApi.trashList, { params: { ws: workspaceId }, query: { limit: '200' } });
  return res.status === 200 ? ((res.body.items as { id: string; abilities: TItemAbilities }[]).find((i) => i.id === id)?.abilities ?? null) : null;
}

/** Every item endpoint × relation to the item, for one workspace role. */
export function itemEndpointMatrix(role: Role) {
  useWorld();
  describe(`as ${role}`, () => {
    for (const relation of ['own', 'colleague-private', 'shared', 'other-workspace'] as Relation[]) {
      // Calls that leave the item where it is share one item (and its reported abilities) per relation.
      let shared: Promise<{ cell: Target; abilities: TItemAbilities | null; siblingAbilities: TItemAbilities | null }> | undefined;
      const cellFor = async (endpoint: Endpoint) => {
        const make = async () => {
          // Nothing can be put in a guest's own root, so a guest's "own" cells are checked on that root itself.
          const cell = await target(role, relation, !!endpoint.trashed && !(role === 'guest' && relation === 'own'));
          const abilities = await reportedAbilities(people[role], cell.trashed ? 'trash' : 'item', cell.workspaceId, cell.id);
          const siblingAbilities = await reportedAbilities(people[role], 'item', cell.workspaceId, cell.sibling);
          return { cell, abilities, siblingAbilities };
        };
        if (endpoint.fresh || endpoint.trashed) return make();
        return (shared ??= make());
      };
      for (const endpoint of ENDPOINTS) {
        it(`${endpoint.name} on ${relation}`, async () => {
          const { cell, abilities, siblingAbilities } = await cellFor(endpoint);
          const res = await endpoint.call(people[role], cell);
          const rank = expectedRank(role, relation);
          const guestRoot = role === 'guest' && relation === 'own';
          const expected = rank === RANK.none ? 404 : guestRoot && endpoint.trashed ? 404 : rank < RANK[endpoint.need] ? 403 : endpoint.ok;
          expect(res.status, `${role} ${endpoint.name} on ${relation}: ${JSON.stringify(res.body)}`).toBe(expected);
          const succeeded = res.status >= 200 && res.status < 300;
          expect(
            !!abilities && endpoint.allowed(abilities, siblingAbilities),
            `${role} ${endpoint.name} on ${relation}: abilities ${JSON.stringify(abilities)}`,
          ).toBe(succeeded);
        });
      }
    }
  });
}

/**
 * Moves across trees: every workspace role × where the item is × where it goes, against ADR 0017
 * written out here: someone who manages the item may move it anywhere they may edit; anyone else
 * only within the same root, and nowhere their role on it would be stronger.
 */
type Place =
  'shared' | 'shared-editor-grant' | 'own' | 'colleague' | 'colleague-editor-grant' | 'colleague-manager-grant' | 'colleague-item-editor-grant' | 'within';
const SOURCES: Exclude<Place, 'within'>[] = [
  'shared',
  'shared-editor-grant',
  'own',
  'colleague',
  'colleague-editor-grant',
  'colleague-manager-grant',
  'colleague-item-editor-grant',
];
const TARGETS: Place[] = ['shared', 'shared-editor-grant', 'own', 'colleague', 'colleague-editor-grant', 'colleague-manager-grant', 'within'];
type Member = Exclude<Role, 'outsider'>;

function rankAt(role: Member, place: Exclude<Place, 'within'>): number {
  const team = role === 'owner' || role === 'admin' ? RANK.manage : role === 'member' ? RANK.edit : RANK.none;
  switch (place) {
    case 'shared':
      return team;
    case 'shared-editor-grant':
      return Math.max(team, RANK.edit);
    case 'own':
      return role === 'guest' ? RANK.view : RANK.manage;
    case 'colleague':
      return RANK.none;
    case 'colleague-editor-grant':
    case 'colleague-item-editor-grant':
      return RANK.edit;
    case 'colleague-manager-grant':
      return RANK.manage;
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

/** Moves across trees, for every workspace role. */
export function movesMatrix() {
  useWorld();
  describe.each(['owner', 'admin', 'member', 'guest'] as Member[])('moving across trees as %s', (role) => {
    const folderIn = async (maker: Person, parentId: string) =>
      (await maker.call(itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: `m-${Math.random()}`, parentId } })).body.id as string;
    /**
     * A folder in a place, granted to the caller as the place says; and who manages that tree. Made once per place and
     * side (where items come from, where they go: two folders even when the place is the same) for the role's cells:
     * each cell moves an item of its own, and moving one in or out leaves the folder's access as it was.
     */
    const places = new Map<string, Promise<{ folder: string; manager: Person }>>();
    function place(side: 'from' | 'to', p: Exclude<Place, 'within'>, grantOnFolder = true): Promise<{ folder: string; manager: Person }> {
      const key = `${side} ${p} ${grantOnFolder}`;
      let made = places.get(key);
      if (!made) places.set(key, (made = makePlace(p, grantOnFolder)));
      return made;
    }
    async function makePlace(p: Exclude<Place, 'within'>, grantOnFolder: boolean): Promise<{ folder: string; manager: Person }> {
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
          const from = await place('from', source, source !== 'colleague-item-editor-grant');
          const item = await folderIn(from.manager, from.folder);
          if (source === 'colleague-item-editor-grant') await given(t.ctx, t.url).grant(item, { user: caller }, 'editor');
          const to = target === 'within' ? await folderIn(from.manager, from.folder) : (await place('to', target)).folder;
          const res = await caller.call(itemsApi.update, { params: { id: item }, body: { parentId: to } });
          const expected = expectedMove(role, source, target);
          expect(res.status, `${role} moving from ${source} to ${target}: ${JSON.stringify(res.body)}`).toBe(expected);
          if (expected === 403) expect(res.error?.code).toBe('forbidden');
          // Whoever managed the item still has it where it is (refused), or manages it still (moved by a non-manager).
          const seen = await from.manager.call(itemsApi.get, { params: { id: item } });
          if (expected !== 200) expect(seen.body).toMatchObject({ parentId: from.folder, role: 'manager' });
          else if (rankAt(role, source) < RANK.manage) expect(seen.body).toMatchObject({ parentId: to, role: 'manager' });
        });
      }
    }
  });
}

/**
 * What only documents have — comments, revisions — with sharing and the collaboration socket, for
 * each role a grant gives (and none, and an editor whose API token may only read), against
 * PRODUCT.md §6 written out here; and, again, the document's reported abilities say what each call does.
 */
type DocumentAccess = 'none' | 'viewer' | 'commenter' | 'editor' | 'manager' | 'editor with a read-only token';
const DOCUMENT_RANK: Record<DocumentAccess, number> = { none: 0, viewer: 1, commenter: 2, editor: 3, manager: 4, 'editor with a read-only token': 3 };
const NEED_RANK = { view: 1, comment: 2, edit: 3, manage: 4 } as const;

interface DocumentCell {
  id: string;
  /** A thread the colleague started. */
  others: string;
  /** A thread the caller started (when they could comment). */
  own: string;
  revision: string;
  /** Someone else's grant on the document. */
  grant: string;
}

interface DocumentEndpoint {
  name: string;
  need: keyof typeof NEED_RANK;
  ok: number;
  allowed(a: TItemAbilities): boolean;
  call(p: Person, d: DocumentCell): Promise<Answer<unknown>>;
}

const anchor = {
  start: { type: { client: 1, clock: 2 }, tname: null, item: { client: 1, clock: 5 }, assoc: 0 },
  end: { type: null, tname: 'default', item: { client: 1, clock: 9 }, assoc: -1 },
};

const DOCUMENT_ENDPOINTS: DocumentEndpoint[] = [
  { name: 'GET comments', need: 'view', ok: 200, allowed: (a) => a.view, call: (p, d) => p.call(commentsApi.threads, { params: { id: d.id } }) },
  {
    name: 'POST a new thread',
    need: 'comment',
    ok: 201,
    allowed: (a) => a.comment,
    call: (p, d) => p.call(commentsApi.add, { params: { id: d.id }, body: { body: 'A thought', anchor, quote: 'text' } }),
  },
  {
    name: 'POST a reply',
    need: 'comment',
    ok: 201,
    allowed: (a) => a.comment,
    call: (p, d) => p.call(commentsApi.add, { params: { id: d.id }, body: { body: 'Agreed', threadId: d.others } }),
  },
  {
    name: 'PATCH own comment',
    need: 'comment',
    ok: 200,
    allowed: (a) => a.comment,
    call: (p, d) => p.call(commentsApi.update, { params: { id: d.id, commentId: d.own }, body: { body: 'Better words' } }),
  },
  {
    name: 'PATCH resolve another’s thread',
    need: 'comment',
    ok: 200,
    allowed: (a) => a.comment,
    call: (p, d) => p.call(commentsApi.update, { params: { id: d.id, commentId: d.others }, body: { resolved: true } }),
  },
  {
    name: 'DELETE own comment',
    need: 'comment',
    ok: 204,
    allowed: (a) => a.comment,
    call: (p, d) => p.call(commentsApi.remove, { params: { id: d.id, commentId: d.own } }),
  },
  {
    name: 'DELETE another’s comment',
    need: 'manage',
    ok: 204,
    allowed: (a) => a.deleteAnyComment,
    call: (p, d) => p.call(commentsApi.remove, { params: { id: d.id, commentId: d.others } }),
  },
  { name: 'GET revisions', need: 'view', ok: 200, allowed: (a) => a.view, call: (p, d) => p.call(documentsApi.revisions, { params: { id: d.id } }) },
  {
    name: 'GET a revision',
    need: 'view',
    ok: 200,
    allowed: (a) => a.view,
    call: (p, d) => p.call(documentsApi.revision, { params: { id: d.id, revisionId: d.revision } }),
  },
  {
    name: 'POST restore a revision',
    need: 'manage',
    ok: 201,
    allowed: (a) => a.restoreRevision,
    call: (p, d) => p.call(documentsApi.restoreRevision, { params: { id: d.id, revisionId: d.revision } }),
  },
  { name: 'GET grants', need: 'manage', ok: 200, allowed: (a) => a.share, call: (p, d) => p.call(grantsApi.list, { params: { id: d.id } }) },
  {
    name: 'POST a grant',
    need: 'manage',
    ok: 201,
    allowed: (a) => a.share,
    call: (p, d) => p.call(grantsApi.create, { params: { id: d.id }, body: { principal: { type: 'user', id: bystander.id }, role: 'commenter' } }),
  },
  {
    name: 'PATCH a grant',
    need: 'manage',
    ok: 200,
    allowed: (a) => a.share,
    call: (p, d) => p.call(grantsApi.update, { params: { id: d.id, grantId: d.grant }, body: { role: 'editor' } }),
  },
  {
    name: 'DELETE a grant',
    need: 'manage',
    ok: 204,
    allowed: (a) => a.share,
    call: (p, d) => p.call(grantsApi.remove, { params: { id: d.id, grantId: d.grant } }),
  },
  {
    name: 'GET export',
    need: 'view',
    ok: 200,
    allowed: (a) => a.download,
    call: (p, d) => p.call(documentsApi.export, { params: { id: d.id }, query: { format: 'markdown' } }),
  },
];

let grantee: Person;
let bystander: Person;
let granteeReading: Person;

function useDocumentWorld() {
  beforeAll(async () => {
    grantee = await g.person('Grantee');
    bystander = await g.person('Bystander');
    await g.membership(grantee, workspace.id, 'member');
    await g.membership(bystander, workspace.id, 'member');
    granteeReading = await g.readOnly(grantee);
  });
}

const callerFor = (access: DocumentAccess) => (access === 'editor with a read-only token' ? granteeReading : grantee);

/** A fresh document in the colleague's My files, so only a grant gives the caller anything, with comments, a revision and a grant to act on. */
async function documentCell(access: DocumentAccess): Promise<DocumentCell> {
  const made = await colleague.person.call(itemsApi.create, {
    params: { ws: workspace.id },
    body: {
      kind: 'document',
      name: `d-${Math.random()}`,
      parentId: colleague.home,
    },
  });
  const id = made.body.id as string;
  const role = access === 'editor with a read-only token' ? 'editor' : access;
  if (role !== 'none') await g.grant(id, { user: grantee }, role);
  await g.grant(id, { user: bystander }, 'viewer');
  const grant = (
    await t.ctx.db.selectFrom('item_grants').select('id').where('item_id', '=', id).where('principal_id', '=', bystander.id).executeTakeFirstOrThrow()
  ).id;
  const { commentId: others } = await insertComment(t.ctx.db, { itemId: id, anchor, quote: 'text', authorId: colleague.person.id, body: 'From the colleague' });
  // Written when the caller could comment (their role may have been lowered since).
  const { commentId: own } = await insertComment(t.ctx.db, { itemId: id, anchor, quote: 'text', authorId: grantee.id, body: 'Mine' });
  const earlier = new Y.Doc();
  addParagraph(earlier, 'Earlier');
  const { id: revision } = await recordRevision(t.ctx.db, id, { state: Y.encodeStateAsUpdate(earlier), text: 'Earlier' }, [colleague.person.id]);
  return { id, others, own, revision, grant };
}

const ACCESSES: DocumentAccess[] = ['none', 'viewer', 'commenter', 'editor', 'manager', 'editor with a read-only token'];

/** What only documents have, for each role a grant gives. */
export function documentMatrix() {
  useWorld();
  useDocumentWorld();
  describe.each(ACCESSES)('a document, as %s', (access) => {
    const rank = DOCUMENT_RANK[access];
    const readOnlyToken = access === 'editor with a read-only token';
    // The calls that only read share one document (and its reported abilities); each that writes gets its own.
    let readOnly: Promise<{ cell: DocumentCell; abilities: TItemAbilities | null }> | undefined;
    const cellFor = async (writes: boolean) => {
      const make = async () => {
        const cell = await documentCell(access);
        return { cell, abilities: await reportedAbilities(callerFor(access), 'item', workspace.id, cell.id) };
      };
      return writes ? make() : (readOnly ??= make());
    };

    for (const endpoint of DOCUMENT_ENDPOINTS) {
      it(endpoint.name, async () => {
        const writes = endpoint.name.split(' ')[0] !== 'GET';
        const { cell, abilities } = await cellFor(writes);
        const caller = callerFor(access);
        const res = await endpoint.call(caller, cell);
        const expected = rank === 0 ? 404 : readOnlyToken && writes ? 403 : rank < NEED_RANK[endpoint.need] ? 403 : endpoint.ok;
        expect(res.status, `${access} ${endpoint.name}: ${JSON.stringify(res.body)}`).toBe(expected);
        const succeeded = res.status >= 200 && res.status < 300;
        expect(!!abilities && endpoint.allowed(abilities), `${access} ${endpoint.name}: abilities ${JSON.stringify(abilities)}`).toBe(succeeded);
      });
    }

    it('the collaboration socket', async () => {
      const cell = await documentCell(access);
      const caller = callerFor(access);
      const abilities = await reportedAbilities(caller, 'item', workspace.id, cell.id);
      const expected = rank === 0 ? 'refused' : rank >= NEED_RANK.edit && !readOnlyToken ? 'writable' : 'read-only';
      const watcher = clients.connect(cell.id, colleague.person.token);
      const client = clients.connect(cell.id, caller.token);
      await until(() => watcher.outcome.synced && (client.outcome.synced || !!client.outcome.failed), 'the socket to open or be refused');
      let outcome: string;
      if (client.outcome.failed) {
        expect(client.outcome.failed).toBe('not_found');
        outcome = 'refused';
      } else {
        addParagraph(client.document, 'From the caller');
        // The server answers the change: applied (the watcher sees it) or dropped (read-only).
        await until(
          () => client.outcome.acks.includes(false) || documentText(watcher.document).includes('From the caller'),
          'the change to be applied or dropped',
        );
        outcome = documentText(watcher.document).includes('From the caller') ? 'writable' : 'read-only';
      }
      client.provider.destroy();
      watcher.provider.destroy();
      expect(outcome, `${access} on the socket`).toBe(expected);
      // Opens ⇔ view; takes changes ⇔ edit.
      expect(!!abilities?.view).toBe(outcome !== 'refused');
      expect(!!abilities?.edit).toBe(outcome === 'writable');
    });
  });
}

/**
 * Access through a group: every item endpoint × what a group gives the caller (a member of the
 * workspace with no role of their own in the colleague's My files), against PRODUCT.md §6 — the
 * group's role on the folder shared and everything below, the strongest grant winning, nothing once
 * the grant has expired or they are out of the group — and again the reported abilities say what
 * each call does.
 */
type GroupAccess =
  'group viewer' | 'group editor' | 'group manager' | 'group manager, expired' | 'group editor, out of the group' | 'group viewer and own editor grant';
const GROUP_RANK: Record<GroupAccess, number> = {
  'group viewer': RANK.view,
  'group editor': RANK.edit,
  'group manager': RANK.manage,
  'group manager, expired': RANK.none,
  'group editor, out of the group': RANK.none,
  'group viewer and own editor grant': RANK.edit,
};

let grouped: Person;
let team: string;
let former: string;

function useGroupWorld() {
  beforeAll(async () => {
    grouped = await g.person('Grouped');
    await g.membership(grouped, workspace.id, 'member');
    const owner = people.owner;
    team = (await owner.call(groupsApi.create, { params: { ws: workspace.id }, body: { name: 'Matrix team' } })).body.id;
    former = (await owner.call(groupsApi.create, { params: { ws: workspace.id }, body: { name: 'Matrix former' } })).body.id;
    for (const group of [team, former])
      await owner.call(groupsApi.addMembers, { params: { ws: workspace.id, groupId: group }, body: { userIds: [grouped.id] } });
    await owner.call(groupsApi.removeMember, { params: { ws: workspace.id, groupId: former, userId: grouped.id } });
  });
}

const groupFolder = (parentId: string, name: string) =>
  colleague.person.call(itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'folder', name: `${name}-${Math.random()}`, parentId } });

/** A folder of the colleague's My files shared with a group as `access` says. */
async function groupShare(access: GroupAccess): Promise<string> {
  const shared = (await groupFolder(colleague.home, 'g')).body.id as string;
  const role = access.startsWith('group viewer') ? 'viewer' : access.startsWith('group editor') ? 'editor' : 'manager';
  const group = access.endsWith('out of the group') ? former : team;
  await g.grant(shared, { group }, role, access.endsWith('expired') ? new Date(Date.now() - 1000) : null);
  if (access.endsWith('own editor grant')) await g.grant(shared, { user: grouped }, 'editor');
  return shared;
}

/** A folder (and a sibling) inside a folder shared with a group (`groupShare`). */
async function groupCell(shared: string, trashed: boolean): Promise<Target> {
  const make = groupFolder;
  const folder = (await make(shared, 't')).body.id as string;
  const sibling = (await make(shared, 's')).body.id as string;
  if (trashed && (await grouped.call(itemsApi.trash, { params: { id: folder } })).status !== 200)
    await colleague.person.call(itemsApi.trash, { params: { id: folder } });
  return { id: folder, sibling, workspaceId: workspace.id, trashed };
}

/** Every item endpoint through a group, for each thing a group can give. */
export function groupMatrix() {
  useWorld();
  useGroupWorld();
  describe.each(Object.keys(GROUP_RANK) as GroupAccess[])('through a group, as %s', (access) => {
    // One folder shared with the group for the access's cells (what a cell does stays inside it); calls that leave the
    // item where it is share one item (and its reported abilities), as in the endpoint matrix.
    let share: Promise<string> | undefined;
    let kept: Promise<{ cell: Target; abilities: TItemAbilities | null; siblingAbilities: TItemAbilities | null }> | undefined;
    const cellFor = async (endpoint: Endpoint) => {
      const make = async () => {
        const cell = await groupCell(await (share ??= groupShare(access)), !!endpoint.trashed);
        const abilities = await reportedAbilities(grouped, cell.trashed ? 'trash' : 'item', cell.workspaceId, cell.id);
        const siblingAbilities = await reportedAbilities(grouped, 'item', cell.workspaceId, cell.sibling);
        return { cell, abilities, siblingAbilities };
      };
      if (endpoint.fresh || endpoint.trashed) return make();
      return (kept ??= make());
    };
    for (const endpoint of ENDPOINTS) {
      it(endpoint.name, async () => {
        const { cell, abilities, siblingAbilities } = await cellFor(endpoint);
        const res = await endpoint.call(grouped, cell);
        const rank = GROUP_RANK[access];
        const expected = rank === RANK.none ? 404 : rank < RANK[endpoint.need] ? 403 : endpoint.ok;
        expect(res.status, `${access} ${endpoint.name}: ${JSON.stringify(res.body)}`).toBe(expected);
        const succeeded = res.status >= 200 && res.status < 300;
        expect(!!abilities && endpoint.allowed(abilities, siblingAbilities), `${access} ${endpoint.name}: abilities ${JSON.stringify(abilities)}`).toBe(
          succeeded,
        );
      });
    }
  });
}
