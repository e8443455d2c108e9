import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import { plannedOnceOutside } from '../../db/planned-once.ts';
import type { DavLocksTable } from '../../db/schema.ts';
import type { PropName } from './prop-requests.ts';
import type { XmlElement } from './xml-write.ts';

/** The dead properties of items, by item id (each as the element a client set). */
export async function findDeadProps(db: Db, itemIds: string[]): Promise<Map<string, XmlElement[]>> {
  const found = new Map<string, XmlElement[]>();
  if (!itemIds.length) return found;
  const rows = await db
    .selectFrom('dav_properties')
    .select(['item_id', 'value'])
    .where('item_id', '=', sql<string>`ANY(${itemIds}::uuid[])`)
    .orderBy('ns')
    .orderBy('local')
    .execute();
  for (const row of rows) found.set(row.item_id, [...(found.get(row.item_id) ?? []), row.value as XmlElement]);
  return found;
}

/** How many dead properties an item has. */
export async function countDeadProps(db: Db, itemId: string): Promise<number> {
  const row = await db
    .selectFrom('dav_properties')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('item_id', '=', itemId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Sets and removes an item's dead properties in the order given, in the caller's transaction. */
export async function changeDeadProps(tx: Db, itemId: string, steps: ({ set: XmlElement } | { remove: PropName })[]): Promise<void> {
  for (const step of steps) {
    if ('set' in step) {
      await tx
        .insertInto('dav_properties')
        .values({ item_id: itemId, ns: step.set.ns, local: step.set.local, value: JSON.stringify(step.set) })
        .onConflict((oc) => oc.columns(['item_id', 'ns', 'local']).doUpdateSet({ value: JSON.stringify(step.set) }))
        .execute();
    } else {
      await tx.deleteFrom('dav_properties').where('item_id', '=', itemId).where('ns', '=', step.remove.ns).where('local', '=', step.remove.local).execute();
    }
  }
}

export type LockRow = Selectable<DavLocksTable>;
/** A live lock and how it stands to the item asked about: on it, on a folder above it (a deep lock), or below it. */
export type LockAround = LockRow & { relation: 'on' | 'above' | 'below'; distance: number };

/**
 * The live locks that bear on an item: its own, the deep ones of the folders above it, and, with `below`, those of
 * anything under it. Walked from the item up, and from each live lock up (there are few): never down a whole tree.
 */
export async function findLocksAround(db: Db, itemId: string, o: { below: boolean }): Promise<LockAround[]> {
  // Planned once per connection (ADR 0053, 0071): every change through WebDAV reads it.
  const { rows } = await sql<LockAround>`${plannedOnceOutside(db)}
    WITH RECURSIVE above AS (
      SELECT id, parent_id, 0 AS distance FROM items WHERE id = ${itemId}
      UNION ALL
      SELECT i.id, i.parent_id, a.distance + 1 FROM items i JOIN above a ON i.id = a.parent_id WHERE a.distance < 70
    ), held AS (
      SELECT l.token, i.id, i.parent_id, 0 AS distance FROM dav_locks l JOIN items i ON i.id = l.item_id
       WHERE l.expires_at > now() AND l.side_name IS NULL AND ${o.below}::boolean
      UNION ALL
      SELECT h.token, i.id, i.parent_id, h.distance + 1 FROM items i JOIN held h ON i.id = h.parent_id WHERE h.distance < 70
    )
    SELECT l.*, CASE WHEN a.distance = 0 THEN 'on' ELSE 'above' END AS relation, a.distance
      FROM dav_locks l JOIN above a ON a.id = l.item_id
     WHERE l.expires_at > now() AND (a.distance = 0 OR l.deep) AND l.side_name IS NULL
    UNION ALL
    SELECT l.*, 'below' AS relation, h.distance
      FROM held h JOIN dav_locks l ON l.token = h.token
     WHERE h.id = ${itemId} AND h.distance > 0
  `.execute(db);
  return rows;
}

/** The live locks on these items themselves. */
export function findLocksOn(db: Db, itemIds: string[]): Promise<LockRow[]> {
  if (!itemIds.length) return Promise.resolve([]);
  return db
    .selectFrom('dav_locks')
    .selectAll()
    .where('item_id', '=', sql<string>`ANY(${itemIds}::uuid[])`)
    .where('side_name', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .execute();
}

export async function insertLock(db: Db, lock: Insertable<DavLocksTable>): Promise<LockRow> {
  return db.insertInto('dav_locks').values(lock).returningAll().executeTakeFirstOrThrow();
}

/** Puts a lock's expiry off by its timeout from now; the lock as it then is (undefined when it had gone). */
export function refreshLock(db: Db, token: string, seconds: number): Promise<LockRow | undefined> {
  return db
    .updateTable('dav_locks')
    .set({ timeout_seconds: seconds, expires_at: sql<Date>`now() + make_interval(secs => ${seconds})` })
    .where('token', '=', token)
    .where('expires_at', '>', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
}

/** Every lock on an item itself (it moved: locks stay where they were taken). */
export async function deleteLocksOn(db: Db, itemId: string): Promise<void> {
  await db.deleteFrom('dav_locks').where('item_id', '=', itemId).where('side_name', 'is', null).execute();
}

export async function deleteLock(db: Db, token: string): Promise<void> {
  await db.deleteFrom('dav_locks').where('token', '=', token).execute();
}

/** A person's live locks, counted; their expired ones are cleared on the way. */
export async function countOwnLocks(db: Db, userId: string): Promise<number> {
  await db
    .deleteFrom('dav_locks')
    .where('user_id', '=', userId)
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
  const row = await db
    .selectFrom('dav_locks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A person's side file in a folder. */
export function findSideFile(db: Db, userId: string, folderId: string, name: string) {
  return db
    .selectFrom('dav_side_files')
    .selectAll()
    .where('user_id', '=', userId)
    .where('folder_id', '=', folderId)
    .where('name', '=', name)
    .executeTakeFirst();
}

/**
 * Writes a person's side file; whether it was there before. Past `bound.count` side files of theirs, or `bound.bytes`
 * in all, the oldest go.
 */
export async function putSideFile(
  db: Db,
  row: { user_id: string; folder_id: string; name: string; bytes: Uint8Array },
  bound: { count: number; bytes: number },
): Promise<boolean> {
  const before = await findSideFile(db, row.user_id, row.folder_id, row.name);
  await db
    .insertInto('dav_side_files')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'folder_id', 'name']).doUpdateSet({ bytes: row.bytes, modified_at: sql<Date>`now()` }))
    .execute();
  await sql`
    DELETE FROM dav_side_files WHERE user_id = ${row.user_id} AND (folder_id, name) IN (
      SELECT folder_id, name FROM (
        SELECT folder_id, name, row_number() OVER newest AS n, sum(octet_length(bytes)) OVER newest AS held
          FROM dav_side_files WHERE user_id = ${row.user_id}
        WINDOW newest AS (ORDER BY modified_at DESC, folder_id, name)
      ) ranked WHERE n > ${bound.count}::int OR held > ${bound.bytes}::bigint)
  `.execute(db);
  return before !== undefined;
}

export async function deleteSideFile(db: Db, userId: string, folderId: string, name: string): Promise<boolean> {
  const gone = await db
    .deleteFrom('dav_side_files')
    .where('user_id', '=', userId)
    .where('folder_id', '=', folderId)
    .where('name', '=', name)
    .executeTakeFirst();
  return gone.numDeletedRows > 0n;
}

/** Renames (or moves) a person's side file, replacing one of the new name. */
export async function moveSideFile(db: Db, userId: string, from: { folderId: string; name: string }, to: { folderId: string; name: string }): Promise<void> {
  await db.deleteFrom('dav_side_files').where('user_id', '=', userId).where('folder_id', '=', to.folderId).where('name', '=', to.name).execute();
  await db
    .updateTable('dav_side_files')
    .set({ folder_id: to.folderId, name: to.name, modified_at: new Date() })
    .where('user_id', '=', userId)
    .where('folder_id', '=', from.folderId)
    .where('name', '=', from.name)
    .execute();
}

/** The live locks on a side file (its holder's own: no one else reaches it). */
export function findSideLocks(db: Db, userId: string, folderId: string, name: string): Promise<LockRow[]> {
  return db
    .selectFrom('dav_locks')
    .selectAll()
    .where('user_id', '=', userId)
    .where('item_id', '=', folderId)
    .where('side_name', '=', name)
    .where('expires_at', '>', sql<Date>`now()`)
    .execute();
}
