import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as contracts from '@cabinet/contracts';
import { allRoutes, uuidv7, type RouteDeclaration, type TWorkspaceAbilities, type TWorkspaceAbility } from '@cabinet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKey, encrypt, randomToken, sha256 } from '../lib/crypto.ts';
import { given, type Person } from '../testing/given.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
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

interface Res {
  status: number;
  body: any;
  text: string;
}
type Call = (method: string, path: string, body?: unknown) => Promise<Res>;

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
  run(call: Call, t: Target, who: Caller): Promise<Res>;
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

let t: TestApp;
let g: ReturnType<typeof given>;
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
/** A link's visitor: holds the password cookie of a link to an item of their own (not the one a call is about). */
let visitorCookie: string;

function caller(token: string | null, cookie?: string): Call {
  return async (method, p, body) => {
    const res = await fetch(`${t.url}/api/v1${p}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const type = res.headers.get('content-type') ?? '';
    // An event stream never ends: its status is all that is read.
    const text = type.includes('event-stream') ? (await res.body?.cancel(), '') : await res.text();
    return { status: res.status, text, body: text && type.includes('json') ? JSON.parse(text) : undefined };
  };
}

const callFor = (who: Caller): Call => (who === 'anonymous' ? caller(null) : who === 'visitor' ? caller(null, visitorCookie) : caller(people[who].token));

const made = async (p: Promise<Res>, status = 201) => {
  const res = await p;
  if (res.status !== status) throw new Error(`setting up: ${res.status} ${res.text}`);
  return res.body;
};
const folderIn = async (maker: Person, workspace: string, parentId: string, name = `f-${Math.random()}`) =>
  (await made(caller(maker.token)('POST', `/workspaces/${workspace}/items`, { kind: 'folder', name, parentId }))).id as string;

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
  if (relation !== 'not shared' && who !== 'outsider') await g.grant(item, { user: people[who] }, relation === 'shared' ? 'editor' : 'manager');
  return { ws, item, manager: colleague };
}

/** A link to the cell's item, made by its manager (or written directly for a guest's root, which no one may share). */
async function linkOn(tgt: Target): Promise<string> {
  if (tgt.absent) return uuidv7();
  if (tgt.manager) return (await made(caller(tgt.manager.token)('POST', `/items/${tgt.item}/links`, { kind: 'view' }))).id;
  const token = randomToken(32);
  const key = deriveKey(t.ctx.env.SESSION_SECRET, 'share-link-token');
  return (
    await insertLink(t.ctx.db, {
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
    t.ctx.db.selectFrom('item_grants').select('id').where('item_id', '=', tgt.item).where('principal_id', '=', bystander.id).executeTakeFirst();
  // A guest's root is the same for each of their cells: its grant may be there from one before.
  if (!(await find())) await g.grant(tgt.item, { user: bystander }, 'viewer');
  return (await find())!.id;
}

const owner = () => caller(people.owner.token);
const newGroup = async () => (await made(owner()('POST', `/workspaces/${ws}/groups`, { name: `Group ${Math.random()}` }))).id as string;
const newMember = async () => {
  const p = await g.person('Someone to change');
  await g.membership(p, ws, 'member');
  return p;
};

/** The item routes of sharing, links and activity, called on the cell's item. */
const ITEM_ENTRIES: Record<string, Entry> = {
  'GET /items/:id/grants': { rule: 'share', ok: 200, run: (c, x) => c('GET', `/items/${x.item}/grants`) },
  'POST /items/:id/grants': {
    rule: 'share',
    ok: 201,
    run: (c, x) => c('POST', `/items/${x.item}/grants`, { principal: { type: 'user', id: bystander.id }, role: 'viewer' }),
  },
  'PATCH /items/:id/grants/:grantId': {
    rule: 'share',
    ok: 200,
    run: async (c, x) => c('PATCH', `/items/${x.item}/grants/${await grantOn(x)}`, { role: 'editor' }),
  },
  'DELETE /items/:id/grants/:grantId': { rule: 'share', ok: 204, run: async (c, x) => c('DELETE', `/items/${x.item}/grants/${await grantOn(x)}`) },
  'GET /items/:id/links': { rule: 'share', ok: 200, run: (c, x) => c('GET', `/items/${x.item}/links`) },
  'POST /items/:id/links': { rule: 'share', ok: 201, run: (c, x) => c('POST', `/items/${x.item}/links`, { kind: 'view' }) },
  'PATCH /items/:id/links/:linkId': {
    rule: 'share',
    ok: 200,
    run: async (c, x) => c('PATCH', `/items/${x.item}/links/${await linkOn(x)}`, { downloadAllowed: false }),
  },
  'DELETE /items/:id/links/:linkId': { rule: 'share', ok: 204, run: async (c, x) => c('DELETE', `/items/${x.item}/links/${await linkOn(x)}`) },
  'GET /items/:id/activity': { rule: 'view', ok: 200, run: (c, x) => c('GET', `/items/${x.item}/activity`) },
  'GET /items/:id/search-text': { rule: 'view', ok: 200, run: (c, x) => c('GET', `/items/${x.item}/search-text`) },
};

/** The workspace routes: the team, groups, links and policy, the audit log; and what is the caller's own. */
const WORKSPACE_ENTRIES: Record<string, Entry> = {
  'GET /workspaces/:ws': { rule: 'in workspace', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}`) },
  'GET /workspaces/:ws/members': { rule: 'seeMembers', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/members`) },
  'GET /workspaces/:ws/members?include=deactivated': {
    rule: 'manageMembers',
    ok: 200,
    run: (c, x) => c('GET', `/workspaces/${x.ws}/members?include=deactivated`),
  },
  'PATCH /workspaces/:ws/members/:userId': {
    rule: 'manageMembers',
    ok: 200,
    run: async (c, x) => c('PATCH', `/workspaces/${x.ws}/members/${(await newMember()).id}`, { role: 'admin' }),
  },
  'DELETE /workspaces/:ws/members/:userId': {
    rule: 'manageMembers',
    ok: 204,
    run: async (c, x) => c('DELETE', `/workspaces/${x.ws}/members/${(await newMember()).id}?filesTo=${people.owner.id}`),
  },
  'GET /workspaces/:ws/invitations': { rule: 'manageMembers', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/invitations`) },
  'POST /workspaces/:ws/invitations': { rule: 'manageMembers', ok: 201, run: (c, x) => c('POST', `/workspaces/${x.ws}/invitations`, { role: 'member' }) },
  'DELETE /workspaces/:ws/invitations/:id': {
    rule: 'manageMembers',
    ok: 204,
    run: async (c, x) =>
      c('DELETE', `/workspaces/${x.ws}/invitations/${(await made(owner()('POST', `/workspaces/${ws}/invitations`, { role: 'member' }))).id}`),
  },
  'POST /workspaces/:ws/invitations/:id/resend': {
    rule: 'manageMembers',
    ok: 200,
    run: async (c, x) =>
      c(
        'POST',
        `/workspaces/${x.ws}/invitations/${(await made(owner()('POST', `/workspaces/${ws}/invitations`, { role: 'member', email: `${uuidv7()}@example.com` }))).id}/resend`,
      ),
  },
  'GET /workspaces/:ws/groups': { rule: 'seeMembers', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/groups`) },
  'POST /workspaces/:ws/groups': { rule: 'manageGroups', ok: 201, run: (c, x) => c('POST', `/workspaces/${x.ws}/groups`, { name: `New ${Math.random()}` }) },
  'PATCH /workspaces/:ws/groups/:groupId': {
    rule: 'manageGroups',
    ok: 200,
    run: async (c, x) => c('PATCH', `/workspaces/${x.ws}/groups/${await newGroup()}`, { name: `Renamed ${Math.random()}` }),
  },
  'DELETE /workspaces/:ws/groups/:groupId': {
    rule: 'manageGroups',
    ok: 204,
    run: async (c, x) => c('DELETE', `/workspaces/${x.ws}/groups/${await newGroup()}`),
  },
  'GET /workspaces/:ws/groups/:groupId/members': {
    rule: 'seeMembers',
    ok: 200,
    run: async (c, x) => c('GET', `/workspaces/${x.ws}/groups/${await newGroup()}/members`),
  },
  'POST /workspaces/:ws/groups/:groupId/members': {
    rule: 'manageGroups',
    ok: 200,
    run: async (c, x) => c('POST', `/workspaces/${x.ws}/groups/${await newGroup()}/members`, { userIds: [bystander.id] }),
  },
  'DELETE /workspaces/:ws/groups/:groupId/members/:userId': {
    rule: 'manageGroups',
    ok: 204,
    run: async (c, x) => {
      const group = await newGroup();
      await made(owner()('POST', `/workspaces/${ws}/groups/${group}/members`, { userIds: [bystander.id] }), 200);
      return c('DELETE', `/workspaces/${x.ws}/groups/${group}/members/${bystander.id}`);
    },
  },
  'GET /workspaces/:ws/shared': { rule: 'in workspace', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/shared`) },
  'GET /workspaces/:ws/links': { rule: 'manageLinks', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/links`) },
  'DELETE /workspaces/:ws/links/:linkId': {
    rule: 'manageLinks',
    ok: 204,
    run: async (c, x) =>
      c('DELETE', `/workspaces/${x.ws}/links/${await linkOn({ ws, item: await folderIn(colleague, ws, secretParent), manager: colleague })}`),
  },
  'GET /workspaces/:ws/link-policy': { rule: 'in workspace', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/link-policy`) },
  // Set to what it is, so the other cells meet the same policy.
  'PATCH /workspaces/:ws/link-policy': { rule: 'manageLinks', ok: 200, run: (c, x) => c('PATCH', `/workspaces/${x.ws}/link-policy`, { linksAllowed: true }) },
  'GET /workspaces/:ws/activity': { rule: 'readAudit', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/activity`) },
  'GET /workspaces/:ws/activity?format=csv': { rule: 'readAudit', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/activity?format=csv`) },
  // Looking for the very names nobody but their owner may find.
  'GET /workspaces/:ws/search-settings': { rule: 'in workspace', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/search-settings`) },
  // Set to what it is, so nothing is read again between cells.
  'PATCH /workspaces/:ws/search-settings': {
    rule: 'changeSettings',
    ok: 200,
    run: (c, x) => c('PATCH', `/workspaces/${x.ws}/search-settings`, { language: 'english' }),
  },
  'GET /workspaces/:ws/search': { rule: 'in workspace', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/search?q=${encodeURIComponent(SECRET)}`) },
  'GET /workspaces/:ws/trash': { rule: 'in workspace', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/trash`) },
  'POST /workspaces/:ws/trash/empty': { rule: 'in workspace', ok: 200, run: (c, x) => c('POST', `/workspaces/${x.ws}/trash/empty`) },
  'GET /workspaces/:ws/starred': { rule: 'in workspace', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/starred`) },
  'GET /workspaces/:ws/recent': { rule: 'in workspace', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/recent`) },
  'GET /workspaces/:ws/uploads': { rule: 'in workspace', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/uploads`) },
  'GET /workspaces/:ws/events': { rule: 'in workspace', ok: 200, run: (c, x) => c('GET', `/workspaces/${x.ws}/events`) },
  'GET /invitations/:token': { rule: 'anyone', ok: 200, run: (c) => c('GET', `/invitations/${inviteToken}`) },
  'POST /invitations/:token/accept': { rule: 'signed in', ok: 200, run: (c) => c('POST', `/invitations/${inviteToken}/accept`) },
  // What is the caller's own: themself, their sessions and tokens, their workspaces.
  'GET /config': { rule: 'anyone', ok: 200, run: (c) => c('GET', '/config') },
  'GET /openapi.json': { rule: 'anyone', ok: 200, run: (c) => c('GET', '/openapi.json') },
  'GET /me': { rule: 'signed in', ok: 200, run: (c) => c('GET', '/me') },
  // Their own name again, so the other cells meet the same people.
  'PATCH /me': { rule: 'signed in', ok: 200, run: (c, _x, who) => c('PATCH', '/me', { name: who.charAt(0).toUpperCase() + who.slice(1) }) },
  'GET /sessions': { rule: 'signed in', ok: 200, run: (c) => c('GET', '/sessions') },
  'POST /sessions/revoke-others': { rule: 'signed in', ok: 200, run: (c) => c('POST', '/sessions/revoke-others') },
  'GET /tokens': { rule: 'signed in', ok: 200, run: (c) => c('GET', '/tokens') },
  'POST /tokens': { rule: 'signed in', ok: 201, run: (c) => c('POST', '/tokens', { name: 'matrix' }) },
  'GET /workspaces': { rule: 'signed in', ok: 200, run: (c) => c('GET', '/workspaces') },
  // Notifications are the caller's own: a list, marks of read, a mail setting.
  'GET /notifications': { rule: 'signed in', ok: 200, run: (c) => c('GET', '/notifications') },
  'POST /notifications/read': { rule: 'signed in', ok: 200, run: (c) => c('POST', '/notifications/read', { all: true }) },
  'GET /me/notification-settings': { rule: 'signed in', ok: 200, run: (c) => c('GET', '/me/notification-settings') },
  'PATCH /me/notification-settings': { rule: 'signed in', ok: 200, run: (c) => c('PATCH', '/me/notification-settings', { emailUnread: true }) },
  'POST /workspaces': { rule: 'signed in', ok: 201, run: (c) => c('POST', '/workspaces', { name: `Matrix ${Math.random()}` }) },
  // Someone else's session or token is no one's to see or end but theirs.
  'DELETE /sessions/:id': {
    rule: 'nobody else',
    ok: 204,
    run: async (c) => c('DELETE', `/sessions/${colleagueSession}`),
  },
  'DELETE /tokens/:id': {
    rule: 'nobody else',
    ok: 204,
    run: async (c) =>
      c('DELETE', `/tokens/${(await t.ctx.db.selectFrom('api_tokens').select('id').where('user_id', '=', colleague.id).executeTakeFirstOrThrow()).id}`),
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
  if (!mayRead) expect(res.text, `${label}: the answer names what the caller may not see`).not.toContain(SECRET);
  if (res.status >= 400) {
    expect(res.body?.error?.code, `${label}: an error in the envelope`).toEqual(expect.any(String));
    expect(res.text).not.toContain(colleague.id);
  }
}

