import {
  encodeCursor,
  uuidv7,
  type TChildrenPosition,
  type TChildrenQuery,
  type TTrashPosition,
  type TTrashQuery,
  type TCreateItemRequest,
  type TItem,
  type TItemAbilities,
  type TItemLock,
  type TItemPreview,
  type TItemRole,
  type TUpdateItemRequest,
  type NameConflictDetails,
} from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import type { ItemRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { addUsage, getWorkspace, type MemberWorkspaceRow } from '../workspaces/index.ts';
import { enqueue } from '../../infra/jobs/queue.ts';
import { record, type LinkVisitor } from '../events/index.ts';
import { accessesOnPath, accessWithRole, findAccesses, requireFolderPage, requireItem, requireItems, requireMove, type ItemAccess } from './items.policy.ts';
import {
  blobInUse,
  claimExpiredTrash,
  deleteSubtree,
  findActiveSubtree,
  findRecent,
  findStarred,
  insertCopies,
  setStar,
  findAccess,
  findActiveSibling,
  findItem,
  findTrashPage,
  insertItem,
  lockItem,
  lockItems,
  lockWorkspaceMoves,
  setRestored,
  setTrashed,
  siblingNamesLike,
  subtreeBlobs,
  updateItemPlacement,
  type LockColumns,
  type PathStart,
  type PreviewColumns,
} from './items.repo.ts';

export const MAX_DEPTH = 64;

/**
 * A file's preview from the columns a listing joined (PreviewColumns); undefined when the row was
 * read without them. An evicted preview is made again when asked for, so it is shown as ready.
 */
export function presentPreview(row: ItemRow & Partial<PreviewColumns>): TItemPreview | null | undefined {
  if (!('preview_sha256' in row)) return undefined;
  if (row.kind !== 'file' || !row.preview_sha256) return null;
  const state = row.preview_state === 'evicted' ? 'ready' : (row.preview_state ?? 'pending');
  return {
    state,
    reason: state === 'failed' ? (row.preview_error ?? null) : null,
    v: state === 'ready' ? row.preview_sha256.slice(0, 16) : null,
    placeholder: state === 'ready' ? (row.preview_placeholder ?? null) : null,
    width: state === 'ready' ? (row.preview_width ?? null) : null,
    height: state === 'ready' ? (row.preview_height ?? null) : null,
  };
}

/** The live WebDAV lock on an item from the columns its query joined (LockColumns); undefined when read without them. */
function presentLock(row: ItemRow & Partial<LockColumns>, breakable: boolean): TItemLock | null | undefined {
  if (!('lock_user_id' in row)) return undefined;
  if (!row.lock_user_id || !row.lock_expires_at || !row.lock_scope) return null;
  return {
    by: { id: row.lock_user_id, name: row.lock_user_name ?? '' },
    client: row.lock_client ?? null,
    expiresAt: new Date(row.lock_expires_at).toISOString(),
    scope: row.lock_scope,
    breakable,
  };
}

/**
 * An item as the caller sees it, with their role on it and what it lets them do (from the policy), and — when its row
 * was read with them — its preview and its lock.
 */
export function presentItem(item: ItemRow, access: { role: TItemRole; abilities: TItemAbilities; lockBreakable?: boolean }): TItem {
  const preview = presentPreview(item);
  const lock = presentLock(item, access.lockBreakable ?? false);
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
    role: access.role,
    abilities: access.abilities,
    ...(preview !== undefined ? { preview } : {}),
    // Only while there is one: every answer about an unlocked item is the same, however its row was read.
    ...(lock ? { lock } : {}),
  };
}

const NAME_BYTES = 255;
const utf8 = new TextEncoder();

/** The longest start of `text` that fits in `bytes` bytes of UTF-8, no character cut in two. */
function fitted(text: string, bytes: number): string {
  if (utf8.encode(text).length <= bytes) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    used += utf8.encode(char).length;
    if (used > bytes) break;
    out += char;
  }
  return out;
}

