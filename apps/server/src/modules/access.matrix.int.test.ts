import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  activityApi,
  adminApi,
  allRoutes,
  configApi,
  eventsApi,
  grantsApi,
  groupsApi,
  invitationsApi,
  itemsApi,
  linksApi,
  meApi,
  membersApi,
  notificationsApi,
  publicLinksApi,
  routeAreas,
  searchApi,
  securityApi,
  sessionsApi,
  tokensApi,
  uploadsApi,
  uuidv7,
  workspacesApi,
  type RouteDeclaration,
  type TWorkspaceAbilities,
  type TWorkspaceAbility,
} from '@cabinet/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveKey, encrypt, randomToken, sha256 } from '../lib/crypto.ts';
import type { Person } from '../testing/given.ts';
import { anonymous, callingRoutes, type Answer, type Send } from '../testing/route-call.ts';
import { useTestApp } from '../testing/test-app.ts';
import { insertLink } from './links/links.repo.ts';
import { insertSession } from './sessions/sessions.repo.ts';

/**
 * Every route of the API × who calls (each workspace role, someone of another workspace, no one,
 * a link's visitor) × their relation to what the call is about (their own item, one shared with
 * them, one shared with them to manage, one not shared), against PRODUCT.md §6 and §8 written out
 * here: what the caller may not see does not exist (`not_found`, worded as for something that does
 * not exist at all), what they see but may not do is `forbidden`; a workspace's calls are allowed
 * by what the workspace's roles may do there (PRODUCT.md §6, written out below), and each succeeds
 * exactly when the workspace, as the API answers it to the caller, says they have its ability. And
 * no answer, success or failure, holds the name of something the caller may not see. The item calls
 * are in the items matrix (testing/item-matrix.ts); the last test here fails when a route is declared that neither
 * matrix (nor a named test) covers.
 */
type Caller = 'owner' | 'admin' | 'member' | 'guest' | 'outsider' | 'anonymous' | 'visitor';
type InWorkspace = Exclude<Caller, 'outsider' | 'anonymous' | 'visitor'>;
type Relation = 'own' | 'shared' | 'shared to manage' | 'not shared';
const CALLERS: Caller[] = ['owner', 'admin', 'member', 'guest', 'outsider', 'anonymous', 'visitor'];
const RELATIONS: Relation[] = ['own', 'shared', 'shared to manage', 'not shared'];

/** What the workspace's owner and admins do besides working in it: run it. */
const RUNS: TWorkspaceAbility[] = ['manageMembers', 'manageGroups', 'manageLinks', 'changeSettings', 'readAudit'];
/** PRODUCT.md §6's workspace roles: what each may do in the workspace. */
const MAY: Record<InWorkspace, TWorkspaceAbility[]> = {
  owner: ['createInRoots', 'seeMembers', 'seeUsage', ...RUNS, 'handOver'],
  admin: ['createInRoots', 'seeMembers', 'seeUsage', ...RUNS],
  member: ['createInRoots', 'seeMembers', 'seeUsage'],
  guest: [],
};
const ABILITIES = MAY.owner;

/**
 * Who may call: a workspace ability (`manageGroups`, `seeMembers`, …) — whoever in the workspace
 * has it (the others in it: `forbidden`); `in workspace` — anyone in it; `signed in` — anyone with
 * an account; `anyone` — with no account too; `nobody else` — a thing of someone else's, which does
 * not exist for anyone but them; `share` and `view` — the caller's role on the item.
 */
type Rule = TWorkspaceAbility | 'in workspace' | 'signed in' | 'anyone' | 'nobody else' | 'share' | 'view';
const isAbility = (rule: Rule): rule is TWorkspaceAbility => (ABILITIES as string[]).includes(rule);

type Res = Answer<unknown>;
/** How a cell's caller calls: through a route's declaration. */
type Client = ReturnType<typeof callingRoutes>;
/** An answer as text, to look for names in: a JSON body written out again, or the text itself (a CSV). */
const textOf = (res: Res) => (typeof res.body === 'string' ? res.body : (JSON.stringify(res.body) ?? ''));

/** What one call is about: the workspace, and for an item call the item (fresh for each cell). */
interface Target {
  ws: string;
  item: string;
  /** Who manages the item (makes its links and grants for the cell). */
  manager: Person | null;
  /** Nothing there at all: what a call names besides is no more there than the item. */
  absent?: boolean;
}

interface Entry {
  rule: Rule;
  ok: number;
  run(client: Client, t: Target, who: Caller): Promise<Res>;
}

const RANK = { none: 0, view: 1, edit: 3, manage: 4 } as const;

function rankOf(who: InWorkspace | 'outsider', relation: Relation): number {
  if (relation === 'own') return who === 'guest' ? RANK.view : RANK.manage;
  if (who === 'outsider' || relation === 'not shared') return RANK.none;
  return relation === 'shared' ? RANK.edit : RANK.manage;
}

function expected(rule: Rule, who: Caller, relation: Relation | null, ok: number): number {
  if (who === 'anonymous' || who === 'visitor') return rule === 'anyone' ? ok : 401;
  switch (rule) {
    case 'anyone':
    case 'signed in':
      return ok;
    case 'nobody else':
      return 404;
    case 'in workspace':
      return who === 'outsider' ? 404 : ok;
    case 'share':
    case 'view': {
      const rank = rankOf(who, relation!);
      return rank === RANK.none ? 404 : rank < (rule === 'share' ? RANK.manage : RANK.view) ? 403 : ok;
    }
    default:
      return who === 'outsider' ? 404 : MAY[who].includes(rule) ? ok : 403;
  }
}

