import { uuidv7 } from '@cabinet/contracts';
import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { Database, FileVersionRow, ItemRow, UploadRow, UploadState } from '../../db/schema.ts';
import { plannedOnceOutside } from '../../db/planned-once.ts';

type Q = Kysely<Database>;

export type NewUpload = Omit<
  UploadRow,
  'id' | 'state' | 'failure' | 'result_item_id' | 'created_at' | 'updated_at' | 'link_id' | 'link_ip' | 'dedup_blob_key' | 'dedup_challenge'
> & {
  link_id: string | null;
  link_ip: string | null;
  /** A blob the workspace holds with the same bytes, and the challenge that proves the uploader holds them too (JSON). */
  dedup_blob_key?: string | null;
  dedup_challenge?: string | null;
};

/**
 * Whose uploads: a person's own (`linkId` null), or those made through one file-request link
 * (ADR 0035), which are its maker's by `author_id` and yet never theirs to see or finish.
 */
export interface UploadOwner {
  authorId: string;
  linkId: string | null;
}

const ownedBy = (owner: UploadOwner) => (eb: ExpressionBuilder<Database, 'uploads'>) =>
  eb.and([eb('uploads.author_id', '=', owner.authorId), owner.linkId ? eb('uploads.link_id', '=', owner.linkId) : eb('uploads.link_id', 'is', null)]);

/** Several uploads in one statement, answered in the order given. */
export async function insertUploads(db: Q, uploads: NewUpload[]): Promise<UploadRow[]> {
  if (uploads.length === 0) return [];
  const rows = uploads.map((u) => ({ id: uuidv7(), ...u, state: 'created' as const }));
  const inserted = new Map((await db.insertInto('uploads').values(rows).returningAll().execute()).map((r) => [r.id, r]));
  return rows.map((r) => inserted.get(r.id)!);
}

