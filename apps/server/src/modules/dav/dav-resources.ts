import { ZChildrenQuery, ZItemName, ZSharedQuery, type TItem, type TWorkspace } from '@cabinet/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { getItem, itemsOnPath, listChildren, type ItemAccess, type ItemOnPath } from '../items/index.ts';
import { listSharedWithMe } from '../sharing/index.ts';
import { getWorkspace, listWorkspaces, presentWorkspace } from '../workspaces/index.ts';
import { DavRefusal } from './refusal.ts';

/** The three places of a workspace under `/dav/<slug>/`, by the names PRODUCT.md §7 gives them. */
export const PLACES = { home: 'My files', root: 'Workspace', shared: 'Shared with me' } as const;
export type Place = keyof typeof PLACES;

/** A document is shown as its Markdown, under its name and this extension (read-only). */
export const DOCUMENT_EXTENSION = '.md';

/**
 * What a path under /dav/ names: the list of workspaces, a workspace (its three places), the list of what is shared
 * with the caller there, or an item (a place's folder itself is an item shown under the place's name).
 */
export type DavResource =
  | { kind: 'top'; names: [] }
  | { kind: 'workspace'; names: string[]; workspace: TWorkspace }
  | { kind: 'shared'; names: string[]; workspace: TWorkspace }
  | {
      kind: 'item';
      names: string[];
      workspace: TWorkspace;
      item: TItem;
      place: Place;
      isPlace: boolean;
      /** The caller's access to the item, as this request's walk of the path judged it (a listing's members have none). */
      access?: ItemAccess;
    };

export type ItemResource = Extract<DavResource, { kind: 'item' }>;

/** Is it listed as a folder. */
export const isCollection = (r: DavResource) => r.kind !== 'item' || r.item.kind === 'folder';

/** The name it is shown under: a place by its name, a document with `.md`. */
export function shownName(r: DavResource): string {
  if (r.kind === 'top') return '';
  if (r.kind === 'workspace') return r.workspace.slug;
  if (r.kind === 'shared') return PLACES.shared;
  if (r.isPlace) return PLACES[r.place];
  return itemName(r.item);
}

export const itemName = (item: Pick<TItem, 'kind' | 'name'>) => (item.kind === 'document' ? `${item.name}${DOCUMENT_EXTENSION}` : item.name);

/** What resolving found: the resource, or, for a path that names nothing yet, the folder it would be made in. */
export type Resolved = { found: DavResource } | { missing: { parent: DavResource | null; name: string } };

/**
 * The resource the names point at, seen as the caller sees it: anything they may not see is not there (404), as in
 * the API. Each name below a place is looked up in its folder (case-insensitively, as the names are unique), and the
 * item then checked against the caller's access.
 */
export async function resolve(db: Db, actor: Actor, names: string[]): Promise<Resolved> {
  if (names.length === 0) return { found: { kind: 'top', names: [] } };
  const noWorkspace: Resolved = { missing: { parent: names.length === 1 ? { kind: 'top', names: [] } : null, name: names[0]! } };
  const placeName = names[1];
  const place = placeName === undefined ? undefined : (Object.keys(PLACES) as Place[]).find((p) => PLACES[p].toLowerCase() === placeName.toLowerCase());
  let rest = names.slice(2);
  if (place === 'home' || place === 'root') {
    // The workspace, the place's folder and the path below it, with the caller's access to each, in one statement.
    const walk = await itemsOnPath(db, actor, { workspace: names[0]!, place }, rest, DOCUMENT_EXTENSION);
    if (!walk) return noWorkspace;
    const workspace = presentWorkspace(walk.workspace);
    const at: DavResource = { kind: 'item', names: names.slice(0, 2), workspace, item: walk.root.item, access: walk.root.access, place, isPlace: true };
    return walked(at, rest, walk.path);
  }
  const workspace = await unlessMissing(() => getWorkspace(db, actor.user, names[0]!));
  if (!workspace) return noWorkspace;
  const top: DavResource = { kind: 'workspace', names: [workspace.slug], workspace };
  if (names.length === 1) return { found: top };
  if (!place) return { missing: { parent: names.length === 2 ? top : null, name: placeName! } };
  // Shared with me: each item by its shown name, and the path below it.
  const list: DavResource = { kind: 'shared', names: names.slice(0, 2), workspace };
  if (!rest.length) return { found: list };
  const item = (await sharedItems(db, actor, workspace)).get(rest[0]!.toLowerCase());
  if (!item) return { missing: { parent: rest.length === 1 ? list : null, name: rest[0]! } };
  const at: ItemResource = { kind: 'item', names: names.slice(0, 3), workspace, item, place, isPlace: false };
  rest = rest.slice(1);
  if (!rest.length) return { found: at };
  const path = item.kind === 'folder' ? (await itemsOnPath(db, actor, { folderId: item.id }, rest, DOCUMENT_EXTENSION))!.path : [];
  return walked(at, rest, path);
}