/**
 * "report (2).pdf" for "report.pdf" when taken: the first free name in the folder. A long name is
 * shortened before its number, so that the free name is still a name (PRODUCT.md §5: 255 bytes at most).
 */
export async function suggestFreeName(db: Db, parentId: string, name: string): Promise<string> {
  const dot = name.lastIndexOf('.');
  // An extension too long to leave room for a number is part of the name.
  const [whole, ext] = dot > 0 && utf8.encode(name.slice(dot)).length <= NAME_BYTES / 2 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const room = (suffix: number) => NAME_BYTES - utf8.encode(ext).length - suffix;
  // " (9999)" and " (<a time in ms>)" at the most.
  const stem = fitted(whole, room(7));
  const taken = await siblingNamesLike(db, parentId, stem);
  for (let n = 2; n < 10_000; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
  return `${fitted(whole, room(16))} (${Date.now()})${ext}`;
}

const isNameClash = (error: unknown) => (error as { code?: string }).code === '23505';

/** A name_conflict offering a free name; `existing`, the item that has the name, is named only to a caller who may see it. */
async function nameConflict(db: Db, parentId: string, name: string, existing?: { id: string; kind: ItemRow['kind'] }): Promise<AppError> {
  const suggestedName = await suggestFreeName(db, parentId, name);
  return new AppError('name_conflict', undefined, {
    suggestedName,
    ...(existing ? { existing: { id: existing.id, kind: existing.kind } } : {}),
  } satisfies NameConflictDetails);
}

/**
 * Refuses a name an active sibling already has (case-insensitively), offering a free one.
 * `naming`: the answer names that sibling too (for a caller who may create in the folder, and so sees all of it).
 */
async function requireFreeName(db: Db, parentId: string, name: string, o: { exceptId?: string; naming?: boolean } = {}): Promise<void> {
  const clash = await findActiveSibling(db, parentId, name, o.exceptId);
  if (clash) throw await nameConflict(db, parentId, name, o.naming ? clash : undefined);
}

/** The unique index is the last word when two writers race for a name: its violation is a name_conflict too. */
async function catchNameClash<T>(db: Db, parentId: () => string | undefined, name: string, write: () => Promise<T>, o: { naming?: boolean } = {}): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const parent = parentId();
    if (isNameClash(error) && parent) throw await nameConflict(db, parent, name, o.naming ? await findActiveSibling(db, parent, name) : undefined);
    throw error;
  }
}

/**
 * A new folder or document in a folder the caller may create in. `fill`, given by the module that
 * owns what the item holds (a document's content made by an import), runs in the same transaction
 * once the row exists, and answers the row as it then stands.
 */
export async function createItem(
  db: Db,
  actor: Actor,
  workspaceIdOrSlug: string,
  input: TCreateItemRequest & { name: string },
  fill?: (tx: Db, item: ItemRow) => Promise<ItemRow>,
): Promise<TItem> {
  const workspace = await getWorkspace(db, actor.user, workspaceIdOrSlug);
  return catchNameClash(
    db,
    () => input.parentId,
    input.name,
    () =>
      inTransaction(db, async (tx) => {
        const parent = await requireItem(tx, actor, input.parentId, 'createInside', { lock: true });
        if (parent.item.workspace_id !== workspace.id) throw new AppError('not_found');
        if (parent.item.kind !== 'folder')
          throw new AppError('invalid_input', 'Items can only be created inside a folder.', {
            fields: [{ path: 'body.parentId', message: 'is not a folder' }],
          });
        if (parent.chain.length >= MAX_DEPTH) throw new AppError('invalid_input', `Folders nest at most ${MAX_DEPTH} deep.`);
        await requireFreeName(tx, parent.item.id, input.name, { naming: true });
        let item = await insertItem(tx, { kind: input.kind, workspaceId: workspace.id, parentId: parent.item.id, name: input.name, ownerId: actor.user.id });
        if (fill) item = await fill(tx, item);
        await record(tx, actor, {
          workspaceId: workspace.id,
          action: 'item.created',
          itemId: item.id,
          parentIds: [parent.item.id],
          data: { name: item.name, kind: item.kind },
        });
        return presentItem(item, accessWithRole(actor, item, parent.role));
      }),
    { naming: true },
  );
}

