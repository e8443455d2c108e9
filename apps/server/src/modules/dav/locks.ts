import { randomUUID } from 'node:crypto';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { lockItem } from '../items/index.ts';
import { uploadThrough } from '../files/index.ts';
import { header, type Conditions, type DavCall } from './dav-call.ts';
import { davHref, davPathOf } from './dav-path.ts';
import { isCollection, newPlaceOf, resolve, type DavResource, type ItemResource, type Resolved } from './dav-resources.ts';
import { countOwnLocks, deleteLock, findLocksAround, findLocksOn, insertLock, refreshLock, type LockAround, type LockRow } from './dav.repo.ts';
import { ifHeaderHolds, parseIfHeader, submittedTokens, type IfCondition } from './if-header.ts';
import { etagOf } from './live-props.ts';
import { activeLock, lockDepth, lockSeconds, readLockInfo } from './lock-info.ts';
import { DavRefusal, isAppError } from './refusal.ts';
import { d, writeXml, type XmlElement } from './xml-write.ts';

/** Live locks one person may hold at once: a client cannot fill the table. */
export const MAX_OWN_LOCKS = 1000;
/** Shared locks one resource may have at once, and the largest owner a lock keeps: every listing shows them. */
export const MAX_SHARED_LOCKS = 20;
export const MAX_OWNER_BYTES = 4096;
/** Most resources an If header's tagged lists may name (each is looked up). */
export const MAX_IF_RESOURCES = 10;

/** The names of a path or URI on this server (its Host, or PUBLIC_URL's host behind a proxy); null for one elsewhere or invalid. */
export function pathOnThisServer(call: DavCall, reference: string): string[] | null {
  for (const host of [call.req.headers.host, new URL(call.ctx.env.PUBLIC_URL).host]) {
    try {
      return davPathOf(reference, host).names;
    } catch {
      // Tried with the next host; none: elsewhere.
    }
  }
  return null;
}

/** Refuses a lock past the person's bound (their expired ones cleared on the way). */
export async function requireLockRoom(db: Db, userId: string): Promise<void> {
  if ((await countOwnLocks(db, userId)) >= MAX_OWN_LOCKS) {
    throw new AppError('rate_limited', `You hold ${MAX_OWN_LOCKS} locks: unlock some first.`, { retryAfter: 60 });
  }
}

/** A lock's owner as kept: the element the client sent, within its bound (400 past it). */
export function ownerOf(owner: XmlElement | undefined): string | null {
  if (!owner) return null;
  const kept = JSON.stringify(owner);
  if (Buffer.byteLength(writeXml(owner)) > MAX_OWNER_BYTES) throw new DavRefusal(400, `A lock's owner is at most ${MAX_OWNER_BYTES} bytes.`);
  return kept;
}

export function conditionsOf(value: string | undefined): Conditions {
  const lists = value ? parseIfHeader(value) : [];
  return { lists, submitted: submittedTokens(lists) };
}

/** The client a lock was taken with, by its user agent, for "Locked by Bob (Finder)". */
export function clientName(userAgent: string | undefined): string | null {
  if (!userAgent) return null;
  if (/WebDAVFS|WebDAVLib|Darwin/i.test(userAgent)) return 'Finder';
  if (/Microsoft-WebDAV-MiniRedir/i.test(userAgent)) return 'Windows';
  if (/rclone/i.test(userAgent)) return 'rclone';
  if (/litmus|neon/i.test(userAgent)) return 'litmus';
  return userAgent.split(/[\s/]/, 1)[0]!.slice(0, 40) || null;
}

/**
 * The locks bearing on a resource, those it would take to change it: an item's own, its folders' deep ones and, for a
 * change that takes it away (`below`), those of anything under it; nothing locks the list of workspaces or a workspace.
 */
async function locksAround(call: DavCall, r: DavResource, below: boolean): Promise<LockAround[]> {
  if (r.kind !== 'item') return [];
  // The walk of this request's path saw no live lock on the item or above it: none bears on it (those below it aside).
  if (!below && r.access?.lockedAlong === false) return [];
  return findLocksAround(call.ctx.db, r.item.id, { below });
}

/** The path a lock's root is shown at to this request: worked out from the path asked where it runs through it. */
function rootHref(r: DavResource | undefined, lock: LockAround | LockRow): string {
  if (r && 'relation' in lock && lock.relation !== 'below') {
    const names = r.names.slice(0, r.names.length - lock.distance);
    const shallowest = r.kind === 'item' && r.place === 'shared' ? 3 : 2;
    if (names.length >= shallowest) return davHref(names, lock.distance > 0 || (r.kind !== 'item' ? true : r.item.kind === 'folder'));
  }
  return lock.href;
}

