import type { TChildrenQuery, TCreateItemRequest, TItem, TItemRole, TUpdateItemRequest } from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import type { ItemRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { getWorkspace } from '../workspaces/workspaces.service.ts';
import { effectiveRole, requireItem } from './items.policy.ts';
import { findMemberWorkspace } from '../workspaces/workspaces.repo.ts';
import {
  deleteSubtree,
  findAccessFacts,
  findActiveSibling,
  findChildrenPage,
  findItem,
  findTrashPage,
  insertFolder,
  lockWorkspaceMoves,
  setRestored,
  setTrashed,
  siblingNamesLike,
  updateItemPlacement,
  type ChildSort,
} from './items.repo.ts';

const MAX_DEPTH = 64;

export function presentItem(item: ItemRow, role: TItemRole): TItem {
  return {
    id: item.id,
    workspaceId: item.workspace_id,
    parentId: item.parent_id,
    kind: item.kind,
    name: item.name,
    size: Number(item.size_bytes),
    mimeType: item.mime_type,
    ownerId: item.owner_id,
    updatedAt: item.updated_at.toISOString(),
    updatedBy: item.updated_by,
    version: item.version,
    role,
  };
}

/** "report (2).pdf" for "report.pdf" when taken: the first free name in the folder. */
export async function suggestFreeName(db: Db, parentId: string, name: string): Promise<string> {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const taken = await siblingNamesLike(db, parentId, stem);
  for (let n = 2; n < 10_000; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
  return `${stem} (${Date.now()})${ext}`;
}

const isNameClash = (error: unknown) => (error as { code?: string }).code === '23505';

async function nameConflict(db: Db, parentId: string, name: string): Promise<AppError> {
  return new AppError('name_conflict', undefined, { suggestedName: await suggestFreeName(db, parentId, name) });
}

/** Refuses a name an active sibling already has (case-insensitively), offering a free one. */
async function requireFreeName(db: Db, parentId: string, name: string, exceptId?: string): Promise<void> {
  if (await findActiveSibling(db, parentId, name, exceptId)) throw await nameConflict(db, parentId, name);
}

/** The unique index is the last word when two writers race for a name: its violation is a name_conflict too. */
async function catchNameClash<T>(db: Db, parentId: () => string | undefined, name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const parent = parentId();
    if (isNameClash(error) && parent) throw await nameConflict(db, parent, name);
    throw error;
  }
}

export async function createFolder(db: Db, actor: Actor, workspaceIdOrSlug: string, input: TCreateItemRequest & { name: string }): Promise<TItem> {
  const workspace = await getWorkspace(db, actor.user, workspaceIdOrSlug);
  return catchNameClash(db, () => input.parentId, input.name, () => inTransaction(db, async (tx) => {
    const parent = await requireItem(tx, actor, input.parentId, 'edit', { lock: true });
    if (parent.item.workspace_id !== workspace.id) throw new AppError('not_found');
    if (parent.item.kind !== 'folder') throw new AppError('invalid_input', 'Items can only be created inside a folder.', { fields: [{ path: 'body.parentId', message: 'is not a folder' }] });
    if (parent.chain.length >= MAX_DEPTH) throw new AppError('invalid_input', `Folders nest at most ${MAX_DEPTH} deep.`);
    await requireFreeName(tx, parent.item.id, input.name);
    const folder = await insertFolder(tx, { workspaceId: workspace.id, parentId: parent.item.id, name: input.name, ownerId: actor.user.id });
    return presentItem(folder, parent.role);
  }));
}

export async function getItem(db: Db, actor: Actor, id: string): Promise<TItem> {
  const { item, role } = await requireItem(db, actor, id, 'view');
  return presentItem(item, role);
}

interface Cursor {
  f: boolean;
  k: string | number;
  i: string;
}

export async function listChildren(db: Db, actor: Actor, workspaceIdOrSlug: string, folderId: string, q: TChildrenQuery): Promise<{ items: TItem[]; nextCursor: string | null }> {
  const workspace = await getWorkspace(db, actor.user, workspaceIdOrSlug);
  const { item: folder, role } = await requireItem(db, actor, folderId, 'view');
  if (folder.workspace_id !== workspace.id) throw new AppError('not_found');
  let after: [boolean, string | number, string] | undefined;
  if (q.cursor) {
    try {
      const c = JSON.parse(Buffer.from(q.cursor, 'base64url').toString('utf8')) as Cursor;
      after = [Boolean(c.f), c.k, String(c.i)];
    } catch {
      throw new AppError('invalid_input', 'The cursor is not one this listing gave.', { fields: [{ path: 'querystring.cursor', message: 'is not valid' }] });
    }
  }
  const rows = await findChildrenPage(db, folder.id, { sort: q.sort as ChildSort, order: q.order, limit: q.limit + 1, ...(after ? { after } : {}) });
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  const key = (r: ItemRow) =>
    q.sort === 'modified' ? r.updated_at.toISOString() : q.sort === 'size' ? Number(r.size_bytes) : q.sort === 'type' ? `${r.mime_type ?? ''}/${r.name.toLowerCase()}` : r.name.toLowerCase();
  const nextCursor = rows.length > q.limit && last ? Buffer.from(JSON.stringify({ f: last.kind !== 'folder', k: key(last), i: last.id } satisfies Cursor)).toString('base64url') : null;
  // Children inherit the folder's role; a grant further down can only raise it, which a later call on that item shows.
  return { items: page.map((r) => presentItem(r, role)), nextCursor };
}

/** Rename and/or move. `expectedVersion` comes from If-Match; a stale one is `version_mismatch`. */
export async function updateItem(db: Db, actor: Actor, id: string, change: TUpdateItemRequest & { name?: string }, expectedVersion?: number): Promise<TItem> {
  let parentId: string | undefined;
  const name = change.name;
  return catchNameClash(db, () => parentId, name ?? '', () => inTransaction(db, async (tx) => {
    if (change.parentId !== undefined) {
      const unlocked = await findItem(tx, id);
      if (unlocked) await lockWorkspaceMoves(tx, unlocked.workspace_id);
    }
    const access = await requireItem(tx, actor, id, 'edit', { lock: true });
    const { item } = access;
    if (item.parent_id === null) throw new AppError('forbidden', 'A root folder cannot be renamed or moved.');
    if (expectedVersion !== undefined && expectedVersion !== item.version) throw new AppError('version_mismatch');
    parentId = item.parent_id;
    if (change.parentId !== undefined && change.parentId !== item.parent_id) {
      const target = await requireItem(tx, actor, change.parentId, 'edit', { lock: true });
      if (target.item.workspace_id !== item.workspace_id) throw new AppError('forbidden', 'Items cannot move to another workspace.');
      if (target.item.kind !== 'folder') throw new AppError('invalid_input', 'Items can only move into a folder.', { fields: [{ path: 'body.parentId', message: 'is not a folder' }] });
      if (target.chain.includes(item.id)) throw new AppError('cycle');
      if (target.chain.length >= MAX_DEPTH) throw new AppError('invalid_input', `Folders nest at most ${MAX_DEPTH} deep.`);
      parentId = target.item.id;
    }
    const newName = name ?? item.name;
    await requireFreeName(tx, parentId, newName, item.id);
    const moved = parentId !== item.parent_id;
    const updated = await updateItemPlacement(tx, item.id, { ...(name !== undefined ? { name: newName } : {}), ...(moved ? { parentId } : {}) }, actor.user.id);
    const after = moved ? await requireItem(tx, actor, item.id, 'view') : access;
    return presentItem(updated, after.role);
  }));
}

/** Moves an item (and, with it, everything below it) to the trash: one unit, restored as one. */
export async function trashItem(db: Db, actor: Actor, id: string): Promise<TItem> {
  return inTransaction(db, async (tx) => {
    const { item, role } = await requireItem(tx, actor, id, 'edit', { lock: true });
    if (item.parent_id === null) throw new AppError('forbidden', 'A root folder cannot be moved to the trash.');
    return presentItem(await setTrashed(tx, item.id, actor.user.id), role);
  });
}

/**
 * Brings a trashed unit back where it was. When that folder is itself in the trash, it comes
 * back into its owner's "My files" instead, and says so; a name taken meanwhile gets a free one.
 */
export async function restoreItem(db: Db, actor: Actor, id: string): Promise<{ item: TItem; restoredInto: 'original' | 'home' }> {
  return inTransaction(db, async (tx) => {
    const { item } = await requireItem(tx, actor, id, 'edit', { lock: true, inTrash: true });
    const parent = item.parent_id ? await findItem(tx, item.parent_id) : undefined;
    const parentFacts = parent ? await findAccessFacts(tx, parent.id, actor.user.id, item.workspace_id) : undefined;
    const parentUsable = parent && parent.state === 'active' && parentFacts && !parentFacts.trashedAbove;
    let parentId = parent?.id;
    if (!parentUsable) {
      const home = await findMemberWorkspace(tx, item.owner_id, item.workspace_id);
      if (!home?.home_item_id) throw new AppError('not_found', 'The original folder is gone and the owner has no My files here.');
      parentId = home.home_item_id;
    }
    const name = (await findActiveSibling(tx, parentId!, item.name)) ? await suggestFreeName(tx, parentId!, item.name) : item.name;
    const restored = await setRestored(tx, item.id, { parentId: parentId!, name }, actor.user.id);
    const { role } = await requireItem(tx, actor, restored.id, 'view');
    return { item: presentItem(restored, role), restoredInto: parentUsable ? 'original' : 'home' };
  });
}

/** Deletes a trashed item and everything in it for good. */
export async function purgeItem(db: Db, actor: Actor, id: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { item } = await requireItem(tx, actor, id, 'manage', { lock: true, inTrash: true });
    await deleteSubtree(tx, item.id);
  });
}