/**
 * A folder a file request's visitor makes (ADR 0035) in `parent` — the link's folder or a folder
 * under it, as the caller checked, `depth` deep: always a new folder, under a free name when its own
 * is taken (the visitor is not told which), the link maker's, recorded as made through the link.
 */
export async function createFolderThroughLink(
  db: Db,
  visitor: LinkVisitor,
  o: { parent: ItemRow; depth: number; name: string; ownerId: string },
): Promise<ItemRow> {
  if (o.depth >= MAX_DEPTH) throw new AppError('invalid_input', `Folders nest at most ${MAX_DEPTH} deep.`);
  return inTransaction(db, async (tx) => {
    // The folder held while its name is settled: folders made in it at once get names of their own.
    if (!(await lockItem(tx, o.parent.id))) throw new AppError('not_found');
    const name = (await findActiveSibling(tx, o.parent.id, o.name)) ? await suggestFreeName(tx, o.parent.id, o.name) : o.name;
    const item = await insertItem(tx, { kind: 'folder', workspaceId: o.parent.workspace_id, parentId: o.parent.id, name, ownerId: o.ownerId });
    await record(tx, visitor, {
      workspaceId: item.workspace_id,
      action: 'item.created',
      itemId: item.id,
      parentIds: [o.parent.id],
      data: { name, kind: 'folder' },
    });
    return item;
  });
}

/** An item as the caller sees it, and the access it was judged by (which a later step of the same request may use). */
export interface ItemOnPath {
  item: TItem;
  access: ItemAccess;
}

/**
 * A folder and the items a path of names leads to below it, each as the caller sees it (the folder `not_found` when
 * they may not see it), as far as they lead and the caller may see each one: a name the caller may not see ends the
 * path as a missing one does; and the folder's workspace as the caller is in it. `from`: the folder, or a place of a
 * workspace the caller is in (undefined when they are in none of that name). `suffix`: what a document's name is shown
 * with (findPathAccess). One statement.
 */
export async function itemsOnPath(
  db: Db,
  actor: Actor,
  from: PathStart,
  names: string[],
  suffix: string,
): Promise<{ workspace: MemberWorkspaceRow; root: ItemOnPath; path: ItemOnPath[] } | undefined> {
  const { workspace, accesses } = await accessesOnPath(db, actor, from, names, suffix);
  if (!workspace) {
    if ('folderId' in from) throw new AppError('not_found');
    return undefined;
  }
  const [root, ...steps] = accesses;
  if (!root?.abilities.view) throw new AppError('not_found');
  const path: ItemOnPath[] = [];
  for (const access of steps) {
    if (!access.abilities.view) break;
    path.push({ item: presentItem(access.item, access), access });
  }
  return { workspace, root: { item: presentItem(root.item, root), access: root }, path };
}

export async function getItem(db: Db, actor: Actor, id: string): Promise<TItem> {
  const access = await requireItem(db, actor, id, 'view');
  return presentItem(access.item, access);
}

export async function listChildren(
  db: Db,
  actor: Actor,
  workspaceIdOrSlug: string,
  folderId: string,
  q: TChildrenQuery,
): Promise<{ items: TItem[]; nextCursor: string | null }> {
  const after: [boolean, string, string] | undefined = q.cursor ? [q.cursor.f, q.cursor.k, q.cursor.i] : undefined;
  const {
    folder: { item: folder, workspaceSlug },
    children,
  } = await requireFolderPage(db, actor, folderId, { sort: q.sort, order: q.order, limit: q.limit + 1, ...(after ? { after } : {}) });
  if (folder.workspace_id !== workspaceIdOrSlug && workspaceSlug !== workspaceIdOrSlug) throw new AppError('not_found');
  const page = children.slice(0, q.limit);
  const last = page.at(-1);
  const nextCursor =
    children.length > q.limit && last ? encodeCursor({ f: last.kind !== 'folder', k: last.sort_key, i: last.id } satisfies TChildrenPosition) : null;
  return { items: page.map((child) => presentItem(child, child)), nextCursor };
}

