/** A file's versions as people manage them (ADR 0041): list, name, delete, restore, and the retention job. */
import type { TFileVersion, TItem } from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import type { ItemRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { enqueue } from '../../infra/jobs/queue.ts';
import { record } from '../events/index.ts';
import { presentItem, requireItem, upsertVisit, type ItemAccess } from '../items/index.ts';
import { addUsage } from '../workspaces/index.ts';
import {
  deleteVersionRow,
  findRetentionFiles,
  findVersionsWithAuthors,
  findVersionWithAuthor,
  insertVersion,
  pruneVersions,
  setVersionName,
  type VersionWithAuthor,
} from './files.repo.ts';
import { versionsToKeep } from './retention.ts';

function presentVersion(v: VersionWithAuthor, item: ItemRow): TFileVersion {
  return {
    id: v.id,
    itemId: v.item_id,
    number: v.number,
    size: Number(v.size_bytes),
    sha256: v.sha256,
    mimeType: v.mime_type,
    authorId: v.author_id,
    authorName: v.author_name,
    name: v.name,
    pinned: v.pinned,
    current: v.id === item.current_version_id,
    createdAt: v.created_at.toISOString(),
  };
}

/** A file's ready versions, newest first, with their authors' names. */
export async function listVersions(db: Db, actor: Actor, id: string): Promise<TFileVersion[]> {
  const { item } = await requireItem(db, actor, id, 'view');
  if (item.kind !== 'file') return [];
  return (await findVersionsWithAuthors(db, item.id)).map((v) => presentVersion(v, item));
}

/** One of the file's own ready versions; any other id does not exist here. */
async function requireVersion(db: Db, access: ItemAccess, versionId: string): Promise<VersionWithAuthor> {
  const version = await findVersionWithAuthor(db, versionId);
  if (!version || version.item_id !== access.item.id || version.state !== 'ready') throw new AppError('not_found', 'This file has no such version.');
  return version;
}

/**
 * Names a version, or clears its name (editors: a name is a label, as a file's name is). A named
 * version is pinned: the retention job keeps it for ever.
 */
export function nameVersion(db: Db, actor: Actor, id: string, versionId: string, name: string | null): Promise<TFileVersion> {
  return inTransaction(db, async (tx) => {
    const access = await requireItem(tx, actor, id, 'edit', { lock: true });
    const version = await requireVersion(tx, access, versionId);
    const named = await setVersionName(tx, version.id, name);
    await record(tx, actor, {
      workspaceId: access.item.workspace_id,
      action: 'item.updated',
      itemId: access.item.id,
      parentIds: [access.item.parent_id],
      data: { name: access.item.name, versionNamed: version.number, versionName: name },
    });
    return presentVersion({ ...named, author_name: version.author_name }, access.item);
  });
}

/**
 * Deletes a version that is not the current one (managers). Its bytes go by a job when no version
 * names them any more (copies, restores and re-uploads share them), and stop counting at once.
 */
export function deleteVersion(db: Db, actor: Actor, id: string, versionId: string): Promise<void> {
  return inTransaction(db, async (tx) => {
    const access = await requireItem(tx, actor, id, 'deleteVersion', { lock: true });
    const version = await requireVersion(tx, access, versionId);
    if (version.id === access.item.current_version_id)
      throw new AppError('invalid_input', 'The current version cannot be deleted: restore another one first, or put the file in the trash.');
    await deleteVersionRow(tx, version.id);
    await enqueue(tx, 'blob.delete', { key: version.blob_key });
    await record(tx, actor, {
      workspaceId: access.item.workspace_id,
      action: 'item.updated',
      itemId: access.item.id,
      parentIds: [access.item.parent_id],
      data: { name: access.item.name, versionDeleted: version.number },
    });
    // Last, as every writer of usage does (see addUsage).
    await addUsage(tx, access.item.workspace_id, -Number(version.size_bytes));
  });
}

/**
 * Makes an older version's bytes the current version again (managers): a new version naming the
 * same blob — nothing is copied, nothing is lost, the versions after it stay. The file is locked
 * like any new version's, so a restore and an upload completing at once both end as versions, in
 * the order they committed. The new version's bytes count against the quota like any version's.
 */
export function restoreVersion(db: Db, actor: Actor, id: string, versionId: string): Promise<{ item: TItem; version: TFileVersion }> {
  return inTransaction(db, async (tx) => {
    const access = await requireItem(tx, actor, id, 'restoreVersion', { lock: true });
    const old = await requireVersion(tx, access, versionId);
    if (old.id === access.item.current_version_id) throw new AppError('invalid_input', 'This is already the current version.');
    const { item, version } = await insertVersion(tx, access.item.id, {
      authorId: actor.user.id,
      size: Number(old.size_bytes),
      mimeType: old.mime_type,
      blobKey: old.blob_key,
      sha256: old.sha256,
    });
    await upsertVisit(tx, actor.user.id, item.id);
    await record(tx, actor, {
      workspaceId: item.workspace_id,
      action: 'item.updated',
      itemId: item.id,
      parentIds: [item.parent_id],
      data: { name: item.name, version: version.number, restoredFrom: old.number },
    });
    if (!(await addUsage(tx, item.workspace_id, Number(old.size_bytes)))) throw new AppError('quota_exceeded');
    return {
      item: presentItem(item, access),
      version: presentVersion({ ...version, author_name: actor.user.name }, item),
    };
  });
}

/**
 * The retention job (PRODUCT.md §9): for each file with several versions, the versions
 * `versionsToKeep` does not keep become `pruned`; their bytes go by a job when no version names
 * them, and stop counting against the quota. A bounded number of files per run, in pages.
 */
export async function pruneOldVersions(db: Db, o: { now?: Date; max: number; pages?: number; pageSize?: number }): Promise<number> {
  const now = o.now ?? new Date();
  let after: string | null = null;
  let pruned = 0;
  for (let page = 0; page < (o.pages ?? 50); page++) {
    const files = await findRetentionFiles(db, after, o.pageSize ?? 200);
    if (!files.length) break;
    after = files.at(-1)!.item_id;
    const doomed = files.flatMap((f) => {
      const keep = versionsToKeep(
        f.versions.map((v) => ({ id: v.id, createdAt: v.created_at, pinned: v.pinned, current: v.id === f.current_version_id })),
        now,
        o.max,
      );
      return f.versions.filter((v) => !keep.has(v.id)).map((v) => v.id);
    });
    if (!doomed.length) continue;
    pruned += await inTransaction(db, async (tx) => {
      const gone = await pruneVersions(tx, doomed);
      for (const key of new Set(gone.map((g) => g.blob_key))) await enqueue(tx, 'blob.delete', { key });
      const freed = new Map<string, number>();
      for (const g of gone) freed.set(g.workspace_id, (freed.get(g.workspace_id) ?? 0) + g.size_bytes);
      for (const [workspaceId, bytes] of freed) await addUsage(tx, workspaceId, -bytes);
      return gone.length;
    });
  }
  return pruned;
}
