import { uuidv7 } from '@cabinet/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Selectable } from 'kysely';
import type { ItemRow, ShareLinksTable } from '../../db/schema.ts';
import { PREVIEW_JOIN, type PreviewColumns } from '../items/index.ts';

/** A link as its owners see it: its row (without when it was last changed), who made it, and its number on its item. */
export type LinkRow = Omit<Selectable<ShareLinksTable>, 'updated_at'> & {
  created_by_name: string | null;
  created_by_status: 'active' | 'deactivated' | null;
  number: number;
};

const linkColumns = (db: Db) =>
  db
    .selectFrom('share_links as l')
    .leftJoin('users as u', 'u.id', 'l.created_by')
    .select([
      'l.id',
      'l.workspace_id',
      'l.item_id',
      'l.kind',
      'l.token_hash',
      'l.token_sealed',
      'l.password_hash',
      'l.expires_at',
      'l.download_allowed',
      'l.revoked_at',
      'l.views',
      'l.downloads',
      'l.uploads',
      'l.max_bytes',
      'l.uploaded_bytes',
      'l.created_by',
      'u.name as created_by_name',
      'u.status as created_by_status',
      'l.created_at',
      // Links are revoked, never deleted (but with their item): counting those made before never changes.
      sql<number>`(SELECT count(*)::int FROM share_links n WHERE n.item_id = l.item_id AND n.id <= l.id)`.as('number'),
    ]);