/** Where a walk of `rest` below `from` ended: the last item, or the name it found nothing for and the folder it looked in. */
function walked(from: DavResource, rest: string[], path: ItemOnPath[]): Resolved {
  let at = from;
  const place = from.kind === 'item' ? from.place : 'shared';
  for (const [i, { item, access }] of path.entries()) {
    at = { kind: 'item', names: [...at.names, rest[i]!], workspace: (from as ItemResource).workspace, item, access, place, isPlace: false };
  }
  if (path.length < rest.length) {
    const last = path.length === rest.length - 1 && at.kind === 'item' && at.item.kind === 'folder';
    return { missing: { parent: last ? at : null, name: rest[path.length]! } };
  }
  return { found: at };
}

/** What a collection holds, as resources below it. */
export async function childrenOf(db: Db, actor: Actor, r: DavResource): Promise<DavResource[]> {
  if (r.kind === 'top') {
    const workspaces = await listWorkspaces(db, actor.user);
    return workspaces.map((workspace) => ({ kind: 'workspace', names: [workspace.slug], workspace }));
  }
  if (r.kind === 'workspace') return placesOf(db, actor, r.workspace);
  if (r.kind === 'shared') {
    const items = await sharedItems(db, actor, r.workspace);
    return [...items.values()].map((item) => ({
      kind: 'item',
      names: [...r.names, itemName(item)],
      workspace: r.workspace,
      item,
      place: 'shared',
      isPlace: false,
    }));
  }
  if (r.item.kind !== 'folder') return [];
  const out: DavResource[] = [];
  let cursor: string | undefined;
  do {
    const page = await listChildren(db, actor, r.workspace.id, r.item.id, ZChildrenQuery.parse({ sort: 'name', limit: 1000, cursor }));
    for (const item of page.items)
      out.push({ kind: 'item', names: [...r.names, itemName(item)], workspace: r.workspace, item, place: r.place, isPlace: false });
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/** A workspace's three places. */
async function placesOf(db: Db, actor: Actor, workspace: TWorkspace): Promise<DavResource[]> {
  const [home, root] = await Promise.all([getItem(db, actor, workspace.homeId), getItem(db, actor, workspace.rootId)]);
  return [
    { kind: 'item', names: [workspace.slug, PLACES.home], workspace, item: home, place: 'home', isPlace: true },
    { kind: 'item', names: [workspace.slug, PLACES.root], workspace, item: root, place: 'root', isPlace: true },
    { kind: 'shared', names: [workspace.slug, PLACES.shared], workspace },
  ];
}

/** What is shared with the caller in a workspace, by shown name (lower case); a name shown twice is shown once, the newest share. */
async function sharedItems(db: Db, actor: Actor, workspace: TWorkspace): Promise<Map<string, TItem>> {
  const byName = new Map<string, TItem>();
  let cursor: string | undefined;
  do {
    const page = await listSharedWithMe(db, actor, workspace.id, ZSharedQuery.parse({ limit: 1000, cursor }));
    for (const { item } of page.items) {
      const key = itemName(item).toLowerCase();
      if (!byName.has(key)) byName.set(key, item);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return byName;
}

/** The answer, or undefined where the call finds nothing the caller may see. */
export async function unlessMissing<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  }
}

/** A name as PRODUCT.md §5 allows it, or a 400 saying why not. */
export function validName(name: string): string {
  const parsed = ZItemName.safeParse(name);
  if (!parsed.success) throw new DavRefusal(400, `${parsed.error.issues[0]?.message ?? 'The name is not allowed'}.`);
  return parsed.data;
}

/** The folder a missing path's last name would be made in: a folder, inside one of a workspace's places. */
export function newPlaceOf(missing: Extract<Resolved, { missing: unknown }>['missing']): { parent: ItemResource; name: string } {
  const { parent, name } = missing;
  if (!parent) throw new DavRefusal(409, 'The folder it would go in does not exist.');
  if (parent.kind === 'top' || parent.kind === 'workspace') {
    throw new DavRefusal(403, `A workspace holds its places alone (${Object.values(PLACES).join(', ')}): put things inside them.`);
  }
  if (parent.kind === 'shared') throw new DavRefusal(403, `${PLACES.shared} lists what others share with you: put things inside those.`);
  if (parent.item.kind !== 'folder') throw new DavRefusal(409, 'Only a folder holds other things.');
  return { parent, name: validName(name) };
}

/** The item a change is about: never a place, the list of workspaces or a workspace itself. */
export function changeable(r: DavResource, what: string): ItemResource {
  if (r.kind !== 'item' || r.isPlace)
    throw new DavRefusal(403, `${r.kind === 'top' ? 'The list of workspaces' : 'A workspace and its places'} cannot be ${what}.`);
  return r;
}

/** The folder an item is shown in, on the path asked. */
export async function parentOf(db: Db, actor: Actor, r: ItemResource): Promise<DavResource> {
  const parent = await resolve(db, actor, r.names.slice(0, -1));
  if (!('found' in parent)) throw new DavRefusal(409, 'The folder it is in went away.');
  return parent.found;
}