/** Rename and/or move. `expectedVersion` comes from If-Match; a stale one is `version_mismatch`. */
export async function updateItem(db: Db, actor: Actor, id: string, change: TUpdateItemRequest & { name?: string }, expectedVersion?: number): Promise<TItem> {
  let parentId: string | undefined;
  const name = change.name;
  return catchNameClash(
    db,
    () => parentId,
    name ?? '',
    () =>
      inTransaction(db, async (tx) => {
        if (change.parentId !== undefined) {
          const unlocked = await findItem(tx, id);
          if (unlocked) await lockWorkspaceMoves(tx, unlocked.workspace_id);
        }
        const access = await requireItem(tx, actor, id, 'edit', { lock: true });
        const { item } = access;
        // Never a root: the policy gives no one `edit` on a root folder.
        const from = item.parent_id!;
        if (expectedVersion !== undefined && expectedVersion !== item.version) throw new AppError('version_mismatch');
        parentId = from;
        if (change.parentId !== undefined && change.parentId !== from) {
          const target = await requireItem(tx, actor, change.parentId, 'createInside', { lock: true });
          if (target.item.workspace_id !== item.workspace_id) throw new AppError('forbidden', 'Items cannot move to another workspace.');
          if (target.item.kind !== 'folder')
            throw new AppError('invalid_input', 'Items can only move into a folder.', { fields: [{ path: 'body.parentId', message: 'is not a folder' }] });
          if (target.chain.includes(item.id)) throw new AppError('cycle');
          requireMove(access, target);
          if (target.chain.length >= MAX_DEPTH) throw new AppError('invalid_input', `Folders nest at most ${MAX_DEPTH} deep.`);
          parentId = target.item.id;
        }
        const newName = name ?? item.name;
        await requireFreeName(tx, parentId, newName, { exceptId: item.id });
        const moved = parentId !== from;
        const updated = await updateItemPlacement(
          tx,
          item.id,
          { ...(name !== undefined ? { name: newName } : {}), ...(moved ? { parentId } : {}) },
          actor.user.id,
        );
        const after = moved ? await requireItem(tx, actor, item.id, 'view') : access;
        await record(tx, actor, {
          workspaceId: item.workspace_id,
          action: moved ? 'item.moved' : 'item.renamed',
          itemId: item.id,
          parentIds: [from, parentId],
          data: {
            name: updated.name,
            ...(updated.name !== item.name ? { previousName: item.name } : {}),
            ...(moved ? { fromParentId: from, toParentId: parentId } : {}),
          },
        });
        // With what the access read beside the row (a file's preview, its lock), which a rename or a move leaves as it was.
        return presentItem({ ...after.item, ...updated }, after);
      }),
  );
}

/** Moves an item (and, with it, everything below it) to the trash: one unit, restored as one. */
export async function trashItem(db: Db, actor: Actor, id: string): Promise<TItem> {
  return inTransaction(db, async (tx) => {
    const { item, role } = await requireItem(tx, actor, id, 'trash', { lock: true });
    // Never a root: the policy lets no one trash a root folder.
    await record(tx, actor, {
      workspaceId: item.workspace_id,
      action: 'item.trashed',
      itemId: item.id,
      parentIds: [item.parent_id],
      data: { name: item.name },
    });
    const trashed = await setTrashed(tx, item.id, actor.user.id);
    return presentItem(trashed, accessWithRole(actor, trashed, role));
  });
}