export function insertLink(
  db: Db,
  f: {
    workspaceId: string;
    itemId: string;
    kind: LinkRow['kind'];
    tokenHash: string;
    tokenSealed: string;
    passwordHash: string | null;
    expiresAt: Date | null;
    downloadAllowed: boolean;
    /** A file request's cap on its total (none: no cap). */
    maxBytes?: number | null;
    by: string;
  },
): Promise<{ id: string }> {
  return db
    .insertInto('share_links')
    .values({
      id: uuidv7(),
      workspace_id: f.workspaceId,
      item_id: f.itemId,
      kind: f.kind,
      token_hash: f.tokenHash,
      token_sealed: f.tokenSealed,
      password_hash: f.passwordHash,
      expires_at: f.expiresAt,
      download_allowed: f.downloadAllowed,
      max_bytes: f.maxBytes ?? null,
      created_by: f.by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** The links of an item (or one of them), newest first (ids are time-ordered); a page of `limit` after `beforeId`. */
export function findLinksOf(db: Db, itemId: string, o: { linkId?: string; limit?: number; beforeId?: string | undefined } = {}): Promise<LinkRow[]> {
  let q = linkColumns(db).where('l.item_id', '=', itemId);
  if (o.linkId) q = q.where('l.id', '=', o.linkId);
  if (o.beforeId) q = q.where('l.id', '<', o.beforeId);
  if (o.limit) q = q.limit(o.limit);
  return q.orderBy('l.id', 'desc').execute() as Promise<LinkRow[]>;
}

export function findWorkspaceLink(db: Db, workspaceId: string, linkId: string): Promise<LinkRow | undefined> {
  return linkColumns(db).where('l.workspace_id', '=', workspaceId).where('l.id', '=', linkId).executeTakeFirst() as Promise<LinkRow | undefined>;
}

export function findLinkByHash(db: Db, tokenHash: string): Promise<LinkRow | undefined> {
  return linkColumns(db).where('l.token_hash', '=', tokenHash).executeTakeFirst() as Promise<LinkRow | undefined>;
}

/** The workspace's links that still work (not revoked, not expired, on an item not in the trash itself), newest first; a page of `limit` after `beforeId`. */
export async function findLiveLinks(
  db: Db,
  workspaceId: string,
  limit: number,
  beforeId?: string,
): Promise<(LinkRow & { item_name: string; item_kind: ItemRow['kind'] })[]> {
  let q = linkColumns(db)
    .innerJoin('items as i', 'i.id', 'l.item_id')
    .select(['i.name as item_name', 'i.kind as item_kind'])
    .where('l.workspace_id', '=', workspaceId)
    .where('l.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('l.expires_at', 'is', null), eb('l.expires_at', '>', sql<Date>`now()`)]))
    .where('i.state', '=', 'active');
  if (beforeId) q = q.where('l.id', '<', beforeId);
  return (await q.orderBy('l.id', 'desc').limit(limit).execute()) as (LinkRow & { item_name: string; item_kind: ItemRow['kind'] })[];
}

export async function updateLinkRow(
  db: Db,
  id: string,
  change: { passwordHash?: string | null; expiresAt?: Date | null; downloadAllowed?: boolean; maxBytes?: number | null; revoked?: true },
): Promise<void> {
  await db
    .updateTable('share_links')
    .set({
      ...(change.passwordHash !== undefined ? { password_hash: change.passwordHash } : {}),
      ...(change.expiresAt !== undefined ? { expires_at: change.expiresAt } : {}),
      ...(change.downloadAllowed !== undefined ? { download_allowed: change.downloadAllowed } : {}),
      ...(change.maxBytes !== undefined ? { max_bytes: change.maxBytes } : {}),
      ...(change.revoked ? { revoked_at: new Date() } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function countUse(db: Db, id: string, what: 'views' | 'downloads', n = 1): Promise<void> {
  await db
    .updateTable('share_links')
    .set({ [what]: sql`${sql.ref(what)} + ${n}` })
    .where('id', '=', id)
    .execute();
}

/**
 * Counts files made through a file request, and their bytes, in the transaction that makes them —
 * unless the bytes would take the link past its cap: then nothing is counted and the answer is false.
 */
export async function countUploads(db: Db, id: string, files: number, bytes: number): Promise<boolean> {
  const counted = await db
    .updateTable('share_links')
    .set({ uploads: sql`uploads + ${files}`, uploaded_bytes: sql`uploaded_bytes + ${bytes}` })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('max_bytes', 'is', null), eb(sql`uploaded_bytes + ${bytes}`, '<=', eb.ref('max_bytes'))]))
    .executeTakeFirst();
  return Number(counted.numUpdatedRows) > 0;
}

/** The bytes of the files made through a link so far, as its row says now. */
export async function findUploadedBytes(db: Db, id: string): Promise<number> {
  const row = await db.selectFrom('share_links').select('uploaded_bytes').where('id', '=', id).executeTakeFirst();
  return Number(row?.uploaded_bytes ?? 0);
}

/**
 * Takes a password attempt for a link from one address: written before the password is checked,
 * so attempts sent at once all count (a right one is forgotten after). Answers the attempts from
 * that address since `since`, this one included, the oldest of them, and this one's time.
 */
export async function takeAttempt(db: Db, linkId: string, ip: string, since: Date): Promise<{ count: number; oldest: Date | null; at: Date }> {
  await db.deleteFrom('share_link_failures').where('link_id', '=', linkId).where('at', '<=', since).execute();
  // Its time to the millisecond, as JavaScript holds it, so that it can be found again to forget it.
  const at = new Date();
  await db.insertInto('share_link_failures').values({ link_id: linkId, ip, at }).execute();
  const row = await db
    .selectFrom('share_link_failures')
    .select([sql<number>`count(*)::int`.as('count'), sql<Date | null>`min(at)`.as('oldest')])
    .where('link_id', '=', linkId)
    .where('ip', '=', ip)
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest ? new Date(row.oldest) : null, at };
}

/** An attempt that was the right password: it is no failure. */
export async function forgetAttempt(db: Db, linkId: string, ip: string, at: Date): Promise<void> {
  await db.deleteFrom('share_link_failures').where('link_id', '=', linkId).where('ip', '=', ip).where('at', '=', at).execute();
}

/** Where an item falls in a folder's listing: folders first (0), then by name case folded, then id. */
const listingKey = sql<unknown>`(CASE WHEN kind = 'folder' THEN 0 ELSE 1 END, lower(name), id)`;

/**
 * A page of the active items in a folder, folders first, then by name; after the position given.
 * Each with its preview's columns, joined once the page is cut (ADR 0040): no statement more.
 */
export async function findActiveChildren(
  db: Db,
  folderId: string,
  limit: number,
  after?: { folder: boolean; name: string; id: string },
): Promise<(ItemRow & PreviewColumns & { name_key: string })[]> {
  // The name as the database folds it, for the cursor: JavaScript's case folding may differ.
  let q = db
    .selectFrom('items')
    .selectAll()
    .select(sql<string>`lower(name)`.as('name_key'))
    .where('parent_id', '=', folderId)
    .where('state', '=', 'active');
  if (after) q = q.where(sql<boolean>`${listingKey} > (${after.folder ? 0 : 1}, ${after.name}, ${after.id}::uuid)`);
  const page = q
    .orderBy(sql`CASE WHEN kind = 'folder' THEN 0 ELSE 1 END`)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(limit);
  const rows = await sql<ItemRow & PreviewColumns & { name_key: string }>`
    SELECT i.*, pv.* FROM (${page}) i
    ${PREVIEW_JOIN}
    ORDER BY CASE WHEN i.kind = 'folder' THEN 0 ELSE 1 END, i.name_key, i.id
  `.execute(db);
  return rows.rows;
}

/** The names of items, by id. */
export async function findNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('items').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

const POLICY_KEYS = ['linksAllowed', 'linkPasswordRequired', 'maxLinkLifetimeDays'] as const;

/** What workspaces.settings says of links (keys missing: the defaults of PRODUCT.md §9). */
export async function findPolicySettings(db: Db, workspaceId: string): Promise<Record<string, unknown>> {
  const row = await db.selectFrom('workspaces').select('settings').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  const settings = row.settings ?? {};
  return Object.fromEntries(POLICY_KEYS.map((k) => [k, settings[k]]));
}