export const shownLock = (r: DavResource | undefined, lock: LockAround | LockRow): XmlElement =>
  activeLock({
    token: lock.token,
    scope: lock.scope,
    depth: lock.deep ? 'infinity' : 0,
    owner: (lock.owner as XmlElement | null) ?? undefined,
    secondsLeft: (new Date(lock.expires_at).getTime() - Date.now()) / 1000,
    rootHref: rootHref(r, lock),
  });

/** The locks a listing shows on each resource: those on each member, and the deep ones over the listed collection. */
export async function lockDiscovery(call: DavCall, top: DavResource, members: DavResource[]): Promise<Map<DavResource, XmlElement[]>> {
  const shown = new Map<DavResource, XmlElement[]>();
  const over = await locksAround(call, top, false);
  shown.set(
    top,
    over.map((l) => shownLock(top, l)),
  );
  if (!members.length) return shown;
  const ids = members.flatMap((m) => (m.kind === 'item' ? [m.item.id] : []));
  const own = await findLocksOn(call.ctx.db, ids);
  for (const m of members) {
    const inherited = over.filter((l) => l.deep).map((l) => shownLock(m, { ...l, distance: l.distance + 1, relation: 'above' }));
    const mine = m.kind === 'item' ? own.filter((l) => l.item_id === m.item.id).map((l) => shownLock(m, { ...l, distance: 0, relation: 'on' })) : [];
    shown.set(m, [...mine, ...inherited]);
  }
  return shown;
}

/**
 * The `If` header checked against what it names (RFC 4918 §10.4): a state token holds where a live lock bearing on
 * the resource has it, an entity tag where it is the resource's. False → 412 Precondition Failed.
 */