/**
 * Brings a trashed unit back where it was. When that folder is itself in the trash, it comes
 * back at the top of the tree it was in (the shared root, or the "My files" it was in) and says
 * so: never into another tree, whose managers would take it from the ones it had (ADR 0017). A
 * name taken meanwhile gets a free one.
 */
export async function restoreItem(db: Db, actor: Actor, id: string): Promise<{ item: TItem; restoredInto: 'original' | 'root' }> {
  return inTransaction(db, async (tx) => {
    const { item, chain } = await requireItem(tx, actor, id, 'restore', { lock: true });
    const parent = item.parent_id ? await findAccess(tx, item.parent_id, actor.user.id) : undefined;
    const parentUsable = !!parent && parent.state === 'active' && !parent.trashed_above;
    const parentId = parentUsable ? parent.id : chain.at(-1)!;
    if (!parentUsable && (await requireItems(tx, actor, [parentId], 'createInside')).get(parentId) instanceof AppError) {
      throw new AppError('forbidden', 'The folder it was in is in the trash: restore that folder first.');
    }
    const name = (await findActiveSibling(tx, parentId, item.name)) ? await suggestFreeName(tx, parentId, item.name) : item.name;
    const restored = await setRestored(tx, item.id, { parentId, name }, actor.user.id);
    const access = await requireItem(tx, actor, restored.id, 'view');
    await record(tx, actor, {
      workspaceId: item.workspace_id,
      action: 'item.restored',
      itemId: item.id,
      parentIds: [parentId],
      data: { name: restored.name, restoredInto: parentUsable ? 'original' : 'root' },
    });
    return { item: presentItem(restored, access), restoredInto: parentUsable ? 'original' : 'root' };
  });
}

/** Deletes a trashed item and everything in it for good. */
export async function purgeItem(db: Db, actor: Actor, id: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { item } = await requireItem(tx, actor, id, 'deleteForever', { lock: true });
    await purgeUnits(tx, actor, [item]);
  });
}

/**
 * Deletes units' rows and gives their bytes back to the quota; the bytes themselves are deleted
 * by jobs queued in the same transaction, so they go exactly when the rows go.
 */
async function purgeUnits(tx: Db, actor: Actor | null, items: ItemRow[]): Promise<void> {
  const freed = new Map<string, number>();
  for (const item of items) {
    const blobs = await subtreeBlobs(tx, item.id);
    await deleteSubtree(tx, item.id);
    for (const key of new Set(blobs.keys)) await enqueue(tx, 'blob.delete', { key });
    await record(tx, actor, {
      workspaceId: item.workspace_id,
      action: 'item.deleted',
      itemId: item.id,
      parentIds: [item.parent_id],
      data: { name: item.name, kind: item.kind },
    });
    freed.set(item.workspace_id, (freed.get(item.workspace_id) ?? 0) + blobs.bytes);
  }
  // Last, as every writer of usage does (see addUsage).
  for (const [workspaceId, bytes] of freed) await addUsage(tx, workspaceId, -bytes);
}

/** The blob-deletion job: bytes no version names any more go from storage. */
export async function deleteBlobIfUnused(db: Db, storage: { delete(key: string): Promise<void> }, key: string): Promise<void> {
  if (!(await blobInUse(db, key))) await storage.delete(key);
}

/** The retention job: trashed units older than the retention period are deleted for good. */
export async function purgeExpiredTrash(db: Db, retentionDays: number): Promise<number> {
  return inTransaction(db, async (tx) => {
    const expired = await claimExpiredTrash(tx, new Date(Date.now() - retentionDays * 86_400_000), 200);
    await purgeUnits(tx, null, expired);
    return expired.length;
  });
}