async function checkCell(entry: Entry, who: Caller, relation: Relation | null, label: string) {
  const call = callFor(who);
  const tgt = relation ? await itemFor(who, relation) : { ws, item: '', manager: null };
  const res = await entry.run(call, tgt, who);
  const status = expected(entry.rule, who, relation, entry.ok);
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBe(status);
  // The workspace told the caller beforehand whether this call would be theirs to make.
  if (isAbility(entry.rule) && who in reported)
    expect(reported[who as InWorkspace][entry.rule], `${label}: the ability reported`).toBe(res.status === entry.ok);
  checkNoLeak(res, who, entry.rule, label);
  if (status === 404 && entry.rule !== 'nobody else') {
    // Not seeing something and its not existing answer alike: the same code, message and details.
    const absent = await entry.run(call, nowhere(tgt), who);
    expect(absent.status, `${label}, on nothing`).toBe(404);
    expect(res.body.error).toEqual({ ...absent.body.error, requestId: res.body.error.requestId });
  }
}

beforeAll(async () => {
  t = await startTestApp();
  g = given(t.ctx, t.url);
  const o = await g.person('Owner');
  ws = o.workspace.id;
  const [admin, member, guest, outsider] = await Promise.all(['Admin', 'Member', 'Guest', 'Outsider'].map((n) => g.person(n)));
  people = { owner: o, admin: admin!, member: member!, guest: guest!, outsider: outsider! };
  homes = {
    owner: o.workspace.homeId,
    admin: await g.membership(admin!, ws, 'admin'),
    member: await g.membership(member!, ws, 'member'),
    guest: await g.membership(guest!, ws, 'guest'),
  };
  colleague = await g.person('Colleague');
  colleagueHome = await g.membership(colleague, ws, 'member');
  colleagueSession = (
    await insertSession(t.ctx.db, {
      tokenHash: sha256(randomToken()),
      userId: colleague.id,
      userAgent: null,
      ip: null,
      expiresAt: new Date(Date.now() + 86_400_000),
      idTokenSealed: null,
      refreshTokenSealed: null,
    })
  ).id;
  bystander = await g.person('Bystander');
  await g.membership(bystander, ws, 'member');
  // A guest is in the workspace while something in it is shared with them.
  await g.grant(await folderIn(o, ws, o.workspace.rootId, 'For the guest'), { user: guest! }, 'viewer');
  // Everything of the colleague's sits in a folder no caller is shown, shared with someone else (a grant above that who-has-access must not reveal).
  secretParent = await folderIn(colleague, ws, colleagueHome, `${SECRET} parent`);
  await g.grant(secretParent, { user: bystander }, 'viewer');
  const elsewhere = await g.person('Elsewhere');
  inviteToken = (await made(caller(elsewhere.token)('POST', `/workspaces/${elsewhere.workspace.id}/invitations`, { role: 'member' }))).url.split('/invite/')[1];
  const visited = await folderIn(o, ws, o.workspace.rootId, 'The visitor’s folder');
  const link = await made(owner()('POST', `/items/${visited}/links`, { kind: 'view', password: 'visitor password' }));
  const token = link.url.split('/s/')[1];
  const unlocked = await fetch(`${t.url}/api/v1/links/${token}/unlock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: 'visitor password' }),
  });
  visitorCookie = unlocked.headers.getSetCookie()[0]!.split(';')[0]!;
  const roles: InWorkspace[] = ['owner', 'admin', 'member', 'guest'];
  reported = Object.fromEntries(
    await Promise.all(roles.map(async (who) => [who, (await made(caller(people[who].token)('GET', `/workspaces/${ws}`), 200)).abilities])),
  );
});
afterAll(() => t.close());

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
      const listed = (await made(caller(people[who].token)('GET', '/workspaces'), 200)).items.find((w: { id: string }) => w.id === ws);
      expect(listed.abilities, `${who} in the list`).toEqual(reported[who]);
    }
    expect((await caller(people.outsider.token)('GET', `/workspaces/${ws}`)).status).toBe(404);
    expect((await made(caller(people.outsider.token)('GET', '/workspaces'), 200)).items.map((w: { id: string }) => w.id)).not.toContain(ws);
    // A new workspace is its maker's to run.
    expect((await made(owner()('POST', '/workspaces', { name: `Abilities ${Math.random()}` }))).abilities).toEqual(asExpected('owner'));
  });

  // The abilities no call of the matrix above asks for: each holds exactly when the API allows what it names.
  it.each(roles)('hold exactly when the API allows, as %s: creating in the roots, the usage, handing over', async (who) => {
    const call = caller(people[who].token);
    const w = people.owner.workspace;
    for (const root of [w.rootId, homes[who]]) {
      const res = await call('POST', `/workspaces/${ws}/items`, { kind: 'folder', name: `In a root ${Math.random()}`, parentId: root });
      expect(res.status === 201, `${who} creating in ${root === w.rootId ? 'the shared root' : 'My files'}: ${res.text}`).toBe(reported[who].createInRoots);
    }
    const seen = (await made(call('GET', `/workspaces/${ws}`), 200)) as { usedBytes: number | null; quotaBytes: number | null };
    expect(seen.usedBytes !== null, `${who} seeing the usage`).toBe(reported[who].seeUsage);
    if (!reported[who].seeUsage) expect(seen.quotaBytes).toBeNull();
    const heir = await newMember();
    const handed = await call('PATCH', `/workspaces/${ws}/members/${heir.id}`, { role: 'owner' });
    expect(handed.status === 200, `${who} handing over: ${handed.text}`).toBe(reported[who].handOver);
    // Handed back, so the other cells meet the same owner.
    if (handed.status === 200) await made(caller(heir.token)('PATCH', `/workspaces/${ws}/members/${people[who].id}`, { role: 'owner' }), 200);
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
  run(call: Call, token: string, o: { folder: string; document: string }): Promise<Res>;
}

const VISITOR_ENTRIES: Record<string, VisitorEntry> = {
  'GET /links/:token': { ok: 200, item: false, run: (c, token) => c('GET', `/links/${token}`) },
  'POST /links/:token/unlock': { ok: 204, item: false, run: (c, token) => c('POST', `/links/${token}/unlock`, { password: 'any password' }) },
  'GET /links/:token/items/:itemId': { ok: 200, item: true, run: (c, token, o) => c('GET', `/links/${token}/items/${o.folder}`) },
  'GET /links/:token/items/:itemId/content': { ok: 200, item: true, run: (c, token, o) => c('GET', `/links/${token}/items/${o.folder}/content`) },
  'GET /links/:token/items/:itemId/document': { ok: 200, item: true, run: (c, token, o) => c('GET', `/links/${token}/items/${o.document}/document`) },
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
  const c = owner();
  const documentIn = async (maker: Person, parentId: string) =>
    (await made(caller(maker.token)('POST', `/workspaces/${ws}/items`, { kind: 'document', name: `${HIDDEN} doc ${Math.random()}`, parentId }))).id as string;
  const linked = await folderIn(o, ws, o.workspace.rootId, 'Linked');
  const under = {
    folder: linked,
    document: (await made(c('POST', `/workspaces/${ws}/items`, { kind: 'document', name: 'Notes', parentId: linked }))).id as string,
  };
  const binned = await folderIn(o, ws, linked, `${HIDDEN} binned`);
  const inTrash = { folder: binned, document: await documentIn(o, binned) };
  await made(c('POST', `/items/${binned}/trash`), 200);
  const outsideFolder = await folderIn(colleague, ws, secretParent);
  const outside = { folder: outsideFolder, document: await documentIn(colleague, outsideFolder) };
  const tokenOf = async (item: string) => ((await made(c('POST', `/items/${item}/links`, { kind: 'view' }))).url as string).split('/s/')[1]!;
  const live = await tokenOf(linked);
  const gone = await folderIn(o, ws, o.workspace.rootId, `${HIDDEN} gone`);
  const trashed = await tokenOf(gone);
  await made(c('POST', `/items/${gone}/trash`), 200);
  const revokedLink = await made(c('POST', `/items/${linked}/links`, { kind: 'view' }));
  await made(c('DELETE', `/items/${linked}/links/${revokedLink.id}`), 204);
  visit = { live, trashed, revoked: (revokedLink.url as string).split('/s/')[1]!, under, outside, inTrash };
});

describe.each(CALLERS)('visiting a link as %s', (who) => {
  for (const [name, entry] of Object.entries(VISITOR_ENTRIES)) {
    for (const place of PLACES) {
      if (place === 'outside the link' && !entry.item) continue;
      it(`${name}: ${place}`, async () => {
        const call = callFor(who);
        const token = place === 'revoked' ? visit.revoked : place === 'in the trash' && !entry.item ? visit.trashed : visit.live;
        const at = place === 'outside the link' ? visit.outside : place === 'in the trash' ? visit.inTrash : visit.under;
        const res = await entry.run(call, token, at);
        const status = place === 'under the link' ? entry.ok : place === 'revoked' ? 410 : 404;
        const label = `${who} ${name}: ${place}`;
        expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBe(status);
        expect(res.text, `${label}: the answer names what the visitor may not see`).not.toContain(SECRET);
        expect(res.text, `${label}: the answer names what the visitor may not see`).not.toContain(HIDDEN);
        if (place === 'outside the link') {
          const absent = await entry.run(call, token, { folder: uuidv7(), document: uuidv7() });
          expect(res.body.error).toEqual({ ...absent.body.error, requestId: res.body.error.requestId });
        }
      });
    }
  }
});

/**
 * Routes whose access is checked by role and relation elsewhere: the item calls in the items
 * matrix, uploads (private to whoever started them: a person, or a file request's link) and
 * signing out (the session itself).
 */
const ITEMS_MATRIX = 'testing/item-matrix.ts';
const UPLOADS = 'modules/files/uploads.int.test.ts';
const FILE_REQUESTS = 'modules/links/file-requests.int.test.ts';
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
  'POST /auth/signout': 'modules/auth/auth.int.test.ts',
  'POST /links/:token/uploads': FILE_REQUESTS,
  'GET /links/:token/uploads/:uploadId': FILE_REQUESTS,
  'POST /links/:token/uploads/:uploadId/parts': FILE_REQUESTS,
  'POST /links/:token/uploads/:uploadId/complete': FILE_REQUESTS,
  'DELETE /links/:token/uploads/:uploadId': FILE_REQUESTS,
};

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
    // Each route's declaration by the name a test calls it with: `<area>Api.<name>`.
    const declarationNames = new Map<string, string>();
    for (const [area, declarations] of Object.entries(contracts)) {
      if (!area.endsWith('Api')) continue;
      for (const [name, route] of Object.entries(declarations as Record<string, RouteDeclaration>)) {
        declarationNames.set(`${route.method} ${route.path}`, `${area}.${name}`);
      }
    }
    for (const [route, file] of Object.entries(ELSEWHERE)) {
      const where = path.join(import.meta.dirname, '..', file);
      expect(existsSync(where), `${route}: ${file}`).toBe(true);
      // The file calls the route through its declaration (`itemsApi.restore`).
      expect(readFileSync(where, 'utf8'), `${route} in ${file}`).toContain(declarationNames.get(route));
    }
  });
});
