import type { TItem } from '@cabinet/contracts';
import { isCollection, shownName, type DavResource } from './dav-resources.ts';
import type { PropName } from './prop-requests.ts';
import { supportedLock } from './lock-info.ts';
import { d, DAV, element, type XmlElement } from './xml-write.ts';

/** An item's entity tag: it changes with every change of its bytes, name or place (its version and time). */
export const etagOf = (item: Pick<TItem, 'id' | 'version' | 'updatedAt'>) => `"${item.id}-${item.version}-${Date.parse(item.updatedAt).toString(36)}"`;

/** What a resource's live properties are read from beyond the resource itself. */
export interface PropContext {
  /** A document's Markdown length, when it is known (a request about the document alone renders it). */
  documentLength?: number | undefined;
  /** When a client says the file was last changed (X-OC-Mtime), shown as its modification time. */
  modifiedAt?: Date | undefined;
  /** The locks on it, as `<activelock>` elements. */
  locks?: XmlElement[];
  /** The file's digests as clients compare by them (`SHA1:<hex> MD5:<hex>`), where it was sent through WebDAV. */
  checksums?: string | undefined;
}

/** ownCloud's namespace, whose properties its clients and rclone ask for. */
export const OC = 'http://owncloud.org/ns';

type Live = (r: DavResource, c: PropContext) => XmlElement | undefined;

const itemOf = (r: DavResource) => (r.kind === 'item' ? r.item : undefined);

/**
 * The live properties of RFC 4918 §15 Cabinet keeps, and RFC 4331's quota, each computed from the resource; undefined
 * where the resource has none (answered 404 for that property). `allprop` shows those of RFC 4918, not the quota's (§9.1).
 */
const LIVE: Record<string, { live: Live; inAllprop: boolean; ns?: string }> = {
  displayname: { live: (r) => d('displayname', shownName(r)), inAllprop: true },
  resourcetype: { live: (r) => (isCollection(r) ? d('resourcetype', d('collection')) : d('resourcetype')), inAllprop: true },
  getlastmodified: {
    live: (r, c) => {
      const item = itemOf(r);
      return item && d('getlastmodified', (c.modifiedAt ?? new Date(item.updatedAt)).toUTCString());
    },
    inAllprop: true,
  },
  getetag: {
    live: (r) => {
      const item = itemOf(r);
      return item && d('getetag', etagOf(item));
    },
    inAllprop: true,
  },
  getcontenttype: {
    live: (r) => {
      const item = itemOf(r);
      if (!item || item.kind === 'folder') return undefined;
      return d('getcontenttype', item.kind === 'document' ? 'text/markdown; charset=utf-8' : (item.mimeType ?? 'application/octet-stream'));
    },
    inAllprop: true,
  },
  getcontentlength: {
    live: (r, c) => {
      const item = itemOf(r);
      if (item?.kind === 'file') return d('getcontentlength', String(item.size));
      if (item?.kind === 'document' && c.documentLength !== undefined) return d('getcontentlength', String(c.documentLength));
      return undefined;
    },
    inAllprop: true,
  },
  supportedlock: { live: () => supportedLock(), inAllprop: true },
  lockdiscovery: { live: (_r, c) => d('lockdiscovery', ...(c.locks ?? [])), inAllprop: true },
  'quota-used-bytes': {
    live: (r) => {
      const used = r.kind !== 'top' && isCollection(r) ? r.workspace.usedBytes : null;
      return used === null ? undefined : d('quota-used-bytes', String(used));
    },
    inAllprop: false,
  },
  // Only where there is a quota, and the caller is shown the workspace's figures (a guest is not).
  'quota-available-bytes': {
    live: (r) => {
      if (r.kind === 'top' || !isCollection(r) || r.workspace.quotaBytes === null || r.workspace.usedBytes === null) return undefined;
      return d('quota-available-bytes', String(Math.max(0, r.workspace.quotaBytes - r.workspace.usedBytes)));
    },
    inAllprop: false,
  },
  // ownCloud's checksums, as its clients and rclone read them (`<oc:checksum>SHA1:… MD5:…</oc:checksum>`): those of a
  // version sent through WebDAV (others have SHA-256 alone, which these clients do not compare by).
  checksums: {
    ns: OC,
    live: (r, c) => (itemOf(r)?.kind === 'file' && c.checksums ? element(OC, 'checksums', [element(OC, 'checksum', [c.checksums])]) : undefined),
    inAllprop: false,
  },
};

export const isLive = (name: PropName) => Object.hasOwn(LIVE, name.local) && name.ns === (LIVE[name.local]!.ns ?? DAV);

/** One live property's value, or undefined when the resource has none. */
export function liveProp(r: DavResource, name: PropName, c: PropContext): XmlElement | undefined {
  return isLive(name) ? LIVE[name.local]!.live(r, c) : undefined;
}

/** The live properties a resource has; `allprop`: only those `allprop` shows. */
export function liveNames(r: DavResource, c: PropContext, allprop: boolean): PropName[] {
  return Object.entries(LIVE)
    .filter(([, p]) => (!allprop || p.inAllprop) && p.live(r, c) !== undefined)
    .map(([local, p]) => ({ ns: p.ns ?? DAV, local }));
}