export async function listTrash(db: Db, actor: Actor, workspaceIdOrSlug: string, q: { cursor?: string | undefined; limit: number }): Promise<{ items: TItem[]; nextCursor: string | null }> {
  const workspace = await getWorkspace(db, actor.user, workspaceIdOrSlug);
  let before: { at: string; id: string } | undefined;
  if (q.cursor) {
    try {
      before = JSON.parse(Buffer.from(q.cursor, 'base64url').toString('utf8')) as { at: string; id: string };
    } catch {
      throw new AppError('invalid_input', 'The cursor is not one this listing gave.', { fields: [{ path: 'querystring.cursor', message: 'is not valid' }] });
    }
  }
  const rows = await findTrashPage(db, workspace.id, actor.user.id, q.limit + 1, before);
  const page = rows.slice(0, q.limit);
  const items: TItem[] = [];
  for (const row of page) {
    const access = await effectiveRole(db, actor, row);
    if (access) items.push(presentItem(row, access.role));
  }
  const last = page.at(-1);
  return { items, nextCursor: rows.length > q.limit && last ? Buffer.from(JSON.stringify({ at: last.trashed_at!.toISOString(), id: last.id })).toString('base64url') : null };
}

/** Deletes for good everything in the caller's trash that they may delete. */
export async function emptyTrash(db: Db, actor: Actor, workspaceIdOrSlug: string): Promise<{ deleted: number }> {
  const workspace = await getWorkspace(db, actor.user, workspaceIdOrSlug);
  const ids: string[] = [];
  let before: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await findTrashPage(db, workspace.id, actor.user.id, 500, before);
    for (const row of rows) if ((await effectiveRole(db, actor, row))?.role === 'manager') ids.push(row.id);
    const last = rows.at(-1);
    if (rows.length < 500 || !last) break;
    before = { at: last.trashed_at!.toISOString(), id: last.id };
  }
  await inTransaction(db, async (tx) => {
    for (const id of ids) await deleteSubtree(tx, id);
  });
  return { deleted: ids.length };
}

/** The folders above an item that the caller can see, root first: the breadcrumbs. */
export async function getAncestors(db: Db, actor: Actor, id: string): Promise<TItem[]> {
  const { chain } = await requireItem(db, actor, id, 'view');
  const ancestors: TItem[] = [];
  for (const ancestorId of chain.slice(1)) {
    const item = await findItem(db, ancestorId);
    const access = item ? await effectiveRole(db, actor, item) : null;
    // A guest sees the path only from the highest folder shared with them.
    if (!item || !access) break;
    ancestors.unshift(presentItem(item, access.role));
  }
  return ancestors;
}
