import { uuidv7 } from '@cabinet/contracts';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database, FileVersionRow, ItemRow, UploadRow, UploadState } from '../../db/schema.ts';

type Q = Kysely<Database>;

export type NewUpload = Omit<UploadRow, 'id' | 'state' | 'failure' | 'result_item_id' | 'created_at' | 'updated_at'>;

export function insertUpload(db: Q, u: NewUpload): Promise<UploadRow> {
  return db
    .insertInto('uploads')
    .values({ id: uuidv7(), ...u, state: 'created' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The caller's own upload: nobody else's upload exists for them. */
export function findOwnUpload(db: Q, id: string, authorId: string, o: { lock?: boolean } = {}): Promise<UploadRow | undefined> {
  let q = db.selectFrom('uploads').selectAll().where('id', '=', id).where('author_id', '=', authorId);
  if (o.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export function findActiveUploads(db: Q, authorId: string, workspaceId: string): Promise<UploadRow[]> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('author_id', '=', authorId)
    .where('workspace_id', '=', workspaceId)
    .where('state', 'in', ['created', 'uploading'])
    .orderBy('created_at')
    .limit(1000)
    .execute();
}

export function setUploadState(db: Q, id: string, change: { state: UploadState; failure?: string | null; resultItemId?: string; expiresAt?: Date }): Promise<UploadRow> {
  return db
    .updateTable('uploads')
    .set({
      state: change.state,
      updated_at: new Date(),
      ...(change.failure !== undefined ? { failure: change.failure } : {}),
      ...(change.resultItemId ? { result_item_id: change.resultItemId } : {}),
      ...(change.expiresAt ? { expires_at: change.expiresAt } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Uploads nobody touched before `before`, oldest first, locked for the caller's transaction. */
export function claimStaleUploads(db: Q, before: Date, limit: number): Promise<UploadRow[]> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('state', 'in', ['created', 'uploading'])
    .where('expires_at', '<', before)
    .orderBy('expires_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function insertFile(
  db: Q,
  f: { workspaceId: string; parentId: string; name: string; ownerId: string; size: number; mimeType: string; blobKey: string; sha256: string },
): Promise<{ item: ItemRow; version: FileVersionRow }> {
  const itemId = uuidv7();
  const versionId = uuidv7();
  const item = await db
    .insertInto('items')
    .values({
      id: itemId,
      workspace_id: f.workspaceId,
      parent_id: f.parentId,
      kind: 'file',
      name: f.name,
      owner_id: f.ownerId,
      size_bytes: f.size,
      mime_type: f.mimeType,
      current_version_id: versionId,
      updated_by: f.ownerId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const version = await db
    .insertInto('file_versions')
    .values({ id: versionId, item_id: itemId, number: 1, blob_key: f.blobKey, size_bytes: f.size, sha256: f.sha256, mime_type: f.mimeType, author_id: f.ownerId })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { item, version };
}

/** A new current version of a file; the item takes its size and type. */
export async function insertVersion(db: Q, itemId: string, v: { authorId: string; size: number; mimeType: string; blobKey: string; sha256: string }): Promise<{ item: ItemRow; version: FileVersionRow }> {
  const version = await db
    .insertInto('file_versions')
    .values({
      id: uuidv7(),
      item_id: itemId,
      number: sql<number>`(SELECT coalesce(max(number), 0) + 1 FROM file_versions WHERE item_id = ${itemId})`,
      blob_key: v.blobKey,
      size_bytes: v.size,
      sha256: v.sha256,
      mime_type: v.mimeType,
      author_id: v.authorId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const item = await db
    .updateTable('items')
    .set({ size_bytes: v.size, mime_type: v.mimeType, current_version_id: version.id, updated_by: v.authorId, updated_at: new Date(), version: sql`version + 1` })
    .where('id', '=', itemId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { item, version };
}

export function findVersion(db: Q, id: string): Promise<FileVersionRow | undefined> {
  return db.selectFrom('file_versions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findVersions(db: Q, itemId: string): Promise<FileVersionRow[]> {
  return db.selectFrom('file_versions').selectAll().where('item_id', '=', itemId).where('state', '=', 'ready').orderBy('number', 'desc').execute();
}

/**
 * Adds bytes to what a workspace uses if its quota allows (removing bytes always succeeds);
 * false when it would exceed the quota. Every writer of usage does this as its transaction's
 * last statement, so the workspace row is held only while that transaction commits, and no two
 * writers can deadlock over it.
 */
export async function addUsage(db: Q, workspaceId: string, bytes: number): Promise<boolean> {
  if (bytes === 0) return true;
  const row = await db
    .updateTable('workspaces')
    .set({ used_bytes: sql`greatest(used_bytes + ${bytes}, 0)` })
    .where('id', '=', workspaceId)
    .where((eb) => eb.or([eb('quota_bytes', 'is', null), eb(sql`used_bytes + ${bytes}`, '<=', eb.ref('quota_bytes')), eb.val(bytes < 0)]))
    .returning('used_bytes')
    .executeTakeFirst();
  return !!row;
}

/** What a folder holds under a name (the clashing item, if any) and what its workspace uses and may use: the checks before an upload's work, in one statement. */
export async function findFolderSlot(db: Q, workspaceId: string, parentId: string, name: string): Promise<Usage & { clash_id: string | null }> {
  const row = await db
    .selectFrom('workspaces as w')
    .select(['w.quota_bytes', 'w.used_bytes'])
    .select((eb) => eb.selectFrom('items').select('id').where('parent_id', '=', parentId).where('state', '=', 'active').where(sql`lower(name)`, '=', sql`lower(${name})`).limit(1).as('clash_id'))
    .where('w.id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return { ...row, clash_id: row.clash_id ?? null };
}

export interface Usage {
  quota_bytes: number | null;
  used_bytes: number;
}

/** The caller's own upload with what completing it will meet: an active item under its name in its folder, and its workspace's usage. */
export async function findOwnUploadForCompletion(db: Q, id: string, authorId: string): Promise<(UploadRow & Usage & { clash_id: string | null }) | undefined> {
  const row = await db
    .selectFrom('uploads as u')
    .innerJoin('workspaces as w', 'w.id', 'u.workspace_id')
    .selectAll('u')
    .select(['w.quota_bytes', 'w.used_bytes'])
    .select((eb) =>
      eb
        .selectFrom('items as i')
        .select('i.id')
        .whereRef('i.parent_id', '=', 'u.parent_id')
        .where('i.state', '=', 'active')
        .where(sql`lower(i.name)`, '=', sql`lower(u.name)`)
        .limit(1)
        .as('clash_id'),
    )
    .where('u.id', '=', id)
    .where('u.author_id', '=', authorId)
    .executeTakeFirst();
  return row && { ...row, clash_id: row.clash_id ?? null };
}

/**
 * The common end of an upload, in one statement: the upload becomes `completed`, a new file
 * with its first version appears under the upload's name, the uploader's visit is recorded, the
 * change is announced (`announce`, a NOTIFY) and the bytes are counted within the quota. When
 * the upload was no longer open or the name was taken meanwhile nothing is written and the
 * answer is `undefined`; when the quota refuses, the file row comes back with `counted: false`
 * and the caller must roll back.
 */
export async function insertUploadedFile(
  db: Q,
  f: { uploadId: string; workspaceId: string; parentId: string; name: string; ownerId: string; size: number; mimeType: string; blobKey: string; sha256: string; announce: (itemId: string) => RawBuilder<unknown> },
): Promise<{ item: ItemRow; counted: boolean } | undefined> {
  const itemId = uuidv7();
  const versionId = uuidv7();
  const now = new Date();
  const result = await sql<ItemRow & { completed: boolean; counted: boolean }>`
    WITH item AS (
      INSERT INTO items (id, workspace_id, parent_id, kind, name, owner_id, size_bytes, mime_type, current_version_id, updated_by, created_at, updated_at)
      SELECT ${itemId}, ${f.workspaceId}, ${f.parentId}, 'file', ${f.name}, ${f.ownerId}, ${f.size}, ${f.mimeType}, ${versionId}, ${f.ownerId}, ${now}, ${now}
       WHERE EXISTS (SELECT 1 FROM uploads WHERE id = ${f.uploadId} AND state IN ('created', 'uploading'))
      ON CONFLICT (parent_id, lower(name)) WHERE state = 'active' AND parent_id IS NOT NULL DO NOTHING
      RETURNING *
    ), version AS (
      INSERT INTO file_versions (id, item_id, number, blob_key, size_bytes, sha256, mime_type, author_id)
      SELECT ${versionId}, id, 1, ${f.blobKey}, ${f.size}, ${f.sha256}, ${f.mimeType}, ${f.ownerId} FROM item
    ), done AS (
      UPDATE uploads SET state = 'completed', result_item_id = ${itemId}, updated_at = ${now}
       WHERE id = ${f.uploadId} AND state IN ('created', 'uploading') AND EXISTS (SELECT 1 FROM item)
      RETURNING id
    ), visit AS (
      INSERT INTO item_visits (user_id, item_id, visited_at) SELECT ${f.ownerId}, id, ${now} FROM item
      ON CONFLICT (user_id, item_id) DO UPDATE SET visited_at = excluded.visited_at
    ), counted AS (
      UPDATE workspaces SET used_bytes = used_bytes + ${f.size}
       WHERE id = ${f.workspaceId} AND EXISTS (SELECT 1 FROM item) AND (quota_bytes IS NULL OR used_bytes + ${f.size} <= quota_bytes)
      RETURNING id
    ), announced AS (
      SELECT ${f.announce(itemId)} FROM item
    )
    SELECT item.*, EXISTS (SELECT 1 FROM done) AS completed, EXISTS (SELECT 1 FROM counted) AS counted, (SELECT count(*) FROM announced) AS announced
      FROM item
  `.execute(db);
  const row = result.rows[0];
  if (!row?.completed) return undefined;
  const { completed: _c, counted, announced: _a, ...item } = row as typeof row & { announced: unknown };
  return { item: item as ItemRow, counted };
}

/** Every version's bytes in a workspace: what `used_bytes` should say. */
export async function recomputeUsage(db: Q, workspaceId: string): Promise<number> {
  const row = await sql<{ used: number | string | null }>`
    UPDATE workspaces SET used_bytes = coalesce((
      SELECT sum(v.size_bytes) FROM file_versions v JOIN items i ON i.id = v.item_id
       WHERE i.workspace_id = ${workspaceId} AND v.state = 'ready'
    ), 0)
    WHERE id = ${workspaceId}
    RETURNING used_bytes AS used
  `.execute(db);
  return Number(row.rows[0]?.used ?? 0);
}

/** The blob keys and byte total of every version held in an item's subtree (before it is purged). */
export async function subtreeBlobs(db: Q, itemId: string): Promise<{ keys: string[]; bytes: number }> {
  const rows = await sql<{ blob_key: string; size_bytes: number }>`
    WITH RECURSIVE sub AS (
      SELECT id FROM items WHERE id = ${itemId}
      UNION ALL
      SELECT i.id FROM items i JOIN sub s ON i.parent_id = s.id
    )
    SELECT v.blob_key, v.size_bytes FROM file_versions v JOIN sub ON v.item_id = sub.id
  `.execute(db);
  return { keys: rows.rows.map((r) => r.blob_key), bytes: rows.rows.reduce((sum, r) => sum + Number(r.size_bytes), 0) };
}

/** Active files and folders below a folder, with their path relative to it (for a zip). */
export async function findSubtreeFiles(db: Q, folderId: string): Promise<{ id: string; kind: ItemRow['kind']; path: string; size: number; blob_key: string | null; updated_at: Date }[]> {
  const rows = await sql<{ id: string; kind: ItemRow['kind']; path: string; size: number; blob_key: string | null; updated_at: Date }>`
    WITH RECURSIVE sub AS (
      SELECT id, kind, name::text AS path, 0 AS depth FROM items WHERE parent_id = ${folderId} AND state = 'active'
      UNION ALL
      SELECT i.id, i.kind, s.path || '/' || i.name, s.depth + 1 FROM items i JOIN sub s ON i.parent_id = s.id
       WHERE i.state = 'active' AND s.kind = 'folder' AND s.depth < 64
    )
    SELECT sub.id, sub.kind, sub.path, coalesce(v.size_bytes, 0) AS size, v.blob_key, i.updated_at
      FROM sub JOIN items i ON i.id = sub.id LEFT JOIN file_versions v ON v.id = i.current_version_id
     ORDER BY sub.path
  `.execute(db);
  return rows.rows.map((r) => ({ ...r, size: Number(r.size), updated_at: new Date(r.updated_at) }));
}

/** Sets every workspace's used bytes from its versions, correcting any drift. */
export async function recomputeAllUsage(db: Q): Promise<void> {
  await sql`
    UPDATE workspaces w SET used_bytes = coalesce((
      SELECT sum(v.size_bytes) FROM file_versions v JOIN items i ON i.id = v.item_id
       WHERE i.workspace_id = w.id AND v.state = 'ready'
    ), 0)
  `.execute(db);
}

/** Forgets uploads that ended (completed, cancelled, expired or failed) before `before`. */
export async function deleteEndedUploads(db: Q, before: Date): Promise<number> {
  const result = await db.deleteFrom('uploads').where('state', 'in', ['completed', 'aborted', 'expired', 'failed']).where('updated_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