export async function listTrash(db: Db, actor: Actor, workspaceIdOrSlug: string, q: TTrashQuery): Promise<{ items: TItem[]; nextCursor: string | null }> {
  const workspace = await getWorkspace(db, actor.user, workspaceIdOrSlug);
  const rows = await findTrashPage(db, workspace.id, actor.user.id, q.limit + 1, q.cursor);
  const page = rows.slice(0, q.limit);
  const accesses = await findAccesses(
    db,
    actor,
    page.map((r) => r.id),
  );
  const items = page.flatMap((row) => {
    const access = accesses.get(row.id);
    return access ? [presentItem(row, access)] : [];
  });
  const last = page.at(-1);
  return {
    items,
    nextCursor: rows.length > q.limit && last ? encodeCursor({ at: last.trashed_at!.toISOString(), id: last.id } satisfies TTrashPosition) : null,
  };
}

/** Deletes for good everything in the caller's trash that they may delete. */
export async function emptyTrash(db: Db, actor: Actor, workspaceIdOrSlug: string): Promise<{ deleted: number }> {
  const workspace = await getWorkspace(db, actor.user, workspaceIdOrSlug);
  const ids: string[] = [];
  let before: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await findTrashPage(db, workspace.id, actor.user.id, 500, before);
    const accesses = await findAccesses(
      db,
      actor,
      rows.map((r) => r.id),
    );
    for (const row of rows) if (accesses.get(row.id)?.abilities.deleteForever) ids.push(row.id);
    const last = rows.at(-1);
    if (rows.length < 500 || !last) break;
    before = { at: last.trashed_at!.toISOString(), id: last.id };
  }
  // Looked at again under lock: what was restored, moved out or changed hands since it was listed stays.
  return inTransaction(db, async (tx) => {
    const locked = await lockItems(tx, ids);
    const accesses = await requireItems(tx, actor, ids, 'deleteForever');
    const items = locked.filter((item) => !(accesses.get(item.id) instanceof AppError));
    await purgeUnits(tx, actor, items);
    return { deleted: items.length };
  });
}

/** The folders above an item that the caller can see, root first: the breadcrumbs. */
export async function getAncestors(db: Db, actor: Actor, id: string): Promise<TItem[]> {
  const { chain } = await requireItem(db, actor, id, 'view');
  const accesses = await findAccesses(db, actor, chain.slice(1));
  const ancestors: TItem[] = [];
  for (const ancestorId of chain.slice(1)) {
    const access = accesses.get(ancestorId);
    // A guest sees the path only from the highest folder shared with them.
    if (!access) break;
    ancestors.unshift(presentItem(access.item, access));
  }
  return ancestors;
}

/** Of these items, those the caller can see now (active, not inside a trashed folder), in one query. */
export async function visibleItems(db: Db, actor: Actor, ids: string[]): Promise<Set<string>> {
  const visible = new Set<string>();
  for (const [id, access] of await findAccesses(db, actor, ids)) if (access.abilities.view) visible.add(id);
  return visible;
}

/**
 * What items hold beyond their rows, copied by the modules that own it (the documents module:
 * documents' stored state). Given by whoever wires the modules together (app.ts), so that items
 * know nothing of the modules built on them.
 */
export interface ItemContents {
  /** Documents copied with their items, in the copy's transaction; `renamed`: source id → copy id. */
  copyDocuments(tx: Db, copies: { id: string; sourceId: string; relink: boolean }[], renamed: Map<string, string>, by: string): Promise<void>;
}

/**
 * Copies a file, or a folder with everything in it, into a folder. The copies are new items
 * owned by the caller; files share the originals' bytes (nothing is copied in storage) and count
 * against the quota. A name already taken in the target gets a free one.
 */