export async function requireConditions(call: DavCall, target: Resolved): Promise<void> {
  const { conditions } = call;
  if (!conditions.lists.length) return;
  if (new Set(conditions.lists.map((l) => l.resource)).size > MAX_IF_RESOURCES) {
    throw new DavRefusal(400, `An If header names at most ${MAX_IF_RESOURCES} resources.`);
  }
  const cache = new Map<string | null, Promise<{ r: DavResource | undefined; tokens: Set<string> }>>();
  const stateOf = (resource: string | null) => {
    let state = cache.get(resource);
    if (!state) {
      state = (async () => {
        const names = resource === null ? undefined : pathOnThisServer(call, resource);
        // A resource on another server, or no path Cabinet could hold: nothing of it holds here.
        if (names === null) return { r: undefined, tokens: new Set<string>() };
        const there = names === undefined ? target : await resolve(call.ctx.db, call.actor, names);
        const r = 'found' in there ? there.found : undefined;
        const parent = 'missing' in there ? there.missing.parent : null;
        const locks = r ? await locksAround(call, r, false) : parent ? (await locksAround(call, parent, false)).filter((l) => l.deep) : [];
        return { r, tokens: new Set(locks.map((l) => l.token)) };
      })();
      cache.set(resource, state);
    }
    return state;
  };
  const holds = async (resource: string | null, c: IfCondition) => {
    const { r, tokens } = await stateOf(resource);
    if (c.kind === 'token') return tokens.has(c.value);
    return r?.kind === 'item' && c.value.replace(/^W\//, '') === etagOf(r.item);
  };
  if (!(await ifHeaderHolds(conditions.lists, holds))) throw new DavRefusal(412, 'A condition of the If header does not hold.');
}

/**
 * Refuses a change that locks stand in the way of (423, naming the lock's root), unless the request submits each such
 * lock's token (for shared locks, one of them) and is from the person who holds it. `taking`: the change takes the
 * resource away (a delete, a move's source), so locks under it count too; `members`: it adds to or takes from a
 * folder's members, which the folder's own lock protects.
 */
export async function requireUnlocked(call: DavCall, r: DavResource, o: { taking?: boolean } = {}): Promise<void> {
  const { conditions } = call;
  const locks = await locksAround(call, r, o.taking ?? false);
  const held = (l: LockAround) => conditions.submitted.has(l.token) && l.user_id === call.actor.user.id;
  const blocking = locks.filter((l) => !held(l));
  // Shared locks on one resource: the token of any one of them is enough (RFC 4918 §6.2).
  const sharedHeld = new Set(locks.filter((l) => l.scope === 'shared' && held(l)).map((l) => l.item_id));
  const refused = blocking.find((l) => !(l.scope === 'shared' && sharedHeld.has(l.item_id)));
  if (refused) {
    throw new DavLocked(rootHref(r, refused));
  }
}

/** 423 Locked, with the lock's root as the precondition's detail (`<d:lock-token-submitted><d:href>`). */
export class DavLocked extends DavRefusal {
  constructor(readonly href: string) {
    super(423, 'It is locked: send the lock token in an If header.', d('lock-token-submitted', d('href', href)));
  }
}

/**
 * LOCK (RFC 4918 §9.10): a new write lock — exclusive, or shared with other shared ones — on a resource, or on a name
 * that has none yet (an empty file is made there, 201), answered with its `Lock-Token`; or, with no body, a refresh of
 * a lock whose token the `If` header submits.
 */
export async function lock(call: DavCall, target: Resolved, body: XmlElement | undefined): Promise<void> {
  const { ctx, actor, reply, conditions } = call;
  const seconds = lockSeconds(header(call, 'timeout'));
  if (!body) {
    if (!('found' in target)) throw new DavRefusal(412, 'There is no lock here to refresh.');
    const around = await locksAround(call, target.found, false);
    const mine = around.find((l) => conditions.submitted.has(l.token) && l.user_id === actor.user.id);
    if (!mine) throw new DavRefusal(412, 'Refresh a lock by sending its token in an If header.', d('lock-token-submitted'));
    const refreshed = await refreshLock(ctx.db, mine.token, seconds);
    if (!refreshed) throw new DavRefusal(412, 'The lock has expired.');
    sendDiscovery(call, shownLock(target.found, { ...refreshed, relation: mine.relation, distance: mine.distance }), 200);
    return;
  }
  const info = readLockInfo(body);
  const depth = lockDepth(header(call, 'depth'));
  const client = clientName(call.req.headers['user-agent']);
  // The person's count first: nothing is made for a lock that cannot be had.
  await requireLockRoom(ctx.db, actor.user.id);
  let r: DavResource;
  let created = false;
  if ('found' in target) r = target.found;
  else {
    const { parent, name } = newPlaceOf(target.missing);
    await requireUnlocked(call, parent);
    try {
      await uploadThrough(ctx, actor, parent.workspace.id, { parentId: parent.item.id, name, size: 0, onConflict: 'fail' }, emptyBody());
    } catch (error) {
      // Made meanwhile by someone else: it is theirs, not an empty file of this lock's.
      if (isAppError(error, 'name_conflict')) throw new DavRefusal(409, 'Something of that name was made meanwhile: try again.');
      throw error;
    }
    const made = await resolve(ctx.db, actor, [...parent.names, name]);
    if (!('found' in made)) throw new DavRefusal(409, 'The new file went away at once.');
    r = made.found;
    created = true;
  }
  if (r.kind !== 'item') throw new DavRefusal(403, 'Only files, folders and documents can be locked.');
  const item = (r as ItemResource).item;
  if (!((r as ItemResource).isPlace ? item.abilities.createInside : item.abilities.edit)) throw new AppError('forbidden');
  const token = `urn:uuid:${randomUUID()}`;
  const href = davHref(r.names, isCollection(r));
  // Looked at and taken under the item's row lock: two exclusive locks asked for at once are one lock and a 423.
  const row = await inTransaction(ctx.db, async (tx) => {
    await lockItem(tx, item.id);
    const around = await findLocksAround(tx, item.id, { below: depth === 'infinity' });
    const conflict = around.find((l) => l.scope === 'exclusive' || info.scope === 'exclusive');
    if (conflict) throw new DavLocked(rootHref(r, conflict));
    if (around.filter((l) => l.relation === 'on').length >= MAX_SHARED_LOCKS) throw new DavLocked(rootHref(r, around[0]!));
    return insertLock(tx, {
      token,
      item_id: item.id,
      user_id: actor.user.id,
      scope: info.scope,
      deep: depth === 'infinity' && item.kind === 'folder',
      href,
      owner: ownerOf(info.owner),
      client,
      timeout_seconds: seconds,
      expires_at: new Date(Date.now() + seconds * 1000),
    });
  });
  reply.header('lock-token', `<${token}>`);
  sendDiscovery(call, shownLock(r, { ...row, relation: 'on', distance: 0 }), created ? 201 : 200);
}

function sendDiscovery(call: DavCall, active: XmlElement, status: number) {
  const answer = writeXml(d('prop', d('lockdiscovery', active)));
  call.reply.code(status).type('application/xml; charset=utf-8').send(answer);
}

/**
 * UNLOCK (RFC 4918 §9.11): the lock named by `Lock-Token` taken away, when it bears on the resource (409 otherwise)
 * and its holder asks (403 for anyone else).
 */
export async function unlock(call: DavCall, target: Resolved): Promise<void> {
  const named = /^\s*<([^>\s]+)>\s*$/.exec(header(call, 'lock-token') ?? '');
  if (!named) throw new DavRefusal(400, 'Name the lock to remove in a Lock-Token header: <token>.');
  if (!('found' in target)) throw new DavRefusal(404, 'Nothing is there.');
  const around = await locksAround(call, target.found, false);
  const lockFound = around.find((l) => l.token === named[1]);
  if (!lockFound) throw new DavRefusal(409, 'That lock does not bear on this resource.', d('lock-token-matches-request-uri'));
  if (lockFound.user_id !== call.actor.user.id) throw new AppError('forbidden', 'Only who took a lock can remove it.');
  await deleteLock(call.ctx.db, lockFound.token);
  call.reply.code(204).send();
}

async function* emptyBody(): AsyncGenerator<Buffer> {}
