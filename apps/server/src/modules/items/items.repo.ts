import { DEFAULT_PAGE, FOLDER_PAGE, uuidv7 } from '@cabinet/contracts';
import { sql, type Insertable, type Kysely, type RawBuilder } from 'kysely';
import type { Database, ItemRow } from '../../db/schema.ts';
import { plannedOnce, plannedOnceOutside } from '../../db/planned-once.ts';
import { LIVE_MEMBERSHIP, memberWorkspaceQuery } from '../workspaces/index.ts';

type Q = Kysely<Database>;

export function findItem(db: Q, id: string): Promise<ItemRow | undefined> {
  return db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockItem(db: Q, id: string): Promise<ItemRow | undefined> {
  return db.selectFrom('items').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Holds several items' rows until the transaction ends, taken in one order so two callers cannot deadlock. */
export async function lockItems(db: Q, ids: string[]): Promise<ItemRow[]> {
  if (!ids.length) return [];
  return db.selectFrom('items').selectAll().where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** An item with everything its access depends on, read in one query. */
/**
 * A file's preview as listings carry it (ADR 0040), joined in the listing's own statement: the
 * current version's hash and its small preview's row (null columns for folders and documents).
 */
export interface PreviewColumns {
  preview_sha256: string | null;
  preview_state: 'pending' | 'ready' | 'failed' | 'unsupported' | 'evicted' | null;
  preview_error: string | null;
  preview_placeholder: string | null;
  preview_width: number | null;
  preview_height: number | null;
}

/** The join that gives `i` (an item) its PreviewColumns; a public link's listing joins it too. */
export const PREVIEW_JOIN = sql`LEFT JOIN LATERAL (
      SELECT v.sha256 AS preview_sha256, p.state AS preview_state, p.error AS preview_error, p.placeholder AS preview_placeholder,
             p.width AS preview_width, p.height AS preview_height
      FROM file_versions v LEFT JOIN previews p ON p.sha256 = v.sha256 AND p.kind = 'thumb-256'
      WHERE v.id = i.current_version_id
    ) pv ON true`;

/** What a WebDAV client said of a file's current version when it sent it (its modification time, its digests). */
export interface VersionClientColumns {
  version_modified_at: Date | null;
  version_checksums: string | null;
}

const VERSION_CLIENT_JOIN = sql`LEFT JOIN LATERAL (
      SELECT v.modified_at AS version_modified_at, v.checksums AS version_checksums FROM file_versions v WHERE v.id = i.current_version_id
    ) cv ON true`;

/** The live WebDAV lock on an item itself, as items carry it to the browser (the latest of several shared ones). */
export interface LockColumns {
  lock_user_id: string | null;
  lock_user_name: string | null;
  lock_client: string | null;
  lock_expires_at: Date | null;
  lock_scope: 'exclusive' | 'shared' | null;
}

/** The join that gives `i` (an item) its LockColumns: a lock past its expiry is gone, whether or not its row is. */
const LOCK_JOIN = sql`LEFT JOIN LATERAL (
      SELECT l.user_id AS lock_user_id, u.name AS lock_user_name, l.client AS lock_client, l.expires_at AS lock_expires_at, l.scope AS lock_scope
      FROM dav_locks l JOIN users u ON u.id = l.user_id
      WHERE l.item_id = i.id AND l.expires_at > now()
      ORDER BY l.created_at DESC LIMIT 1
    ) lk ON true`;

export interface AccessRow extends ItemRow, PreviewColumns, LockColumns {
  /** Ids from the item up to its root, the item first. */
  chain: string[];
  root_id: string | null;
  /** True when a folder above the item is in the trash (so the item is in the trash with it). */
  trashed_above: boolean;
  /** The strongest live grant on the item or an ancestor for this user or (unless they are a guest) their workspace (1 viewer … 4 manager), 0 for none. */
  grant_rank: number;
  /** The caller's membership of the item's workspace (null: not a member, or a guest nothing is shared with any more). */
  member_role: 'owner' | 'admin' | 'member' | 'guest' | null;
  member_home_id: string | null;
  workspace_root_id: string | null;
  workspace_slug: string;
}

/** A grant's role (`g.role`) as a rank: 1 viewer, 2 commenter, 3 editor, 4 manager. */
const GRANT_RANK = sql<number>`CASE g.role WHEN 'viewer' THEN 1 WHEN 'commenter' THEN 2 WHEN 'editor' THEN 3 ELSE 4 END`;

/**
 * Whether grant `g` holds for a person whose live membership of the item's workspace (`workspaceId`) is `m`: given to
 * them; to the workspace or a group of it they are in, unless they are a guest there.
 */
const grantHolds = (userId: string, workspaceId: RawBuilder<string>) => sql<boolean>`(
  (g.principal_type = 'user' AND g.principal_id = ${userId})
  OR (g.principal_type = 'workspace' AND g.principal_id = ${workspaceId} AND m.role <> 'guest')
  OR (g.principal_type = 'group' AND m.role <> 'guest'
    AND EXISTS (SELECT 1 FROM group_members gm WHERE gm.group_id = g.principal_id AND gm.user_id = ${userId} AND gm.workspace_id = ${workspaceId})))`;

/**
 * Items, each walked up to its root (at most 64 levels), with the grants along the way and the
 * caller's membership of its workspace: every fact the policy needs, for any number of items in
 * one query. Items that do not exist are missing from the answer. With `parents`, the items'
 * parents are answered too, found in the same statement (a search's page shows where each item is).
 */
export async function findAccessMany(db: Q, itemIds: string[], userId: string, options: { parents?: boolean } = {}): Promise<Map<string, AccessRow>> {
  if (itemIds.length === 0) return new Map();
  // One item's access, what most calls ask, is planned once per connection (ADR 0053), and so is a page's with its
  // parents (a search's: parsed once, its plan kept when the generic one costs no more); not in a transaction, where a
  // kept statement the server refused (a migration by another instance, a pooler that keeps none) would end the write.
  const kept = (itemIds.length === 1 || !!options.parents) && !db.isTransaction;
  const rows = await sql<AccessRow>`${kept ? plannedOnce : sql``}${accessQuery(itemIds, userId, options.parents)}`.execute(db);
  return new Map(rows.rows.map((r) => [r.id, { ...r, grant_rank: Number(r.grant_rank) }]));
}

/**
 * What makes `i`, a row of `source`, an AccessRow: its facts read off the rows of the statement's `chain` (`c`: id,
 * parent_id, state) and `granted` (`g`) that are its own chain (`own`; `above`, those above it; `order`, it first),
 * the caller's membership of its workspace, its preview and its lock. With `path`, the columns a PathRow has instead
 * of the preview and the lock, which no WebDAV client is shown (`cv`: what a client said of the current version).
 */
function accessSelect(
  userId: string,
  source: RawBuilder<unknown>,
  chain: Record<'own' | 'above' | 'grants' | 'order', RawBuilder<unknown>>,
  path?: RawBuilder<unknown>,
) {
  return sql`SELECT i.*,
      coalesce((SELECT bool_or(c.state = 'trashed') FROM chain c WHERE ${chain.above}), false) AS trashed_above,
      (SELECT array_agg(c.id::text ORDER BY ${chain.order}) FROM chain c WHERE ${chain.own}) AS chain,
      (SELECT c.id FROM chain c WHERE ${chain.own} AND c.parent_id IS NULL) AS root_id,
      coalesce((SELECT max(${GRANT_RANK}) FROM granted g WHERE ${chain.grants} AND ${grantHolds(userId, sql`i.workspace_id`)}), 0) AS grant_rank,
      m.role AS member_role, m.home_item_id AS member_home_id, w.root_item_id AS workspace_root_id, w.slug AS workspace_slug, ${path ?? sql`pv.*, lk.*`}
    FROM ${source} i
    JOIN workspaces w ON w.id = i.workspace_id
    LEFT JOIN memberships m ON m.workspace_id = i.workspace_id AND m.user_id = ${userId} AND ${LIVE_MEMBERSHIP}
    ${
      path
        ? VERSION_CLIENT_JOIN
        : sql`${PREVIEW_JOIN}
    ${LOCK_JOIN}`
    }`;
}

/** The query of `findAccessMany`, which a folder's listing runs inside its own statement. */
function accessQuery(itemIds: string[], userId: string, parents = false) {
  // One item is compared with `=`, whose one row a generic plan knows (ADR 0053); an array's length it guesses (ten).
  const listed = itemIds.length === 1 ? sql`= ${itemIds[0]}::uuid` : sql`= ANY(${itemIds}::uuid[])`;
  const among = parents ? sql`IN (SELECT id FROM asked)` : listed;
  return sql<AccessRow>`
    WITH RECURSIVE ${
      parents
        ? sql`asked AS MATERIALIZED (
      SELECT id FROM items WHERE id ${listed} UNION SELECT parent_id FROM items WHERE id ${listed} AND parent_id IS NOT NULL
    ), `
        : sql``
    }chain AS (
      SELECT id AS start_id, id, parent_id, state, 0 AS depth FROM items WHERE id ${among}
      UNION ALL
      SELECT c.start_id, i.id, i.parent_id, i.state, c.depth + 1 FROM items i JOIN chain c ON i.id = c.parent_id WHERE c.depth < 64
    ), granted AS MATERIALIZED (
      -- The grants on each chain, joined once for all the items asked about (not once per item).
      SELECT c.start_id, g.role, g.principal_type, g.principal_id FROM chain c JOIN item_grants g ON g.item_id = c.id
      WHERE g.expires_at IS NULL OR g.expires_at > now()
    )
    ${accessSelect(userId, sql`items`, {
      own: sql`c.start_id = i.id`,
      above: sql`c.start_id = i.id AND c.depth > 0`,
      grants: sql`g.start_id = i.id`,
      order: sql`c.depth`,
    })}
    WHERE i.id ${among}
  `;
}

export async function findAccess(db: Q, itemId: string, userId: string): Promise<AccessRow | undefined> {
  return (await findAccessMany(db, [itemId], userId)).get(itemId);
}

const NOBODY = '00000000-0000-0000-0000-000000000000';

/**
 * Where an item is, whoever asks: its row, the ids from it up to its root, and whether a folder
 * above it is in the trash. For callers that are not people (a public link's visitor), whose right
 * comes from the item a link opens rather than from a role.
 */
export async function findPlace(db: Q, itemId: string): Promise<Place | undefined> {
  return (await findPlaces(db, [itemId])).get(itemId);
}

export interface Place {
  item: ItemRow & PreviewColumns;
  chain: string[];
  trashedAbove: boolean;
}

/** `findPlace` for several items in one query; items that do not exist are missing. */
export async function findPlaces(db: Q, itemIds: string[]): Promise<Map<string, Place>> {
  const out = new Map<string, Place>();
  for (const [id, row] of await findAccessMany(db, itemIds, NOBODY)) {
    const { chain, trashed_above, root_id: _r, grant_rank: _g, member_role: _m, member_home_id: _h, workspace_root_id: _w, workspace_slug: _s, ...item } = row;
    out.set(id, { item, chain, trashedAbove: trashed_above });
  }
  return out;
}

/** A new folder or (empty) document. */
export async function insertItem(
  db: Q,
  f: { kind: 'folder' | 'document'; workspaceId: string; parentId: string; name: string; ownerId: string },
): Promise<ItemRow> {
  return db
    .insertInto('items')
    .values({
      id: uuidv7(),
      workspace_id: f.workspaceId,
      parent_id: f.parentId,
      kind: f.kind,
      name: f.name,
      owner_id: f.ownerId,
      size_bytes: 0,
      updated_by: f.ownerId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateItemPlacement(db: Q, id: string, change: { name?: string; parentId?: string }, by: string): Promise<ItemRow> {
  return db
    .updateTable('items')
    .set({
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.parentId !== undefined ? { parent_id: change.parentId } : {}),
      updated_by: by,
      updated_at: new Date(),
      version: sql`version + 1`,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An active item in the folder with this name, compared as the unique index compares (case-insensitively). */
export function findActiveSibling(db: Q, parentId: string, name: string, exceptId?: string) {
  let q = db
    .selectFrom('items')
    .select(['id', 'kind'])
    .where('parent_id', '=', parentId)
    .where('state', '=', 'active')
    .where(sql<string>`lower(name)`, '=', sql<string>`lower(${name})`);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return q.executeTakeFirst();
}

/** Where a walk of a path starts: a folder, or one of the places of a workspace the caller is a live member of. */
export type PathStart = { folderId: string } | { workspace: string; place: 'home' | 'root' };

/**
 * A row of `findPathAccess`: an item's access (without its preview and its lock, which are null), what clients said of
 * its current version, whether a lock bears on it, and its workspace as the caller is in it.
 */
export interface PathRow extends AccessRow, VersionClientColumns {
  locks_along: boolean;
  workspace_name: string;
  workspace_quota_bytes: number | null;
  workspace_used_bytes: number;
}

/**
 * A folder and the active items a path of names leads to below it, each with every fact its access depends on (as
 * `findAccessMany` answers them), in one statement whatever the path's length: the folder first, then at each step the
 * child of that name (compared as the unique index compares), or a document whose name is the step's without `suffix`
 * (a document shown as a file, WebDAV's `.md`) when no other item has the name. As far as the names lead: shorter when
 * one names nothing; empty when the folder does not exist. The folder is given, or is a place of a workspace named by id
 * or slug (its root, or the caller's "My files" in it), found in the same statement among those the caller is a live
 * member of (`memberWorkspaceQuery`): empty when it is not one. Each row carries its workspace, as the caller is in it.
 *
 * The path is one line of ancestors (ADR 0071): the walk down carries each step's row, the folder's own chain is walked
 * up once, and each item's chain is that chain with the steps above it, so the grants and the trash along the way are
 * read once for every item of the path (where asking `findAccessMany` for each item would walk each one's chain to the
 * root again). A chain is cut at 64 levels, as there. Planned once per connection (ADR 0053): the names and the path's
 * length are parameters, its plan the same for any path.
 */
export async function findPathAccess(db: Q, from: PathStart, names: string[], suffix: string, userId: string): Promise<PathRow[]> {
  const place = (workspace: string, home: boolean) =>
    sql`(SELECT CASE WHEN ${home}::boolean THEN ws.home_item_id ELSE ws.root_item_id END FROM ${memberWorkspaceQuery(db, userId, workspace)} ws)`;
  const start = 'folderId' in from ? sql`${from.folderId}::uuid` : place(from.workspace, from.place === 'home');
  const { rows } = await sql<PathRow>`${plannedOnceOutside(db)}
    WITH RECURSIVE walk AS (
      SELECT 0 AS depth, items.* FROM items WHERE id = ${start}
      UNION ALL
      SELECT w.depth + 1, c.*
        FROM walk w CROSS JOIN LATERAL (
          SELECT i.* FROM items i, LATERAL (SELECT lower((${names}::text[])[w.depth + 1]) AS n) step
           WHERE i.parent_id = w.id AND i.state = 'active'
             AND lower(i.name) IN (step.n, CASE WHEN right(step.n, ${suffix.length}::int) = ${suffix}::text THEN left(step.n, ${-suffix.length}::int) END)
             AND (CASE WHEN i.kind = 'document' THEN lower(i.name) || ${suffix}::text = step.n ELSE lower(i.name) = step.n END)
           ORDER BY i.kind = 'document'
           LIMIT 1
        ) c
       WHERE w.depth < ${names.length}::int
    ), up AS (
      SELECT i.id, i.parent_id, i.state, 1 AS depth FROM walk w JOIN items i ON i.id = w.parent_id WHERE w.depth = 0
      UNION ALL
      SELECT i.id, i.parent_id, i.state, u.depth + 1 FROM items i JOIN up u ON i.id = u.parent_id WHERE u.depth < 64
    ), chain AS MATERIALIZED (
      -- The folder at 0, the folders above it at -1, -2, …, each step below it at its depth.
      SELECT -depth AS pos, id, parent_id, state FROM up
      UNION ALL
      SELECT depth, id, parent_id, state FROM walk
    ), granted AS MATERIALIZED (
      SELECT c.pos, g.role, g.principal_type, g.principal_id FROM chain c JOIN item_grants g ON g.item_id = c.id
      WHERE g.expires_at IS NULL OR g.expires_at > now()
    )
    ${accessSelect(
      userId,
      sql`walk`,
      {
        own: sql`c.pos BETWEEN i.depth - 64 AND i.depth`,
        above: sql`c.pos BETWEEN i.depth - 64 AND i.depth - 1`,
        grants: sql`g.pos BETWEEN i.depth - 64 AND i.depth`,
        order: sql`c.pos DESC`,
      },
      sql`cv.*, w.name AS workspace_name, w.quota_bytes AS workspace_quota_bytes, w.used_bytes AS workspace_used_bytes,
      -- Whether any live lock is on the item or a folder above it: where none is, no lock bears on a change to it.
      EXISTS (SELECT 1 FROM chain c JOIN dav_locks l ON l.item_id = c.id
               WHERE c.pos BETWEEN i.depth - 64 AND i.depth AND l.expires_at > now() AND l.side_name IS NULL) AS locks_along`,
    )}
    ORDER BY i.depth
  `.execute(db);
  return rows.map((r) => ({ ...r, grant_rank: Number(r.grant_rank) }));
}

/** Active names in a folder that start like `base`, to suggest a free one. */
export async function siblingNamesLike(db: Q, parentId: string, base: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('items')
    .select('name')
    .where('parent_id', '=', parentId)
    .where('state', '=', 'active')
    .where(sql<string>`lower(name)`, 'like', `${base.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    .execute();
  return new Set(rows.map((r) => r.name.toLowerCase()));
}

export type ChildSort = 'name' | 'modified' | 'size' | 'type';

export type ChildRow = ItemRow & PreviewColumns & LockColumns & { sort_key: string; grant_rank: number };

/** A cursor's sort key, typed as the column or expression it is compared with. */
function keyValue(sort: ChildSort, k: string | number) {
  return sort === 'modified' ? sql`${k}::timestamptz` : sort === 'size' ? sql`${k}::bigint` : sql`${k}::text`;
}

/**
 * A folder's access row (what `findAccess` reads) and one keyset page of its active children, in one statement: the
 * caller's role on the folder, and so on its children, is known only after it, but reading the page beside it costs
 * less than a second round trip, and is thrown away when the folder is not the caller's to list.
 *
 * The page: folders first, then the sort key, then id. Each row carries its sort key as text, exactly as stored
 * (timestamps keep their microseconds), for the next cursor. Ascending, a page is one index range scan that starts at
 * the cursor; descending, one backward scan per group (folders, files), merged; either way a page deep in a
 * 100,000-item folder costs what the first one does. Each child also carries `grant_rank`, the strongest grant on the
 * child itself that holds for `userId` (0 for none): the folder's role comes from above, and only such a grant can
 * raise it. Whether a grant to the workspace or a group holds depends on the caller's membership, read once with the
 * folder (the children are in its workspace), not once per child.
 */
export async function findFolderPage(
  db: Q,
  folderId: string,
  userId: string,
  o: PageOptions,
): Promise<{ folder: AccessRow | undefined; children: ChildRow[] }> {
  const { rows } = await folderPageQuery(folderId, userId, o).execute(db);
  // Typed in place, not copied: a page is a hundred rows of some fifty columns.
  for (const r of rows) r.grant_rank = Number(r.grant_rank);
  const folder = rows[0] && Number(rows[0].n) === 0 ? (rows.shift() as AccessRow) : undefined;
  return { folder, children: rows as ChildRow[] };
}

/**
 * The sizes of page read most, each one row more than a page (to know whether another follows): the API's default
 * and the browser app's. Only these are planned once, so that a connection keeps a few statements, not one for every
 * size asked for.
 */
const KEPT_LIMITS = new Set([DEFAULT_PAGE + 1, FOLDER_PAGE + 1]);

type PageOptions = { sort: ChildSort; order: 'asc' | 'desc'; limit: number; after?: [boolean, string | number, string] };

/** The statement `findFolderPage` runs (exported for its plan to be tested). */
export function folderPageQuery(folderId: string, userId: string, o: PageOptions) {
  const key =
    o.sort === 'modified'
      ? sql`updated_at`
      : o.sort === 'size'
        ? sql`size_bytes`
        : o.sort === 'type'
          ? sql`(coalesce(mime_type, '') || '/' || lower(name))`
          : sql`lower(name)`;
  // Folders first, then files: the group is the index's second column. PostgreSQL rewrites `group = constant` as
  // `kind = 'folder'` (or `<>`), which no longer names that column, so the group is only ever bounded by `<`, `<=`,
  // `>`, `>=` or a row comparison, which it leaves as they are and starts the index scan at.
  const group = sql`(kind <> 'folder')`;
  const children = sql`SELECT * FROM items WHERE parent_id = ${folderId} AND state = 'active'`;
  // An ascending page of a usual size is planned once per connection (ADR 0053): one range scan from the cursor,
  // whatever the values. Its size is written into the statement, so that the generic plan knows it.
  const kept = o.order === 'asc' && KEPT_LIMITS.has(o.limit);
  let page;
  if (o.order === 'asc') {
    // One range scan: the row after the cursor in index order, through the rest of its group and into the next.
    const after = o.after ? sql`AND (${group}, ${key}, id) > (${o.after[0]}, ${keyValue(o.sort, o.after[1])}, ${o.after[2]}::uuid)` : sql``;
    page = sql`${children} ${after} ORDER BY ${group} ASC, ${key} ASC, id ASC LIMIT ${kept ? sql.lit(o.limit) : o.limit}`;
  } else {
    // Groups ascending but keys descending: each group is its own backward scan (the rest of the cursor's group, then
    // the files after the folders), merged in the order the page is read.
    const [filesGroup, k, id] = o.after ?? [false, undefined, undefined];
    const rest =
      k === undefined
        ? sql`${group} <= ${filesGroup}`
        : sql`(${group}, ${key}, id) < (${filesGroup}, ${keyValue(o.sort, k)}, ${id}::uuid) AND ${group} >= ${filesGroup}`;
    const backward = sql`ORDER BY ${group} DESC, ${key} DESC, id DESC LIMIT ${o.limit}`;
    page = sql`SELECT * FROM ((${children} AND ${rest} ${backward}) UNION ALL (${children} AND ${group} > ${filesGroup} ${backward})) page
      ORDER BY ${group} ASC, ${key} DESC, id DESC LIMIT ${o.limit}`;
  }
  const dir = o.order === 'desc' ? sql`DESC` : sql`ASC`;
  const order = sql`ORDER BY ${group} ASC, ${key} ${dir}, id ${dir}`;
  // The folder's row first (n = 0), then the page in its order; both shaped as access rows (the children's access
  // columns empty) so that they go in one result.
  // A descending page is not planned once: its generic plan read a deep page's whole group (two scans merged, bounded
  // by values).
  return sql<AccessRow & { sort_key: string | null; n: number }>`${kept ? plannedOnce : sql``}
    WITH folder AS MATERIALIZED (${accessQuery([folderId], userId)})
    SELECT f.*, NULL::text AS sort_key, 0::bigint AS n FROM folder f
    UNION ALL
    SELECT i.*, false, NULL::text[], NULL::uuid, coalesce(granted.rank, 0), NULL::text, NULL::uuid, NULL::uuid, NULL::text, pv.*, lk.*,
      (${key})::text, row_number() OVER (${order})
    FROM (${page}) i
    CROSS JOIN (SELECT member_role AS role FROM folder) m
    ${PREVIEW_JOIN}
    ${LOCK_JOIN}
    LEFT JOIN LATERAL (
      SELECT max(${GRANT_RANK}) AS rank FROM item_grants g
      WHERE g.item_id = i.id AND (g.expires_at IS NULL OR g.expires_at > now()) AND ${grantHolds(userId, sql`i.workspace_id`)}
    ) granted ON true
    ORDER BY n
  `;
}

export function setTrashed(db: Q, id: string, by: string): Promise<ItemRow> {
  return db
    .updateTable('items')
    .set({ state: 'trashed', trashed_at: new Date(), trashed_by: by, updated_at: new Date(), updated_by: by, version: sql`version + 1` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function setRestored(db: Q, id: string, placement: { parentId: string; name: string }, by: string): Promise<ItemRow> {
  return db
    .updateTable('items')
    .set({
      state: 'active',
      trashed_at: null,
      trashed_by: null,
      parent_id: placement.parentId,
      name: placement.name,
      updated_at: new Date(),
      updated_by: by,
      version: sql`version + 1`,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes an item and everything below it, deepest first (parent pointers allow no other order). */
export async function deleteSubtree(db: Q, id: string): Promise<number> {
  const result = await sql`
    WITH RECURSIVE sub AS (
      SELECT id, 0 AS depth FROM items WHERE id = ${id}
      UNION ALL
      SELECT i.id, s.depth + 1 FROM items i JOIN sub s ON i.parent_id = s.id
    )
    DELETE FROM items WHERE id IN (SELECT id FROM sub)
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Trashed units (the items that were trashed, not what they hold) that a person trashed or owns, newest first. */
export function findTrashPage(db: Q, workspaceId: string, userId: string, limit: number, before?: { at: string; id: string }) {
  let q = db
    .selectFrom('items')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('state', '=', 'trashed')
    .where((eb) => eb.or([eb('trashed_by', '=', userId), eb('owner_id', '=', userId)]));
  if (before) q = q.where(sql<boolean>`(trashed_at, id) < (${before.at}::timestamptz, ${before.id}::uuid)`);
  return q.orderBy('trashed_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Moves in one workspace take turns. Row locks on the moved item and its target cannot stop two
 * moves on disjoint rows from closing a loop together (A into C under B, while B goes into D under A).
 */
export async function lockWorkspaceMoves(db: Q, workspaceId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`moves:${workspaceId}`}))`.execute(db);
}

export interface SubtreeRow {
  id: string;
  parent_id: string | null;
  kind: ItemRow['kind'];
  name: string;
  size_bytes: number;
  mime_type: string | null;
  depth: number;
  version_id: string | null;
  blob_key: string | null;
  sha256: string | null;
}

/**
 * An active item and everything active below it, shallowest first, with each file's current
 * version. The versions are locked FOR SHARE: a purge running alongside waits, so the bytes a
 * copy is about to share cannot be deleted under it.
 */
export async function findActiveSubtree(db: Q, id: string): Promise<SubtreeRow[]> {
  const rows = await sql<SubtreeRow>`
    WITH RECURSIVE sub AS (
      SELECT id, parent_id, 0 AS depth FROM items WHERE id = ${id}
      UNION ALL
      SELECT i.id, i.parent_id, s.depth + 1 FROM items i JOIN sub s ON i.parent_id = s.id WHERE i.state = 'active' AND s.depth < 64
    )
    SELECT i.id, i.parent_id, i.kind, i.name, i.size_bytes, i.mime_type, sub.depth, v.id AS version_id, v.blob_key, v.sha256
      FROM sub JOIN items i ON i.id = sub.id LEFT JOIN file_versions v ON v.id = i.current_version_id
     ORDER BY sub.depth, i.id
  `.execute(db);
  const versionIds = rows.rows.map((r) => r.version_id).filter((v): v is string => !!v);
  for (let i = 0; i < versionIds.length; i += 1000) {
    await db
      .selectFrom('file_versions')
      .select('id')
      .where('id', 'in', versionIds.slice(i, i + 1000))
      .forShare()
      .execute();
  }
  return rows.rows.map((r) => ({ ...r, size_bytes: Number(r.size_bytes) }));
}

/** Inserts copied items (parents before children) and their versions, which share the originals' bytes. */
export async function insertCopies(
  db: Q,
  copies: {
    id: string;
    sourceId: string;
    workspaceId: string;
    parentId: string;
    kind: ItemRow['kind'];
    name: string;
    ownerId: string;
    size: number;
    mimeType: string | null;
    version?: { id: string; blobKey: string; sha256: string };
  }[],
): Promise<void> {
  await insertTree(
    db,
    copies.map((c) => ({
      id: c.id,
      workspace_id: c.workspaceId,
      parent_id: c.parentId,
      kind: c.kind,
      name: c.name,
      owner_id: c.ownerId,
      size_bytes: c.size,
      mime_type: c.mimeType,
      current_version_id: c.version?.id ?? null,
      updated_by: c.ownerId,
    })),
    copies.flatMap((c) =>
      c.version
        ? [
            {
              id: c.version.id,
              item_id: c.id,
              number: 1,
              blob_key: c.version.blobKey,
              size_bytes: c.size,
              sha256: c.version.sha256,
              mime_type: c.mimeType ?? 'application/octet-stream',
              author_id: c.ownerId,
            },
          ]
        : [],
    ),
  );
}

/**
 * Inserts a tree of items (parents before children) and their files' versions, in chunks: copies, and items brought
 * back from a backup (ADR 0063), which keep their versions, names and times.
 */
export async function insertTree(db: Q, items: Insertable<Database['items']>[], versions: Insertable<Database['file_versions']>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 500)
    await db
      .insertInto('items')
      .values(items.slice(i, i + 500))
      .execute();
  for (let i = 0; i < versions.length; i += 500)
    await db
      .insertInto('file_versions')
      .values(versions.slice(i, i + 500))
      .execute();
}

/** The blob keys and byte total of every version held in an item's subtree (before it is purged). */
export async function subtreeBlobs(db: Q, itemId: string): Promise<{ keys: string[]; bytes: number }> {
  const rows = await sql<{ blob_key: string; size_bytes: number }>`
    WITH RECURSIVE sub AS (
      SELECT id FROM items WHERE id = ${itemId}
      UNION ALL
      SELECT i.id FROM items i JOIN sub s ON i.parent_id = s.id
    )
    SELECT v.blob_key, CASE WHEN v.state = 'pruned' THEN 0 ELSE v.size_bytes END AS size_bytes FROM file_versions v JOIN sub ON v.item_id = sub.id
  `.execute(db);
  return { keys: rows.rows.map((r) => r.blob_key), bytes: rows.rows.reduce((sum, r) => sum + Number(r.size_bytes), 0) };
}

/**
 * True while any version not pruned still names the blob: copies, restored versions and instant
 * re-uploads share bytes, across items and workspaces' trash alike (ADR 0042).
 */
export async function blobInUse(db: Q, key: string): Promise<boolean> {
  return !!(await db.selectFrom('file_versions').select('id').where('blob_key', '=', key).where('state', '!=', 'pruned').limit(1).executeTakeFirst());
}

export async function setStar(db: Q, userId: string, itemId: string, starred: boolean): Promise<void> {
  if (starred)
    await db
      .insertInto('stars')
      .values({ user_id: userId, item_id: itemId })
      .onConflict((oc) => oc.doNothing())
      .execute();
  else await db.deleteFrom('stars').where('user_id', '=', userId).where('item_id', '=', itemId).execute();
}

/** Active items a person starred in a workspace, newest star first. */
export function findStarred(db: Q, userId: string, workspaceId: string, limit: number): Promise<ItemRow[]> {
  return db
    .selectFrom('stars as s')
    .innerJoin('items as i', 'i.id', 's.item_id')
    .selectAll('i')
    .where('s.user_id', '=', userId)
    .where('i.workspace_id', '=', workspaceId)
    .where('i.state', '=', 'active')
    .orderBy('s.created_at', 'desc')
    .limit(limit)
    .execute();
}

export async function upsertVisit(db: Q, userId: string, itemId: string): Promise<void> {
  await db
    .insertInto('item_visits')
    .values({ user_id: userId, item_id: itemId, visited_at: new Date() })
    .onConflict((oc) => oc.columns(['user_id', 'item_id']).doUpdateSet({ visited_at: new Date() }))
    .execute();
}

/** Active items a person opened or changed lately in a workspace, newest first. */
export function findRecent(db: Q, userId: string, workspaceId: string, limit: number): Promise<ItemRow[]> {
  return db
    .selectFrom('item_visits as v')
    .innerJoin('items as i', 'i.id', 'v.item_id')
    .selectAll('i')
    .where('v.user_id', '=', userId)
    .where('i.workspace_id', '=', workspaceId)
    .where('i.state', '=', 'active')
    .where('i.kind', '!=', 'folder')
    .orderBy('v.visited_at', 'desc')
    .limit(limit)
    .execute();
}

/** Trashed units whose retention ran out, oldest first, locked for the purge. */
export function claimExpiredTrash(db: Q, before: Date, limit: number): Promise<ItemRow[]> {
  return db
    .selectFrom('items')
    .selectAll()
    .where('state', '=', 'trashed')
    .where('trashed_at', '<', before)
    .orderBy('trashed_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Whether a folder holds anything at all (in the trash too). */
export async function hasChildren(db: Q, folderId: string): Promise<boolean> {
  return !!(await db.selectFrom('items').select('id').where('parent_id', '=', folderId).limit(1).executeTakeFirst());
}

/** An empty private root of someone leaving: nothing in it, nothing to hand over (nothing refers to it once the membership is gone). */
export async function deleteEmptyHome(db: Q, homeId: string): Promise<void> {
  await db.deleteFrom('items').where('id', '=', homeId).where('parent_id', 'is', null).execute();
}

/**
 * Hands a private root over: it becomes a folder `name` in `toHomeId`, with everything in it —
 * trashed things too. What the person owned there becomes `toUserId`'s. Anything else of the
 * workspace the person owned and put in the trash (outside their My files) becomes the recipient's
 * too, so it shows in the recipient's trash instead of in nobody's. Done in the transaction of the
 * team module's removal, which chooses the name.
 */
export async function handOverHome(db: Q, homeId: string, fromUserId: string, toHomeId: string, toUserId: string, name: string): Promise<void> {
  await sql`
    WITH RECURSIVE sub AS (SELECT id FROM items WHERE id = ${homeId} UNION ALL SELECT i.id FROM items i JOIN sub ON i.parent_id = sub.id)
    UPDATE items SET owner_id = ${toUserId} WHERE id IN (SELECT id FROM sub) AND owner_id = ${fromUserId}
  `.execute(db);
  await db
    .updateTable('items')
    .set({ parent_id: toHomeId, name, owner_id: toUserId, updated_at: new Date(), version: sql`version + 1` })
    .where('id', '=', homeId)
    .execute();
}

/** What the person put in the trash in the workspace (wherever it is) is the recipient's to restore or let go. */
export async function handOverTrash(db: Q, workspaceId: string, fromUserId: string, toUserId: string): Promise<void> {
  await db.updateTable('items').set({ trashed_by: toUserId }).where('workspace_id', '=', workspaceId).where('trashed_by', '=', fromUserId).execute();
  await db
    .updateTable('items')
    .set({ owner_id: toUserId })
    .where('workspace_id', '=', workspaceId)
    .where('owner_id', '=', fromUserId)
    .where('state', '=', 'trashed')
    .execute();
}