export async function copyItem(
  db: Db,
  actor: Actor,
  id: string,
  input: { parentId: string; name?: string | undefined },
  contents: ItemContents,
): Promise<TItem> {
  return inTransaction(db, async (tx) => {
    const source = await requireItem(tx, actor, id, 'view');
    const target = await requireItem(tx, actor, input.parentId, 'createInside', { lock: true });
    if (source.item.parent_id === null) throw new AppError('invalid_input', 'A root folder cannot be copied; copy what is in it.');
    if (target.item.workspace_id !== source.item.workspace_id) throw new AppError('forbidden', 'Items cannot be copied to another workspace.');
    if (target.item.kind !== 'folder')
      throw new AppError('invalid_input', 'Items can only be copied into a folder.', { fields: [{ path: 'body.parentId', message: 'is not a folder' }] });
    if (target.chain.includes(source.item.id)) throw new AppError('cycle', 'A folder cannot be copied into itself.');
    const subtree = await findActiveSubtree(tx, source.item.id);
    const depth = Math.max(...subtree.map((r) => r.depth));
    if (target.chain.length + depth >= MAX_DEPTH) throw new AppError('invalid_input', `Folders nest at most ${MAX_DEPTH} deep.`);
    const bytes = subtree.reduce((sum, r) => sum + (r.version_id ? r.size_bytes : 0), 0);

    const wanted = input.name ?? source.item.name;
    const name = (await findActiveSibling(tx, target.item.id, wanted)) ? await suggestFreeName(tx, target.item.id, wanted) : wanted;
    const newIds = new Map(subtree.map((r) => [r.id, uuidv7()]));
    await insertCopies(
      tx,
      subtree.map((r, i) => ({
        id: newIds.get(r.id)!,
        sourceId: r.id,
        workspaceId: source.item.workspace_id,
        parentId: i === 0 ? target.item.id : newIds.get(r.parent_id!)!,
        kind: r.kind,
        name: i === 0 ? name : r.name,
        ownerId: actor.user.id,
        size: r.size_bytes,
        mimeType: r.mime_type,
        ...(r.version_id && r.blob_key && r.sha256 ? { version: { id: uuidv7(), blobKey: r.blob_key, sha256: r.sha256 } } : {}),
      })),
    );
    // A copied document's pictures and attached files are its own copies, not the originals.
    const documents = subtree.filter((r) => r.kind === 'document');
    await contents.copyDocuments(
      tx,
      documents.map((r) => ({ id: newIds.get(r.id)!, sourceId: r.id, relink: subtree.some((c) => c.parent_id === r.id) })),
      newIds,
      actor.user.id,
    );
    const copy = (await findItem(tx, newIds.get(source.item.id)!))!;
    await record(tx, actor, {
      workspaceId: copy.workspace_id,
      action: 'item.created',
      itemId: copy.id,
      parentIds: [target.item.id],
      data: { name: copy.name, kind: copy.kind, copiedFrom: source.item.id },
    });
    const access = await requireItem(tx, actor, copy.id, 'view');
    if (!(await addUsage(tx, source.item.workspace_id, bytes))) throw new AppError('quota_exceeded');
    return presentItem(copy, access);
  });
}

export async function starItem(db: Db, actor: Actor, id: string, starred: boolean): Promise<void> {
  const { item } = await requireItem(db, actor, id, 'view');
  await setStar(db, actor.user.id, item.id, starred);
}

/** Items from the caller's list (stars or visits) that they can still see, in the list's order. */
async function visibleOf(db: Db, actor: Actor, rows: ItemRow[]): Promise<TItem[]> {
  const accesses = await findAccesses(
    db,
    actor,
    rows.map((r) => r.id),
  );
  return rows.flatMap((row) => {
    const access = accesses.get(row.id);
    return access?.abilities.view ? [presentItem(row, access)] : [];
  });
}

export async function listStarred(db: Db, actor: Actor, workspaceIdOrSlug: string): Promise<TItem[]> {
  const workspace = await getWorkspace(db, actor.user, workspaceIdOrSlug);
  return visibleOf(db, actor, await findStarred(db, actor.user.id, workspace.id, 500));
}

export async function listRecent(db: Db, actor: Actor, workspaceIdOrSlug: string): Promise<TItem[]> {
  const workspace = await getWorkspace(db, actor.user, workspaceIdOrSlug);
  return visibleOf(db, actor, await findRecent(db, actor.user.id, workspace.id, 50));
}