const test = useTestApp();
let people: Record<InWorkspace | 'outsider', Person>;
/** What each caller's workspace says they may do there, as `GET /workspaces/:ws` answers it. */
let reported: Record<InWorkspace, TWorkspaceAbilities>;
let homes: Record<InWorkspace, string>;
/** A member whose My files holds everything shared or not shared with the callers. */
let colleague: Person;
let colleagueHome: string;
let colleagueSession: string;
/** A member the calls add to groups and share with. */
let bystander: Person;
let ws: string;
/** Names of things no caller but the owner and admins (through the audit log and the link list) may ever be told. */
const SECRET = `Secret-${uuidv7().slice(-8)}`;
let secretParent: string;
/** An invite link into a workspace of its own, for anyone to look at and accept. */
let inviteToken: string;
/** An invitation by email to the colleague, whom no cell calls as: by its id it is theirs alone. */
let colleagueInvitation: string;
/** A link's visitor: holds the password cookie of a link to an item of their own (not the one a call is about). */
let visitorCookie: string;

/** A caller with an API token, a cookie, or neither; redirects are answers of their own, and of an event stream only the status is read. */
function caller(token: string | null, cookie?: string): Client {
  const send: Send = async (path, init) => {
    const res = await fetch(`${test.app.url}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(cookie ? { cookie } : {}), ...init.headers },
    });
    // An event stream never ends: its status is all that is read.
    if (!res.headers.get('content-type')?.includes('event-stream')) return res;
    await res.body?.cancel();
    return new Response(null, { status: res.status, headers: res.headers });
  };
  return callingRoutes(send);
}

const callFor = (who: Caller): Client => (who === 'anonymous' ? caller(null) : who === 'visitor' ? caller(null, visitorCookie) : caller(people[who].token));

const made = async <T>(p: Promise<Answer<T>>, status = 201): Promise<T> => {
  const res = await p;
  if (res.status !== status) throw new Error(`setting up: ${res.status} ${JSON.stringify(res.error)}`);
  return res.body;
};
const folderIn = async (maker: Person, workspace: string, parentId: string, name = `f-${Math.random()}`) =>
  (await test.given.folder(maker, parentId, name, workspace)).id;
/** The token of a link, from its address. */
const linkToken = (link: { url: string | null }) => {
  if (!link.url) throw new Error('setting up: a link without its address');
  return link.url.split('/s/')[1]!;
};

/** A fresh item for a cell: in the caller's My files, or in the colleague's, shared with the caller as the relation says (inside a folder they are never shown). */
async function itemFor(who: Caller, relation: Relation): Promise<Target> {
  if (who === 'anonymous' || who === 'visitor') return { ws, item: await folderIn(colleague, ws, secretParent), manager: colleague };
  if (relation === 'own') {
    if (who === 'outsider')
      return {
        ws: people.outsider.workspace.id,
        item: await folderIn(people.outsider, people.outsider.workspace.id, people.outsider.workspace.homeId),
        manager: people.outsider,
      };
    // Nothing can be put in a guest's own root: their cells are on that root itself.
    if (who === 'guest') return { ws, item: homes.guest, manager: null };
    return { ws, item: await folderIn(people[who], ws, homes[who]), manager: people[who] };
  }
  const item = await folderIn(colleague, ws, secretParent, relation === 'not shared' ? `${SECRET} ${Math.random()}` : `f-${Math.random()}`);
  // Shared with someone outside the workspace, they would join it as a guest: an outsider's cells stay unshared.
  if (relation !== 'not shared' && who !== 'outsider') await test.given.grant(item, { user: people[who] }, relation === 'shared' ? 'editor' : 'manager');
  return { ws, item, manager: colleague };
}

/** A link to the cell's item, made by its manager (or written directly for a guest's root, which no one may share). */
async function linkOn(tgt: Target): Promise<string> {
  if (tgt.absent) return uuidv7();
  if (tgt.manager) return (await made(tgt.manager.call(linksApi.create, { params: { id: tgt.item }, body: { kind: 'view' } }))).id;
  const token = randomToken(32);
  const key = deriveKey(test.app.ctx.env.SESSION_SECRET, 'share-link-token');
  return (
    await insertLink(test.app.ctx.db, {
      workspaceId: tgt.ws,
      itemId: tgt.item,
      kind: 'view',
      tokenHash: sha256(token),
      tokenSealed: encrypt(key, token),
      passwordHash: null,
      expiresAt: null,
      downloadAllowed: true,
      by: people.guest.id,
    })
  ).id;
}

async function grantOn(tgt: Target): Promise<string> {
  if (tgt.absent) return uuidv7();
  const find = () =>
    test.app.ctx.db.selectFrom('item_grants').select('id').where('item_id', '=', tgt.item).where('principal_id', '=', bystander.id).executeTakeFirst();
  // A guest's root is the same for each of their cells: its grant may be there from one before.
  if (!(await find())) await test.given.grant(tgt.item, { user: bystander }, 'viewer');
  return (await find())!.id;
}

const newGroup = async () => (await made(people.owner.call(groupsApi.create, { params: { ws }, body: { name: `Group ${Math.random()}` } }))).id;
const newInvitation = async (email?: string) =>
  (await made(people.owner.call(invitationsApi.create, { params: { ws }, body: { role: 'member', ...(email ? { email } : {}) } }))).id;
const newMember = async () => {
  const p = await test.given.person('Someone to change');
  await test.given.membership(p, ws, 'member');
  return p;
};

/** The item routes of sharing, links and activity, called on the cell's item. */
const ITEM_ENTRIES: Record<string, Entry> = {
  'GET /items/:id/grants': { rule: 'share', ok: 200, run: (c, x) => c.call(grantsApi.list, { params: { id: x.item } }) },
  'POST /items/:id/grants': {
    rule: 'share',
    ok: 201,
    run: (c, x) => c.call(grantsApi.create, { params: { id: x.item }, body: { principal: { type: 'user', id: bystander.id }, role: 'viewer' } }),
  },
  'PATCH /items/:id/grants/:grantId': {
    rule: 'share',
    ok: 200,
    run: async (c, x) => c.call(grantsApi.update, { params: { id: x.item, grantId: await grantOn(x) }, body: { role: 'editor' } }),
  },
  'DELETE /items/:id/grants/:grantId': {
    rule: 'share',
    ok: 204,
    run: async (c, x) => c.call(grantsApi.remove, { params: { id: x.item, grantId: await grantOn(x) } }),
  },
  'GET /items/:id/links': { rule: 'share', ok: 200, run: (c, x) => c.call(linksApi.list, { params: { id: x.item } }) },
  'POST /items/:id/links': { rule: 'share', ok: 201, run: (c, x) => c.call(linksApi.create, { params: { id: x.item }, body: { kind: 'view' } }) },
  'PATCH /items/:id/links/:linkId': {
    rule: 'share',
    ok: 200,
    run: async (c, x) => c.call(linksApi.update, { params: { id: x.item, linkId: await linkOn(x) }, body: { downloadAllowed: false } }),
  },
  'DELETE /items/:id/links/:linkId': {
    rule: 'share',
    ok: 204,
    run: async (c, x) => c.call(linksApi.revoke, { params: { id: x.item, linkId: await linkOn(x) } }),
  },
  'GET /items/:id/activity': { rule: 'view', ok: 200, run: (c, x) => c.call(activityApi.item, { params: { id: x.item } }) },
  'GET /items/:id/search-text': { rule: 'view', ok: 200, run: (c, x) => c.call(searchApi.textState, { params: { id: x.item } }) },
};

/** The workspace routes: the team, groups, links and policy, the audit log; and what is the caller's own. */
const WORKSPACE_ENTRIES: Record<string, Entry> = {
  'GET /workspaces/:ws': { rule: 'in workspace', ok: 200, run: (c, x) => c.call(workspacesApi.get, { params: { ws: x.ws } }) },
  'GET /workspaces/:ws/members': { rule: 'seeMembers', ok: 200, run: (c, x) => c.call(workspacesApi.members, { params: { ws: x.ws } }) },
  'GET /workspaces/:ws/members?include=deactivated': {
    rule: 'manageMembers',
    ok: 200,
    run: (c, x) => c.call(workspacesApi.members, { params: { ws: x.ws }, query: { include: 'deactivated' } }),
  },
  'PATCH /workspaces/:ws/members/:userId': {
    rule: 'manageMembers',
    ok: 200,
    run: async (c, x) => c.call(membersApi.update, { params: { ws: x.ws, userId: (await newMember()).id }, body: { role: 'admin' } }),
  },
  'DELETE /workspaces/:ws/members/:userId': {
    rule: 'manageMembers',
    ok: 204,
    run: async (c, x) => c.call(membersApi.remove, { params: { ws: x.ws, userId: (await newMember()).id }, query: { filesTo: people.owner.id } }),
  },
  'GET /workspaces/:ws/invitations': { rule: 'manageMembers', ok: 200, run: (c, x) => c.call(invitationsApi.list, { params: { ws: x.ws } }) },
  'POST /workspaces/:ws/invitations': {
    rule: 'manageMembers',
    ok: 201,
    run: (c, x) => c.call(invitationsApi.create, { params: { ws: x.ws }, body: { role: 'member' } }),
  },
  'DELETE /workspaces/:ws/invitations/:id': {
    rule: 'manageMembers',
    ok: 204,
    run: async (c, x) => c.call(invitationsApi.revoke, { params: { ws: x.ws, id: await newInvitation() } }),
  },
  'POST /workspaces/:ws/invitations/:id/resend': {
    rule: 'manageMembers',
    ok: 200,
    run: async (c, x) => c.call(invitationsApi.resend, { params: { ws: x.ws, id: await newInvitation(`${uuidv7()}@example.com`) } }),
  },
  'GET /workspaces/:ws/groups': { rule: 'seeMembers', ok: 200, run: (c, x) => c.call(groupsApi.list, { params: { ws: x.ws } }) },
  'POST /workspaces/:ws/groups': {
    rule: 'manageGroups',
    ok: 201,
    run: (c, x) => c.call(groupsApi.create, { params: { ws: x.ws }, body: { name: `New ${Math.random()}` } }),
  },
  'PATCH /workspaces/:ws/groups/:groupId': {
    rule: 'manageGroups',
    ok: 200,
    run: async (c, x) => c.call(groupsApi.rename, { params: { ws: x.ws, groupId: await newGroup() }, body: { name: `Renamed ${Math.random()}` } }),
  },
  'DELETE /workspaces/:ws/groups/:groupId': {
    rule: 'manageGroups',
    ok: 204,
    run: async (c, x) => c.call(groupsApi.remove, { params: { ws: x.ws, groupId: await newGroup() } }),
  },
  'GET /workspaces/:ws/groups/:groupId/members': {
    rule: 'seeMembers',
    ok: 200,
    run: async (c, x) => c.call(groupsApi.members, { params: { ws: x.ws, groupId: await newGroup() } }),
  },
  'POST /workspaces/:ws/groups/:groupId/members': {
    rule: 'manageGroups',
    ok: 200,
    run: async (c, x) => c.call(groupsApi.addMembers, { params: { ws: x.ws, groupId: await newGroup() }, body: { userIds: [bystander.id] } }),
  },
  'DELETE /workspaces/:ws/groups/:groupId/members/:userId': {
    rule: 'manageGroups',
    ok: 204,
    run: async (c, x) => {
      const group = await newGroup();
      await made(people.owner.call(groupsApi.addMembers, { params: { ws, groupId: group }, body: { userIds: [bystander.id] } }), 200);
      return c.call(groupsApi.removeMember, { params: { ws: x.ws, groupId: group, userId: bystander.id } });
    },
  },
  'GET /workspaces/:ws/shared': { rule: 'in workspace', ok: 200, run: (c, x) => c.call(grantsApi.sharedWithMe, { params: { ws: x.ws } }) },
  'GET /workspaces/:ws/links': { rule: 'manageLinks', ok: 200, run: (c, x) => c.call(linksApi.workspace, { params: { ws: x.ws } }) },
  'DELETE /workspaces/:ws/links/:linkId': {
    rule: 'manageLinks',
    ok: 204,
    run: async (c, x) =>
      c.call(linksApi.revokeInWorkspace, {
        params: { ws: x.ws, linkId: await linkOn({ ws, item: await folderIn(colleague, ws, secretParent), manager: colleague }) },
      }),
  },
  'GET /workspaces/:ws/link-policy': { rule: 'in workspace', ok: 200, run: (c, x) => c.call(linksApi.policy, { params: { ws: x.ws } }) },
  // Set to what it is, so the other cells meet the same policy.
  'PATCH /workspaces/:ws/link-policy': {
    rule: 'manageLinks',
    ok: 200,
    run: (c, x) => c.call(linksApi.updatePolicy, { params: { ws: x.ws }, body: { linksAllowed: true } }),
  },
  'GET /workspaces/:ws/activity': { rule: 'readAudit', ok: 200, run: (c, x) => c.call(activityApi.workspace, { params: { ws: x.ws } }) },
  'GET /workspaces/:ws/activity?format=csv': {
    rule: 'readAudit',
    ok: 200,
    run: (c, x) => c.call(activityApi.workspace, { params: { ws: x.ws }, query: { format: 'csv' } }),
  },
  // Looking for the very names nobody but their owner may find.
  'GET /workspaces/:ws/search-settings': { rule: 'in workspace', ok: 200, run: (c, x) => c.call(searchApi.settings, { params: { ws: x.ws } }) },
  // Set to what it is, so nothing is read again between cells.
  'PATCH /workspaces/:ws/search-settings': {
    rule: 'changeSettings',
    ok: 200,
    run: (c, x) => c.call(searchApi.updateSettings, { params: { ws: x.ws }, body: { language: 'english' } }),
  },
  'GET /workspaces/:ws/search': { rule: 'in workspace', ok: 200, run: (c, x) => c.call(searchApi.search, { params: { ws: x.ws }, query: { q: SECRET } }) },
  'GET /workspaces/:ws/trash': { rule: 'in workspace', ok: 200, run: (c, x) => c.call(itemsApi.trashList, { params: { ws: x.ws } }) },
  'POST /workspaces/:ws/trash/empty': { rule: 'in workspace', ok: 200, run: (c, x) => c.call(itemsApi.emptyTrash, { params: { ws: x.ws } }) },
  'GET /workspaces/:ws/starred': { rule: 'in workspace', ok: 200, run: (c, x) => c.call(itemsApi.starred, { params: { ws: x.ws } }) },
  'GET /workspaces/:ws/recent': { rule: 'in workspace', ok: 200, run: (c, x) => c.call(itemsApi.recent, { params: { ws: x.ws } }) },
  'GET /workspaces/:ws/uploads': { rule: 'in workspace', ok: 200, run: (c, x) => c.call(uploadsApi.unfinished, { params: { ws: x.ws } }) },
  'GET /workspaces/:ws/events': { rule: 'in workspace', ok: 200, run: (c, x) => c.call(eventsApi.stream, { params: { ws: x.ws } }) },
  'GET /invitations/:token': { rule: 'anyone', ok: 200, run: (c) => c.call(invitationsApi.preview, { params: { token: inviteToken } }) },
  'POST /invitations/:token/accept': { rule: 'signed in', ok: 200, run: (c) => c.call(invitationsApi.accept, { params: { token: inviteToken } }) },
  'GET /me/invitations/:id': { rule: 'nobody else', ok: 200, run: (c) => c.call(invitationsApi.previewMine, { params: { id: colleagueInvitation } }) },
  'POST /me/invitations/:id/accept': { rule: 'nobody else', ok: 200, run: (c) => c.call(invitationsApi.acceptMine, { params: { id: colleagueInvitation } }) },
  // What is the caller's own: themself, their sessions and tokens, their workspaces.
  'GET /config': { rule: 'anyone', ok: 200, run: (c) => c.call(configApi.get) },
  'GET /openapi.json': { rule: 'anyone', ok: 200, run: (c) => c.call(configApi.openApi) },
  'GET /me': { rule: 'signed in', ok: 200, run: (c) => c.call(meApi.get) },
  // Their own name again, so the other cells meet the same people.
  'PATCH /me': { rule: 'signed in', ok: 200, run: (c, _x, who) => c.call(meApi.update, { body: { name: who.charAt(0).toUpperCase() + who.slice(1) } }) },
  'GET /sessions': { rule: 'signed in', ok: 200, run: (c) => c.call(sessionsApi.list) },
  'POST /sessions/revoke-others': { rule: 'signed in', ok: 200, run: (c) => c.call(sessionsApi.endOthers) },
  'GET /tokens': { rule: 'signed in', ok: 200, run: (c) => c.call(tokensApi.list) },
  'POST /tokens': { rule: 'signed in', ok: 201, run: (c) => c.call(tokensApi.create, { body: { name: 'matrix' } }) },
  'GET /workspaces': { rule: 'signed in', ok: 200, run: (c) => c.call(workspacesApi.list) },
  // Notifications are the caller's own: a list, marks of read, a mail setting.
  'GET /notifications': { rule: 'signed in', ok: 200, run: (c) => c.call(notificationsApi.list) },
  'POST /notifications/read': { rule: 'signed in', ok: 200, run: (c) => c.call(notificationsApi.read, { body: { all: true } }) },
  'GET /notifications/events': { rule: 'signed in', ok: 200, run: (c) => c.call(notificationsApi.events) },
  'GET /me/notification-settings': { rule: 'signed in', ok: 200, run: (c) => c.call(notificationsApi.settings) },
  'PATCH /me/notification-settings': { rule: 'signed in', ok: 200, run: (c) => c.call(notificationsApi.updateSettings, { body: { emailUnread: true } }) },
  'POST /workspaces': { rule: 'signed in', ok: 201, run: (c) => c.call(workspacesApi.create, { body: { name: `Matrix ${Math.random()}` } }) },
  // Someone else's session or token is no one's to see or end but theirs.
  'DELETE /sessions/:id': {
    rule: 'nobody else',
    ok: 204,
    run: (c) => c.call(sessionsApi.end, { params: { id: colleagueSession } }),
  },
  'DELETE /tokens/:id': {
    rule: 'nobody else',
    ok: 204,
    run: async (c) =>
      c.call(tokensApi.revoke, {
        params: { id: (await test.app.ctx.db.selectFrom('api_tokens').select('id').where('user_id', '=', colleague.id).executeTakeFirstOrThrow()).id },
      }),
  },
};

/**
 * What the route answers for something that does not exist at all, to compare a `not_found` with:
 * an item call on an id no item has, a workspace call on an id no workspace has.
 */
const nowhere = (x: Target): Target => ({ ws: x.item ? x.ws : uuidv7(), item: uuidv7(), manager: null, absent: true });

/** What no answer to this caller may hold: the names in the colleague's My files, unless the caller runs the workspace and reads its record or links. */
function checkNoLeak(res: Res, who: Caller, rule: Rule, label: string) {
  const mayRead = RUNS.includes(rule as TWorkspaceAbility) && (who === 'owner' || who === 'admin') && res.status < 300;
  if (!mayRead) expect(textOf(res), `${label}: the answer names what the caller may not see`).not.toContain(SECRET);
  if (res.status >= 400) {
    expect(res.error?.code, `${label}: an error in the envelope`).toEqual(expect.any(String));
    expect(textOf(res)).not.toContain(colleague.id);
  }
}

async function checkCell(entry: Entry, who: Caller, relation: Relation | null, label: string) {
  const client = callFor(who);
  const tgt = relation ? await itemFor(who, relation) : { ws, item: '', manager: null };
  const res = await entry.run(client, tgt, who);
  const status = expected(entry.rule, who, relation, entry.ok);
  expect(res.status, `${label}: ${textOf(res).slice(0, 300)}`).toBe(status);
  // The workspace told the caller beforehand whether this call would be theirs to make.
  if (isAbility(entry.rule) && who in reported)
    expect(reported[who as InWorkspace][entry.rule], `${label}: the ability reported`).toBe(res.status === entry.ok);
  checkNoLeak(res, who, entry.rule, label);
  if (status === 404 && entry.rule !== 'nobody else') {
    // Not seeing something and its not existing answer alike: the same code, message and details.
    const absent = await entry.run(client, nowhere(tgt), who);
    expect(absent.status, `${label}, on nothing`).toBe(404);
    expect(res.error).toEqual({ ...absent.error, requestId: res.error?.requestId });
  }
}

beforeAll(async () => {
  const o = await test.given.person('Owner');
  ws = o.workspace.id;
  const [admin, member, guest, outsider] = await Promise.all(['Admin', 'Member', 'Guest', 'Outsider'].map((n) => test.given.person(n)));
  people = { owner: o, admin: admin!, member: member!, guest: guest!, outsider: outsider! };
  homes = {
    owner: o.workspace.homeId,
    admin: await test.given.membership(admin!, ws, 'admin'),
    member: await test.given.membership(member!, ws, 'member'),
    guest: await test.given.membership(guest!, ws, 'guest'),
  };
  colleague = await test.given.person('Colleague');
  colleagueHome = await test.given.membership(colleague, ws, 'member');
  colleagueSession = (
    await insertSession(test.app.ctx.db, {
      tokenHash: sha256(randomToken()),
      userId: colleague.id,
      userAgent: null,
      ip: null,
      expiresAt: new Date(Date.now() + 86_400_000),
      idTokenSealed: null,
      refreshTokenSealed: null,
    })
  ).id;
  bystander = await test.given.person('Bystander');
  await test.given.membership(bystander, ws, 'member');
  // A guest is in the workspace while something in it is shared with them.
  await test.given.grant(await folderIn(o, ws, o.workspace.rootId, 'For the guest'), { user: guest! }, 'viewer');
  // Everything of the colleague's sits in a folder no caller is shown, shared with someone else (a grant above that who-has-access must not reveal).
  secretParent = await folderIn(colleague, ws, colleagueHome, `${SECRET} parent`);
  await test.given.grant(secretParent, { user: bystander }, 'viewer');
  const elsewhere = await test.given.person('Elsewhere');
  inviteToken = (await made(elsewhere.call(invitationsApi.create, { params: { ws: elsewhere.workspace.id }, body: { role: 'member' } }))).url.split(
    '/invite/',
  )[1]!;
  const colleagueEmail = (await made(colleague.call(meApi.get), 200)).user.email;
  colleagueInvitation = (
    await made(elsewhere.call(invitationsApi.create, { params: { ws: elsewhere.workspace.id }, body: { role: 'member', email: colleagueEmail } }))
  ).id;
  const visited = await folderIn(o, ws, o.workspace.rootId, 'The visitor’s folder');
  const link = await made(o.call(linksApi.create, { params: { id: visited }, body: { kind: 'view', password: 'visitor password' } }));
  const unlocked = await callingRoutes(anonymous(test.app.url)).call(publicLinksApi.unlock, {
    params: { token: linkToken(link) },
    body: { password: 'visitor password' },
  });
  visitorCookie = unlocked.headers.getSetCookie()[0]!.split(';')[0]!;
  const roles: InWorkspace[] = ['owner', 'admin', 'member', 'guest'];
  reported = Object.fromEntries(
    await Promise.all(roles.map(async (who) => [who, (await made(people[who].call(workspacesApi.get, { params: { ws } }), 200)).abilities])),
  );
});

describe.each(CALLERS)('as %s', (who) => {
  for (const [name, entry] of Object.entries(ITEM_ENTRIES)) {
    for (const relation of RELATIONS) {
      it(`${name} on ${relation}`, () => checkCell(entry, who, relation, `${who} ${name} on ${relation}`));
    }
  }
  for (const [name, entry] of Object.entries(WORKSPACE_ENTRIES)) {
    it(name, () => checkCell(entry, who, null, `${who} ${name}`));
  }
});

describe('the workspace abilities', () => {
  const roles: InWorkspace[] = ['owner', 'admin', 'member', 'guest'];
  const asExpected = (who: InWorkspace) => Object.fromEntries(ABILITIES.map((a) => [a, MAY[who].includes(a)]));

  it('are carried by the workspace as each role has them, in the list too, and a workspace one is not in is not there', async () => {
    for (const who of roles) {
      expect(reported[who], who).toEqual(asExpected(who));
      const listed = (await made(people[who].call(workspacesApi.list), 200)).items.find((w) => w.id === ws);
      expect(listed?.abilities, `${who} in the list`).toEqual(reported[who]);
    }
    expect((await people.outsider.call(workspacesApi.get, { params: { ws } })).status).toBe(404);
    expect((await made(people.outsider.call(workspacesApi.list), 200)).items.map((w) => w.id)).not.toContain(ws);
    // A new workspace is its maker's to run.
    expect((await made(people.owner.call(workspacesApi.create, { body: { name: `Abilities ${Math.random()}` } }))).abilities).toEqual(asExpected('owner'));
  });

  // The abilities no call of the matrix above asks for: each holds exactly when the API allows what it names.
  it.each(roles)('hold exactly when the API allows, as %s: creating in the roots, the usage, handing over', async (who) => {
    const p = people[who];
    const w = people.owner.workspace;
    for (const root of [w.rootId, homes[who]]) {
      // Asking whether the call is allowed: made by hand, not through given, which refuses a failure.
      const res = await p.call(itemsApi.create, { params: { ws }, body: { kind: 'folder', name: `In a root ${Math.random()}`, parentId: root } });
      expect(res.status === 201, `${who} creating in ${root === w.rootId ? 'the shared root' : 'My files'}: ${JSON.stringify(res.error)}`).toBe(
        reported[who].createInRoots,
      );
    }
    const seen = await made(p.call(workspacesApi.get, { params: { ws } }), 200);
    expect(seen.usedBytes !== null, `${who} seeing the usage`).toBe(reported[who].seeUsage);
    if (!reported[who].seeUsage) expect(seen.quotaBytes).toBeNull();
    const heir = await newMember();
    const handed = await p.call(membersApi.update, { params: { ws, userId: heir.id }, body: { role: 'owner' } });
    expect(handed.status === 200, `${who} handing over: ${JSON.stringify(handed.error)}`).toBe(reported[who].handOver);
    // Handed back, so the other cells meet the same owner.
    if (handed.status === 200) await made(heir.call(membersApi.update, { params: { ws, userId: p.id }, body: { role: 'owner' } }), 200);
  });
});

/**
 * A link's visitor routes, for every caller (an account changes nothing: the link is all that
 * counts) and every place of what is asked for: the link's item or under it, an item outside the
 * link (the id of something of the workspace's), something under the link in the trash, and —
 * for the link itself — a link whose item is in the trash or that was revoked.
 */
type Place = 'under the link' | 'outside the link' | 'in the trash' | 'revoked';
const PLACES: Place[] = ['under the link', 'outside the link', 'in the trash', 'revoked'];

interface VisitorEntry {
  ok: number;
  /** Whether the route asks for an item (else it is about the link alone). */
  item: boolean;
  run(client: Client, token: string, o: { folder: string; document: string }): Promise<Res>;
}

const VISITOR_ENTRIES: Record<string, VisitorEntry> = {
  'GET /links/:token': { ok: 200, item: false, run: (c, token) => c.call(publicLinksApi.open, { params: { token } }) },
  'POST /links/:token/unlock': {
    ok: 204,
    item: false,
    run: (c, token) => c.call(publicLinksApi.unlock, { params: { token }, body: { password: 'any password' } }),
  },
  'GET /links/:token/items/:itemId': { ok: 200, item: true, run: (c, token, o) => c.call(publicLinksApi.item, { params: { token, itemId: o.folder } }) },
  'GET /links/:token/items/:itemId/content': {
    ok: 200,
    item: true,
    run: (c, token, o) => c.call(publicLinksApi.content, { params: { token, itemId: o.folder } }),
  },
  'GET /links/:token/items/:itemId/document': {
    ok: 200,
    item: true,
    run: (c, token, o) => c.call(publicLinksApi.document, { params: { token, itemId: o.document } }),
  },
  'GET /links/:token/items/:itemId/export': {
    ok: 200,
    item: true,
    run: (c, token, o) => c.call(publicLinksApi.export, { params: { token, itemId: o.document }, query: { format: 'markdown' } }),
  },
};

interface VisitorWorld {
  live: string;
  trashed: string;
  revoked: string;
  under: { folder: string; document: string };
  outside: { folder: string; document: string };
  inTrash: { folder: string; document: string };
}
let visit: VisitorWorld;
/** Names of what a visitor may not see (the owner may: they are in the owner's trash and shared root). */
const HIDDEN = `Hidden-${uuidv7().slice(-8)}`;

beforeAll(async () => {
  const o = people.owner;
  const documentIn = async (maker: Person, parentId: string) => (await test.given.document(maker, parentId, `${HIDDEN} doc ${Math.random()}`, ws)).id;
  const linked = await folderIn(o, ws, o.workspace.rootId, 'Linked');
  const under = { folder: linked, document: (await test.given.document(o, linked, 'Notes', ws)).id };
  const binned = await folderIn(o, ws, linked, `${HIDDEN} binned`);
  const inTrash = { folder: binned, document: await documentIn(o, binned) };
  await made(o.call(itemsApi.trash, { params: { id: binned } }), 200);
  const outsideFolder = await folderIn(colleague, ws, secretParent);
  const outside = { folder: outsideFolder, document: await documentIn(colleague, outsideFolder) };
  const newLink = (item: string) => made(o.call(linksApi.create, { params: { id: item }, body: { kind: 'view' } }));
  const live = linkToken(await newLink(linked));
  const gone = await folderIn(o, ws, o.workspace.rootId, `${HIDDEN} gone`);
  const trashed = linkToken(await newLink(gone));
  await made(o.call(itemsApi.trash, { params: { id: gone } }), 200);
  const revokedLink = await newLink(linked);
  await made(o.call(linksApi.revoke, { params: { id: linked, linkId: revokedLink.id } }), 204);
  visit = { live, trashed, revoked: linkToken(revokedLink), under, outside, inTrash };
});

describe.each(CALLERS)('visiting a link as %s', (who) => {
  for (const [name, entry] of Object.entries(VISITOR_ENTRIES)) {
    for (const place of PLACES) {
      if (place === 'outside the link' && !entry.item) continue;
      it(`${name}: ${place}`, async () => {
        const client = callFor(who);
        const token = place === 'revoked' ? visit.revoked : place === 'in the trash' && !entry.item ? visit.trashed : visit.live;
        const at = place === 'outside the link' ? visit.outside : place === 'in the trash' ? visit.inTrash : visit.under;
        const res = await entry.run(client, token, at);
        const status = place === 'under the link' ? entry.ok : place === 'revoked' ? 410 : 404;
        const label = `${who} ${name}: ${place}`;
        const text = textOf(res);
        expect(res.status, `${label}: ${text.slice(0, 300)}`).toBe(status);
        expect(text, `${label}: the answer names what the visitor may not see`).not.toContain(SECRET);
        expect(text, `${label}: the answer names what the visitor may not see`).not.toContain(HIDDEN);
        if (place === 'outside the link') {
          const absent = await entry.run(client, token, { folder: uuidv7(), document: uuidv7() });
          expect(res.error).toEqual({ ...absent.error, requestId: res.error?.requestId });
        }
      });
    }
  }
});

/**
 * Routes whose access is checked by role and relation elsewhere: the item calls in the items
 * matrix, uploads (private to whoever started them: a person, or a file request's link),
 * signing out (the session itself) and breaking a lock (by whose it is).
 */
const ITEMS_MATRIX = 'testing/item-matrix.ts';
const UPLOADS = 'modules/files/uploads.int.test.ts';
const VERSIONS = 'modules/files/versions.int.test.ts';
const ADMIN = 'modules/admin/admin.int.test.ts';
const FILE_REQUESTS = 'modules/links/file-requests.int.test.ts';
const CONVERSIONS = 'modules/conversions/conversions.int.test.ts';
const CONTENT_URLS = 'modules/files/content-url.int.test.ts';
const ELSEWHERE: Record<string, string> = {
  'POST /workspaces/:ws/items': ITEMS_MATRIX,
  'GET /workspaces/:ws/items/:id/children': ITEMS_MATRIX,
  'GET /items/:id': ITEMS_MATRIX,
  'PATCH /items/:id': ITEMS_MATRIX,
  'POST /items/:id/trash': ITEMS_MATRIX,
  'POST /items/:id/restore': ITEMS_MATRIX,
  'DELETE /items/:id': ITEMS_MATRIX,
  'GET /items/:id/ancestors': ITEMS_MATRIX,
  'POST /items/:id/copy': ITEMS_MATRIX,
  'PUT /items/:id/star': ITEMS_MATRIX,
  'DELETE /items/:id/star': ITEMS_MATRIX,
  'GET /items/:id/versions': ITEMS_MATRIX,
  'GET /items/:id/content': ITEMS_MATRIX,
  'GET /workspaces/:ws/zip': ITEMS_MATRIX,
  'GET /items/:id/export': ITEMS_MATRIX,
  'POST /workspaces/:ws/documents/import': ITEMS_MATRIX,
  'POST /workspaces/:ws/uploads': ITEMS_MATRIX,
  'POST /workspaces/:ws/uploads/batch': ITEMS_MATRIX,
  'GET /items/:id/revisions': ITEMS_MATRIX,
  'GET /items/:id/revisions/:revisionId': ITEMS_MATRIX,
  'POST /items/:id/revisions/:revisionId/restore': ITEMS_MATRIX,
  'GET /items/:id/comments': ITEMS_MATRIX,
  'POST /items/:id/comments': ITEMS_MATRIX,
  'PATCH /items/:id/comments/:commentId': ITEMS_MATRIX,
  'DELETE /items/:id/comments/:commentId': ITEMS_MATRIX,
  'GET /uploads/:id': UPLOADS,
  'POST /uploads/:id/parts': UPLOADS,
  'POST /uploads/:id/complete': UPLOADS,
  'POST /uploads/complete': UPLOADS,
  'DELETE /uploads/:id': UPLOADS,
  'POST /items/:id/versions': UPLOADS,
  // A file's versions, by role (editors name; managers restore and delete; others not at all).
  'PATCH /items/:id/versions/:versionId': VERSIONS,
  'DELETE /items/:id/versions/:versionId': VERSIONS,
  'POST /items/:id/versions/:versionId/restore': VERSIONS,
  'POST /auth/signout': 'modules/auth/auth.int.test.ts',
  'POST /links/:token/folders': FILE_REQUESTS,
  'POST /links/:token/uploads': FILE_REQUESTS,
  'GET /links/:token/uploads/:uploadId': FILE_REQUESTS,
  'POST /links/:token/uploads/:uploadId/parts': FILE_REQUESTS,
  'POST /links/:token/uploads/:uploadId/complete': FILE_REQUESTS,
  'DELETE /links/:token/uploads/:uploadId': FILE_REQUESTS,
  'GET /items/:id/preview/html': CONVERSIONS,
  'GET /items/:id/preview/sheets': CONVERSIONS,
  'GET /links/:token/items/:itemId/preview/html': CONVERSIONS,
  'GET /links/:token/items/:itemId/preview/sheets': CONVERSIONS,
  'GET /items/:id/content-url': CONTENT_URLS,
  'GET /links/:token/items/:itemId/content-url': CONTENT_URLS,
  // Who may see a thumbnail (member, guest with and without a grant, stranger, link visitor): with the previews.
  'GET /items/:id/thumbnail': 'modules/previews/previews.int.test.ts',
  'GET /links/:token/items/:itemId/thumbnail': 'modules/previews/previews.int.test.ts',
  // Breaking a WebDAV lock: its holder, the item's managers, the workspace's owner and admins, instance administrators.
  'DELETE /items/:id/lock': 'modules/dav/lock-in-browser.int.test.ts',
  // Account → Security (password, two-step sign-in, passkeys): the caller's own account at the embedded provider, from a
  // session only.
  ...Object.fromEntries(
    Object.values(securityApi).map((r) => [
      `${r.method} ${r.path}`,
      `modules/security/${r === securityApi.changePassword ? 'password' : r.path.startsWith('/account/passkeys') ? 'passkeys' : 'two-step'}.int.test.ts`,
    ]),
  ),
  // Instance administration: its administrators, then everyone else (workspace owners, no one signed in) refused.
  ...Object.fromEntries(Object.values(adminApi).map((r) => [`${r.method} ${r.path}`, ADMIN])),
};

/** Each declared route by the name a test calls it with (`authApi.signOut`). */
const declarationNames = new Map<RouteDeclaration, string>(
  Object.entries(routeAreas).flatMap(([area, routes]) =>
    Object.entries(routes as Record<string, RouteDeclaration>).map(([name, route]) => [route, `${area}.${name}`] as const),
  ),
);

describe('the matrices', () => {
  it('cover every declared route, and no route that is not declared', () => {
    const declared = allRoutes().map((r) => `${r.method} ${r.path}`);
    const covered = [
      ...Object.keys(ITEM_ENTRIES),
      ...Object.keys(WORKSPACE_ENTRIES).map((k) => k.split('?')[0]!),
      ...Object.keys(VISITOR_ENTRIES),
      ...Object.keys(ELSEWHERE),
    ];
    expect(
      declared.filter((d) => !covered.includes(d)),
      'routes with no entry in a matrix: add them',
    ).toEqual([]);
    expect(
      covered.filter((c) => !declared.includes(c)),
      'entries of routes no longer declared',
    ).toEqual([]);
    for (const [route, file] of Object.entries(ELSEWHERE)) {
      const where = path.join(import.meta.dirname, '..', file);
      expect(existsSync(where), `${route}: ${file}`).toBe(true);
      // The file calls the route: by its declaration, or by its path (the last fixed part of it is in the file).
      const declaration = allRoutes().find((r) => `${r.method} ${r.path}` === route)!;
      const fixed = route
        .split(' ')[1]!
        .split('/')
        .filter((part) => part && !part.startsWith(':'))
        .at(-1)!;
      const text = readFileSync(where, 'utf8');
      expect(text.includes(`${declarationNames.get(declaration)}`) || text.includes(fixed), `${route} in ${file}`).toBe(true);
    }
  });
});
