import { d, DAV, type XmlElement } from './xml-write.ts';

/** A LOCK request's body or headers that WebDAV does not allow: answered 400. */
export class LockRequestInvalid extends Error {}

export type LockScope = 'exclusive' | 'shared';

/** What a LOCK asks for (RFC 4918 §14.11): the scope, and the owner as the client wrote it (given back verbatim). */
export interface LockInfo {
  scope: LockScope;
  owner: XmlElement | undefined;
}

/** A lock as the lock discovery property shows it. */
export interface ActiveLock {
  token: string;
  scope: LockScope;
  depth: 0 | 'infinity';
  owner: XmlElement | undefined;
  /** Seconds left, whole. */
  secondsLeft: number;
  rootHref: string;
}

export const LOCK_SECONDS = { least: 60, most: 3600 } as const;

const child = (e: XmlElement, local: string) => e.children.find((c): c is XmlElement => typeof c !== 'string' && c.ns === DAV && c.local === local);
const elements = (e: XmlElement) => e.children.filter((c): c is XmlElement => typeof c !== 'string');

/** The `<lockinfo>` of a LOCK that makes a lock; a write lock, exclusive or shared. */
export function readLockInfo(body: XmlElement): LockInfo {
  if (body.ns !== DAV || body.local !== 'lockinfo') throw new LockRequestInvalid('A LOCK body is a DAV:lockinfo.');
  const scope = child(body, 'lockscope');
  const type = child(body, 'locktype');
  const scopes = scope ? elements(scope).filter((e) => e.ns === DAV && (e.local === 'exclusive' || e.local === 'shared')) : [];
  if (scopes.length !== 1) throw new LockRequestInvalid('A lock is exclusive or shared.');
  if (!type || !elements(type).some((e) => e.ns === DAV && e.local === 'write')) throw new LockRequestInvalid('Only write locks exist.');
  return { scope: scopes[0]!.local as LockScope, owner: child(body, 'owner') };
}

/** The `Depth` of a LOCK: infinity when missing, else 0 or infinity (RFC 4918 §9.10.3). */
export function lockDepth(header: string | undefined): 0 | 'infinity' {
  if (header === undefined || header.trim().toLowerCase() === 'infinity') return 'infinity';
  if (header.trim() === '0') return 0;
  throw new LockRequestInvalid('A lock has Depth 0 or infinity.');
}

/** The first timeout of a `Timeout` header Cabinet can give, held to 60 s–1 h; an hour when none is asked. */
export function lockSeconds(header: string | undefined): number {
  for (const part of (header ?? '').split(',')) {
    const t = part.trim();
    if (/^infinite$/i.test(t)) return LOCK_SECONDS.most;
    const n = /^Second-(\d{1,10})$/i.exec(t);
    if (n) return Math.min(LOCK_SECONDS.most, Math.max(LOCK_SECONDS.least, Number(n[1])));
  }
  return LOCK_SECONDS.most;
}

/** One `<activelock>`: every field WebDAV clients read, each value without surrounding whitespace. */
export function activeLock(lock: ActiveLock): XmlElement {
  return d(
    'activelock',
    d('locktype', d('write')),
    d('lockscope', d(lock.scope)),
    d('depth', lock.depth === 0 ? '0' : 'infinity'),
    lock.owner,
    d('timeout', `Second-${Math.max(0, Math.floor(lock.secondsLeft))}`),
    d('locktoken', d('href', lock.token)),
    d('lockroot', d('href', lock.rootHref)),
  );
}

/** What locks a resource supports: a write lock, exclusive or shared. */
export const supportedLock = () =>
  d('supportedlock', ...(['exclusive', 'shared'] as const).map((scope) => d('lockentry', d('lockscope', d(scope)), d('locktype', d('write')))));