/** The caller's own upload: nobody else's upload exists for them. */
export function findOwnUpload(db: Q, id: string, owner: UploadOwner, o: { lock?: boolean } = {}): Promise<UploadRow | undefined> {
  let q = db.selectFrom('uploads').selectAll().where('id', '=', id).where(ownedBy(owner));
  if (o.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export function findActiveUploads(db: Q, authorId: string, workspaceId: string): Promise<UploadRow[]> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('author_id', '=', authorId)
    .where('link_id', 'is', null)
    .where('workspace_id', '=', workspaceId)
    .where('state', 'in', ['created', 'uploading'])
    .orderBy('created_at')
    .limit(1000)
    .execute();
}

export function setUploadState(
  db: Q,
  id: string,
  change: { state: UploadState; failure?: string | null; resultItemId?: string; expiresAt?: Date },
): Promise<UploadRow> {
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

/** A link's open uploads, locked for the caller's transaction. */
export function claimLinkUploads(db: Q, linkId: string): Promise<UploadRow[]> {
  return db.selectFrom('uploads').selectAll().where('link_id', '=', linkId).where('state', 'in', ['created', 'uploading']).forUpdate().execute();
}

/**
 * A new version's bytes: their size, type, key and SHA-256, and what a client said of them when they came through
 * WebDAV — when it says the file was last changed (X-OC-Mtime) and the digests clients compare files by
 * (`SHA1:<hex> MD5:<hex>`).
 */
export interface NewBytes {
  size: number;
  mimeType: string;
  blobKey: string;
  sha256: string;
  modifiedAt?: Date | null | undefined;
  checksums?: string | null | undefined;
}

export async function insertFile(
  db: Q,
  f: { workspaceId: string; parentId: string; name: string; ownerId: string } & NewBytes,
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
    .values({
      id: versionId,
      item_id: itemId,
      number: 1,
      blob_key: f.blobKey,
      size_bytes: f.size,
      sha256: f.sha256,
      mime_type: f.mimeType,
      author_id: f.ownerId,
      modified_at: f.modifiedAt ?? null,
      checksums: f.checksums ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { item, version };
}

/** A new current version of a file; the item takes its size and type. */
export async function insertVersion(db: Q, itemId: string, v: { authorId: string } & NewBytes): Promise<{ item: ItemRow; version: FileVersionRow }> {
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
      modified_at: v.modifiedAt ?? null,
      checksums: v.checksums ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const item = await db
    .updateTable('items')
    .set({
      size_bytes: v.size,
      mime_type: v.mimeType,
      current_version_id: version.id,
      updated_by: v.authorId,
      updated_at: new Date(),
      version: sql`version + 1`,
    })
    .where('id', '=', itemId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { item, version };
}

export function findVersion(db: Q, id: string): Promise<FileVersionRow | undefined> {
  return db.selectFrom('file_versions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A document's own pictures: the files in it (not in the trash) whose current bytes are of one of `types`. */
export function findAttachedPictures(
  db: Q,
  documentId: string,
  types: readonly string[],
): Promise<{ id: string; name: string; blob_key: string; mime_type: string }[]> {
  return db
    .selectFrom('items as i')
    .innerJoin('file_versions as v', 'v.id', 'i.current_version_id')
    .select(['i.id', 'i.name', 'v.blob_key', 'v.mime_type'])
    .where('i.parent_id', '=', documentId)
    .where('i.kind', '=', 'file')
    .where('i.state', '=', 'active')
    .where('v.state', '=', 'ready')
    .where('v.mime_type', 'in', types)
    .execute();
}

export function findVersions(db: Q, itemId: string): Promise<FileVersionRow[]> {
  return db.selectFrom('file_versions').selectAll().where('item_id', '=', itemId).where('state', '=', 'ready').orderBy('number', 'desc').execute();
}

export interface Usage {
  quota_bytes: number | null;
  used_bytes: number;
}

/** Open uploads: taking parts, not yet past their expiry. */
const openUpload = sql<boolean>`u.state IN ('created', 'uploading') AND u.expires_at > now()`;

/**
 * The checks before uploads' work, in one statement: for each (folder, name), the active item
 * already there under that name, if any; what the workspace uses and may use, and the bytes its
 * open uploads reserve; how many uploads the author has open — a person's own, or a link's from
 * one address (`ip`) — and how many that link took from that address within the last hour, and
 * the bytes all the link's open uploads reserve.
 */
export async function findFolderSlots(
  db: Q,
  workspaceId: string,
  owner: UploadOwner & { ip: string | null },
  slots: { parentId: string; name: string }[],
): Promise<{ usage: Usage & { reserved_bytes: number }; openUploads: number; recentStarts: number; linkReserved: number; clashIds: (string | null)[] }> {
  const mine = owner.linkId ? sql`u.link_id = ${owner.linkId} AND u.link_ip = ${owner.ip}` : sql`u.author_id = ${owner.authorId} AND u.link_id IS NULL`;
  const rows = await sql<
    Usage & {
      reserved_bytes: number | string;
      open_uploads: number | string;
      recent_starts: number | string;
      link_reserved: number | string;
      clash_ids: (string | null)[];
    }
  >`
    SELECT w.quota_bytes, w.used_bytes,
      (SELECT coalesce(sum(u.size_bytes), 0) FROM uploads u WHERE u.workspace_id = w.id AND ${openUpload}) AS reserved_bytes,
      (SELECT count(*) FROM uploads u WHERE ${mine} AND ${openUpload}) AS open_uploads,
      ${owner.linkId ? sql`(SELECT count(*) FROM uploads u WHERE ${mine} AND u.created_at > now() - interval '1 hour')` : sql`0`} AS recent_starts,
      ${owner.linkId ? sql`(SELECT coalesce(sum(u.size_bytes), 0) FROM uploads u WHERE u.link_id = ${owner.linkId} AND ${openUpload})` : sql`0`}
        AS link_reserved,
      (
      SELECT array_agg((SELECT i.id FROM items i WHERE i.parent_id = s.parent_id AND i.state = 'active' AND lower(i.name) = lower(s.name) LIMIT 1) ORDER BY s.n)
        FROM unnest(${slots.map((x) => x.parentId)}::uuid[], ${slots.map((x) => x.name)}::text[]) WITH ORDINALITY AS s(parent_id, name, n)
    ) AS clash_ids
    FROM workspaces w WHERE w.id = ${workspaceId}
  `.execute(db);
  const row = rows.rows[0];
  if (!row) throw new Error(`workspace ${workspaceId} is gone`);
  return {
    usage: {
      quota_bytes: row.quota_bytes === null ? null : Number(row.quota_bytes),
      used_bytes: Number(row.used_bytes),
      reserved_bytes: Number(row.reserved_bytes),
    },
    openUploads: Number(row.open_uploads),
    recentStarts: Number(row.recent_starts),
    linkReserved: Number(row.link_reserved),
    clashIds: row.clash_ids ?? [],
  };
}

/**
 * A person's uploads opened in one statement when they plainly fit (ADR 0076): every one or none. Written only when the
 * workspace's row is free to lock at once (another start or a completion holding it: none; not held against the
 * key-share locks of rows written that point at the workspace), the person's open uploads
 * leave room for `maxOpen`, the workspace's quota for their bytes besides those open uploads reserve, and each name is
 * free in its folder (or the upload is a new version of a file, or keeps both names). Answers the rows in the order
 * given, each with what its completion will meet, or undefined when any check failed: the caller then starts them the
 * careful way (a transaction holding the row, each upload judged for itself, each refusal with its reasons).
 */
export async function insertUploadsWhenRoom(db: Q, uploads: NewUpload[], maxOpen: number): Promise<UploadForCompletion[] | undefined> {
  const first = uploads[0];
  if (!first) return [];
  if (uploads.some((u) => u.link_id)) throw new Error("insertUploadsWhenRoom: a link's uploads are counted by its address: the careful way");
  const rows = uploads.map((u) => ({
    id: uuidv7(),
    ...u,
    dedup_challenge: u.dedup_challenge ? JSON.parse(u.dedup_challenge) : null,
    state: 'created',
  }));
  const { rows: inserted } = await sql<UploadForCompletion>`${plannedOnceOutside(db)}
    WITH room AS (
      SELECT w.id, w.quota_bytes, w.used_bytes FROM workspaces w WHERE w.id = ${first.workspace_id}::uuid FOR NO KEY UPDATE SKIP LOCKED
    ), asked AS (
      SELECT r.*, (SELECT i.id FROM items i WHERE i.parent_id = r.parent_id AND i.state = 'active' AND lower(i.name) = lower(r.name) LIMIT 1) AS clash_id
        FROM json_populate_recordset(NULL::uploads, ${JSON.stringify(rows)}::json) r
    ), seen AS (
      SELECT room.quota_bytes, room.used_bytes,
        (SELECT coalesce(sum(u.size_bytes), 0) FROM uploads u WHERE u.workspace_id = room.id AND ${openUpload}) AS reserved_bytes,
        (SELECT count(*) FROM uploads u WHERE u.author_id = ${first.author_id}::uuid AND u.link_id IS NULL AND ${openUpload}) AS open_uploads
        FROM room
    ), opened AS (
      INSERT INTO uploads (id, workspace_id, parent_id, item_id, name, on_conflict, size_bytes, mime_type, sha256, part_size, part_count,
                           blob_key, storage_upload_id, state, author_id, link_id, link_ip, dedup_blob_key, dedup_challenge, expires_at)
      SELECT a.id, a.workspace_id, a.parent_id, a.item_id, a.name, a.on_conflict, a.size_bytes, a.mime_type, a.sha256, a.part_size, a.part_count,
             a.blob_key, a.storage_upload_id, a.state, a.author_id, a.link_id, a.link_ip, a.dedup_blob_key, a.dedup_challenge, a.expires_at
        FROM asked a, seen s
       WHERE s.open_uploads + (SELECT count(*) FROM asked) <= ${maxOpen}::int
         AND (s.quota_bytes IS NULL OR s.used_bytes + s.reserved_bytes + (SELECT sum(size_bytes) FROM asked) <= s.quota_bytes)
         AND NOT EXISTS (SELECT 1 FROM asked WHERE clash_id IS NOT NULL AND item_id IS NULL AND on_conflict <> 'keep_both')
      RETURNING *
    )
    SELECT o.*, s.quota_bytes, s.used_bytes, CASE WHEN o.item_id IS NULL THEN a.clash_id END AS clash_id
      FROM opened o JOIN asked a ON a.id = o.id, seen s
  `.execute(db);
  if (inserted.length < rows.length) return undefined;
  const byId = new Map(inserted.map((r) => [r.id, r]));
  return rows.map((r) => byId.get(r.id)!);
}

export type UploadForCompletion = UploadRow & Usage & { clash_id: string | null };

/** The caller's own uploads with what completing each will meet: an active item under its name in its folder, and its workspace's usage. */
export async function findOwnUploadsForCompletion(db: Q, ids: string[], owner: UploadOwner): Promise<Map<string, UploadForCompletion>> {
  const rows = await db
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
    .where('u.id', 'in', ids)
    .where('u.author_id', '=', owner.authorId)
    .where((eb) => (owner.linkId ? eb('u.link_id', '=', owner.linkId) : eb('u.link_id', 'is', null)))
    .execute();
  return new Map(rows.map((r) => [r.id, { ...r, clash_id: r.clash_id ?? null }]));
}

export interface UploadedFile extends NewBytes {
  uploadId: string;
  workspaceId: string;
  parentId: string;
  name: string;
  ownerId: string;
}

/**
 * The common end of uploads, in one statement: each upload becomes `completed`, a new file with
 * its first version appears under the upload's name, the uploader's visit is recorded (`visit`:
 * not for a link's visitor, whose files belong to someone who has not seen them), the
 * change is recorded (`announce`: an INSERT into activity_events from the `item` rows) and the
 * bytes are counted within each workspace's quota. `whole` is false when any upload was no
 * longer open or any name was taken meanwhile, `counted` when a quota refused: then the caller
 * rolls the transaction back and completes those uploads the careful way.
 */
export async function insertUploadedFiles(
  db: Q,
  files: UploadedFile[],
  announce: RawBuilder<unknown>,
  o: { visit: boolean } = { visit: true },
): Promise<{ items: ItemRow[]; whole: boolean; counted: boolean }> {
  const now = new Date();
  const rows = files.map((f) => ({ ...f, itemId: uuidv7(), versionId: uuidv7(), modifiedAt: f.modifiedAt ?? null, checksums: f.checksums ?? null }));
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
  const result = await sql<ItemRow & { completed: number; counted: number; workspaces: number; announced: number }>`
    WITH input AS (
      SELECT * FROM unnest(
        ${column('uploadId')}::uuid[], ${column('itemId')}::uuid[], ${column('versionId')}::uuid[], ${column('workspaceId')}::uuid[],
        ${column('parentId')}::uuid[], ${column('name')}::text[], ${column('ownerId')}::uuid[], ${column('size')}::bigint[],
        ${column('mimeType')}::text[], ${column('blobKey')}::text[], ${column('sha256')}::text[],
        ${column('modifiedAt')}::timestamptz[], ${column('checksums')}::text[]
      ) AS x(upload_id, item_id, version_id, workspace_id, parent_id, name, owner_id, size, mime_type, blob_key, sha256, modified_at, checksums)
       WHERE EXISTS (SELECT 1 FROM uploads u WHERE u.id = x.upload_id AND u.state IN ('created', 'uploading'))
    ), item AS (
      INSERT INTO items (id, workspace_id, parent_id, kind, name, owner_id, size_bytes, mime_type, current_version_id, updated_by, created_at, updated_at)
      SELECT item_id, workspace_id, parent_id, 'file', name, owner_id, size, mime_type, version_id, owner_id, ${now}, ${now} FROM input
      ON CONFLICT (parent_id, lower(name)) WHERE state = 'active' AND parent_id IS NOT NULL DO NOTHING
      RETURNING *
    ), version AS (
      INSERT INTO file_versions (id, item_id, number, blob_key, size_bytes, sha256, mime_type, author_id, modified_at, checksums)
      SELECT x.version_id, x.item_id, 1, x.blob_key, x.size, x.sha256, x.mime_type, x.owner_id, x.modified_at, x.checksums
        FROM input x JOIN item ON item.id = x.item_id
    ), done AS (
      UPDATE uploads u SET state = 'completed', result_item_id = x.item_id, updated_at = ${now}
        FROM input x JOIN item ON item.id = x.item_id
       WHERE u.id = x.upload_id AND u.state IN ('created', 'uploading')
      RETURNING u.id
    ), visit AS (
      INSERT INTO item_visits (user_id, item_id, visited_at) SELECT owner_id, id, ${now} FROM item WHERE ${o.visit}
      ON CONFLICT (user_id, item_id) DO UPDATE SET visited_at = excluded.visited_at
    ), adding AS (
      SELECT workspace_id, sum(size_bytes) AS bytes FROM item GROUP BY workspace_id
    ), counted AS (
      UPDATE workspaces w SET used_bytes = w.used_bytes + a.bytes FROM adding a
       WHERE w.id = a.workspace_id AND (w.quota_bytes IS NULL OR w.used_bytes + a.bytes <= w.quota_bytes)
      RETURNING w.id
    ), announced AS (
      ${announce}
    )
    SELECT item.*, (SELECT count(*) FROM done) AS completed, (SELECT count(*) FROM counted) AS counted,
           (SELECT count(*) FROM adding) AS workspaces, (SELECT count(*) FROM announced) AS announced
      FROM item
  `.execute(db);
  const first = result.rows[0];
  const items = result.rows.map(({ completed: _c, counted: _n, workspaces: _w, announced: _a, ...item }) => item as ItemRow);
  const whole = items.length === files.length && Number(first?.completed ?? 0) === files.length;
  return {
    items: rows.map((r) => items.find((i) => i.id === r.itemId)).filter((i): i is ItemRow => !!i),
    whole,
    counted: !first || Number(first.counted) === Number(first.workspaces),
  };
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

/** Active files and folders below a folder, with their path relative to it (for a zip). */
export async function findSubtreeFiles(
  db: Q,
  folderId: string,
): Promise<{ id: string; kind: ItemRow['kind']; path: string; size: number; blob_key: string | null; updated_at: Date }[]> {
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
  const result = await db
    .deleteFrom('uploads')
    .where('state', 'in', ['completed', 'aborted', 'expired', 'failed'])
    .where('updated_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export type VersionWithAuthor = FileVersionRow & { author_name: string | null };

/** Versions (`v`) with their authors' names. */
const versionsWithAuthors = (db: Q) =>
  db.selectFrom('file_versions as v').leftJoin('users as u', 'u.id', 'v.author_id').selectAll('v').select('u.name as author_name');

/** A file's ready versions, newest first, with their authors' names. */
export function findVersionsWithAuthors(db: Q, itemId: string): Promise<VersionWithAuthor[]> {
  return versionsWithAuthors(db).where('v.item_id', '=', itemId).where('v.state', '=', 'ready').orderBy('v.number', 'desc').execute();
}

/** One version with its author's name. */
export function findVersionWithAuthor(db: Q, id: string): Promise<VersionWithAuthor | undefined> {
  return versionsWithAuthors(db).where('v.id', '=', id).executeTakeFirst();
}

/** Names a version (pinned: kept for ever) or clears its name. */
export function setVersionName(db: Q, id: string, name: string | null): Promise<FileVersionRow> {
  return db
    .updateTable('file_versions')
    .set({ name, pinned: name !== null })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteVersionRow(db: Q, id: string): Promise<void> {
  await db.deleteFrom('file_versions').where('id', '=', id).execute();
}

/**
 * For each (SHA-256, size), the blob of a ready version in the workspace holding those bytes, in
 * one statement: each a probe of file_versions_content_idx, the few rows found narrowed to the
 * workspace through their items. Answered in the order asked (null: none).
 */
export async function findContentBlobs(db: Q, workspaceId: string, wanted: { sha256: string; size: number }[]): Promise<(string | null)[]> {
  if (!wanted.length) return [];
  const rows = await sql<{ n: number | string; blob_key: string | null }>`
    SELECT w.n, (
      SELECT v.blob_key FROM file_versions v JOIN items i ON i.id = v.item_id
       WHERE v.sha256 = w.sha256 AND v.size_bytes = w.size AND v.state = 'ready' AND i.workspace_id = ${workspaceId}
       LIMIT 1
    ) AS blob_key
      FROM unnest(${wanted.map((w) => w.sha256)}::text[], ${wanted.map((w) => w.size)}::bigint[]) WITH ORDINALITY AS w(sha256, size, n)
  `.execute(db);
  const found = new Map(rows.rows.map((r) => [Number(r.n), r.blob_key]));
  return wanted.map((_, i) => found.get(i + 1) ?? null);
}

/**
 * Holds a ready version of the workspace naming the blob until the caller's transaction ends (a
 * share lock: a purge or prune of it waits), so the blob cannot be deleted under a new version
 * that reuses it. False when no ready version names it any more.
 */
export async function holdBlob(db: Q, workspaceId: string, blobKey: string, sha256: string, size: number): Promise<boolean> {
  const row = await sql<{ id: string }>`
    SELECT v.id FROM file_versions v JOIN items i ON i.id = v.item_id
     WHERE v.blob_key = ${blobKey} AND v.sha256 = ${sha256} AND v.size_bytes = ${size} AND v.state = 'ready' AND i.workspace_id = ${workspaceId}
     LIMIT 1 FOR SHARE OF v
  `.execute(db);
  return row.rows.length > 0;
}

/** Withdraws an upload's dedup offer (a wrong proof): it completes by its parts from now on. */
export async function clearDedupOffer(db: Q, uploadId: string): Promise<void> {
  await db.updateTable('uploads').set({ dedup_blob_key: null, dedup_challenge: null }).where('id', '=', uploadId).execute();
}

/** What the retention job weighs for one file: its ready versions, and which is current. */
export interface RetentionFile {
  item_id: string;
  workspace_id: string;
  current_version_id: string | null;
  versions: { id: string; created_at: Date; pinned: boolean; blob_key: string; size_bytes: number }[];
}

/** Files with more than one ready version, by item id after `after`, `limit` at a time. */
export async function findRetentionFiles(db: Q, after: string | null, limit: number): Promise<RetentionFile[]> {
  const items = await sql<{ item_id: string }>`
    SELECT item_id FROM file_versions WHERE state = 'ready' ${after ? sql`AND item_id > ${after}` : sql``}
     GROUP BY item_id HAVING count(*) > 1 ORDER BY item_id LIMIT ${limit}
  `.execute(db);
  const ids = items.rows.map((r) => r.item_id);
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('file_versions as v')
    .innerJoin('items as i', 'i.id', 'v.item_id')
    .select(['v.id', 'v.item_id', 'v.created_at', 'v.pinned', 'v.blob_key', 'v.size_bytes', 'i.workspace_id', 'i.current_version_id'])
    .where('v.item_id', 'in', ids)
    .where('v.state', '=', 'ready')
    .execute();
  const files = new Map<string, RetentionFile>();
  for (const r of rows) {
    let f = files.get(r.item_id);
    if (!f) files.set(r.item_id, (f = { item_id: r.item_id, workspace_id: r.workspace_id, current_version_id: r.current_version_id, versions: [] }));
    f.versions.push({ id: r.id, created_at: new Date(r.created_at), pinned: r.pinned, blob_key: r.blob_key, size_bytes: Number(r.size_bytes) });
  }
  return ids.map((id) => files.get(id)).filter((f): f is RetentionFile => !!f);
}

/**
 * Marks versions pruned, if they are still ready, unpinned and not their file's current version
 * (a person may have named or restored one since it was weighed); answers those it pruned.
 */
export async function pruneVersions(db: Q, ids: string[]): Promise<{ blob_key: string; size_bytes: number; workspace_id: string }[]> {
  if (!ids.length) return [];
  const rows = await sql<{ blob_key: string; size_bytes: number | string; workspace_id: string }>`
    UPDATE file_versions v SET state = 'pruned'
      FROM items i
     WHERE i.id = v.item_id AND v.id = ANY(${ids}::uuid[]) AND v.state = 'ready' AND NOT v.pinned
       AND i.current_version_id IS DISTINCT FROM v.id
    RETURNING v.blob_key, v.size_bytes, i.workspace_id
  `.execute(db);
  return rows.rows.map((r) => ({ ...r, size_bytes: Number(r.size_bytes) }));
}

/** What came with a file's current version when a client sent it: when it was last changed, and its digests. */
export interface ClientFacts {
  modifiedAt: Date | null;
  checksums: string | null;
}

/** What came with the current versions of these files, where they were sent through WebDAV. */
export async function findClientFacts(db: Q, itemIds: string[]): Promise<Map<string, ClientFacts>> {
  if (!itemIds.length) return new Map();
  // Planned once per connection (ADR 0053, 0071): a WebDAV listing of a folder's files runs it (a resource's own facts
  // come with its path, ADR 0072). A listing of one file is compared with `=`, whose one row a generic plan knows; an
  // array is parsed once at least.
  const listed = itemIds.length === 1 ? sql`= ${itemIds[0]}::uuid` : sql`= ANY(${itemIds}::uuid[])`;
  const { rows } = await sql<{ id: string; modified_at: Date | null; checksums: string | null }>`${plannedOnceOutside(db)}
    SELECT i.id, v.modified_at, v.checksums FROM items i JOIN file_versions v ON v.id = i.current_version_id
     WHERE i.id ${listed} AND (v.modified_at IS NOT NULL OR v.checksums IS NOT NULL)`.execute(db);
  return new Map(rows.map((r) => [r.id, { modifiedAt: r.modified_at, checksums: r.checksums }]));
}

/**
 * Takes away a file's first version when it is empty, its author's, unnamed, minutes old, and the file has one version
 * after it: what a client that makes a file empty and then fills it (macOS Finder) leaves. Its blob key, when it went.
 */
export async function dropEmptyFirstVersion(db: Q, itemId: string, authorId: string): Promise<string | undefined> {
  const { rows } = await sql<{ blob_key: string }>`
    DELETE FROM file_versions v
     WHERE v.item_id = ${itemId} AND v.number = 1 AND v.size_bytes = 0 AND v.author_id = ${authorId} AND v.name IS NULL
       AND v.created_at > now() - interval '10 minutes'
       AND EXISTS (SELECT 1 FROM items i WHERE i.id = v.item_id AND i.current_version_id <> v.id)
       AND (SELECT count(*) FROM file_versions w WHERE w.item_id = v.item_id) = 2
    RETURNING v.blob_key
  `.execute(db);
  return rows[0]?.blob_key;
}
