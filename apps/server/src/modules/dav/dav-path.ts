/**
 * Paths under `/dav/`: a request target (or a Destination, or an If header's tag) taken apart into names, and names
 * put back together as the hrefs Cabinet answers with. Read from the raw target, as sent: a router would have cut it
 * at `#` or decoded `%2F` into a separator.
 */

export const DAV_PREFIX = '/dav';

/** A target that is not a path Cabinet could hold: answered 400. */
export class DavPathInvalid extends Error {}
/** A Destination on another server, or outside `/dav/`: answered 502 (RFC 4918 §9.8.5). */
export class DavPathElsewhere extends Error {}

export interface DavPath {
  /** The names below `/dav/`, percent-decoded and NFC-normalised: [workspace slug, root, …names]. */
  names: string[];
  /** Whether the target ended with `/` (a client's way to name a collection; resolution ignores it). */
  slash: boolean;
}

// Control characters (C0, DEL, C1), which no name may hold (PRODUCT.md §5): a path naming one can only be refused.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The names of an absolute path under /dav/ (query left out). */
export function davPath(target: string): DavPath {
  const path = target.split('?', 1)[0]!;
  if (path.includes('#')) throw new DavPathInvalid('A path may not hold a fragment (#).');
  if (path !== DAV_PREFIX && !path.startsWith(`${DAV_PREFIX}/`)) throw new DavPathElsewhere('The path is not under /dav/.');
  const rest = path.slice(DAV_PREFIX.length + 1);
  const slash = path.endsWith('/') || path === DAV_PREFIX;
  const raw = rest === '' ? [] : (slash ? rest.slice(0, -1) : rest).split('/');
  const names = raw.map((segment) => {
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      throw new DavPathInvalid('The path is not percent-encoded UTF-8.');
    }
    if (name === '' || name === '.' || name === '..') throw new DavPathInvalid('A path may not hold empty, "." or ".." segments.');
    if (name.includes('/') || CONTROL.test(name)) throw new DavPathInvalid('A name in the path holds "/" or a control character.');
    return name.normalize('NFC');
  });
  return { names, slash };
}

/**
 * A Destination header or an If header's tag: an absolute URI on this server (`host`, as the request's Host header
 * names it), or an absolute path.
 */
export function davPathOf(reference: string, host: string | undefined): DavPath {
  if (reference.startsWith('/')) return davPath(reference);
  // The path is taken as sent: a URL parser would resolve dot segments and backslashes that davPath refuses.
  const parts = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(reference);
  if (!parts) throw new DavPathInvalid('The destination is neither an absolute URI nor an absolute path.');
  const there = /^https?$/i.test(parts[1]!) ? hostOf(parts[1]!, parts[2]!) : '';
  if (!there || !host || there !== hostOf(parts[1]!, host)) throw new DavPathElsewhere('The destination is on another server.');
  return davPath(parts[3] || '/');
}

/** A host and port as URLs compare them (case, the scheme's default port left out); '' for none that parses. */
function hostOf(scheme: string, authority: string): string {
  try {
    const url = new URL(`${scheme.toLowerCase()}://${authority}/`);
    return url.username || url.password ? '' : url.host;
  } catch {
    return '';
  }
}

/** The href of names under /dav/, each percent-encoded, with `/` after a collection's. */
export function davHref(names: string[], collection: boolean): string {
  const path = [DAV_PREFIX, ...names.map((n) => encodeURIComponent(n))].join('/');
  return collection ? `${path}/` : path;
}
