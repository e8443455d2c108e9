import { uuidv7 } from '@cabinet/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database, ItemGrantsTable, ItemRow } from '../../db/schema.ts';

type Q = Kysely<Database>;

export interface GrantRow {
  id: string;
  item_id: string;
  principal_type: ItemGrantsTable['principal_type'];
  principal_id: string;
  role: ItemGrantsTable['role'];
  expires_at: Date | null;
  created_at: Date;
  name: string;
  email: string | null;
}

/** A live grant on one of the folders above an item, with that folder's name. */
export interface InheritedGrantRow extends GrantRow {
  item_name: string;
}

/** The grants made on the item itself, with who they are for. */
export async function findGrants(db: Q, itemId: string, id?: string): Promise<GrantRow[]> {
  const { rows } = await sql<GrantRow>`
    SELECT g.id, g.item_id, g.principal_type, g.principal_id, g.role, g.expires_at, g.created_at,
      COALESCE(NULLIF(u.name, ''), u.email, gr.name, w.name, '') AS name, u.email
    FROM item_grants g
    LEFT JOIN users u ON g.principal_type = 'user' AND u.id = g.principal_id
    LEFT JOIN workspaces w ON g.principal_type = 'workspace' AND w.id = g.principal_id
    LEFT JOIN groups gr ON g.principal_type = 'group' AND gr.id = g.principal_id
    WHERE g.item_id = ${itemId} ${id ? sql`AND g.id = ${id}` : sql``}
    ORDER BY g.created_at, g.id
  `.execute(db);
  return rows;
}

/** Gives the role, or changes the role an existing grant to the same principal gives. Answers the grant's id. */
/** The grant's id, and whether it is new (not a grant to the same principal changed). */
export async function upsertGrant(
  db: Q,
  g: { itemId: string; type: 'user' | 'group' | 'workspace'; principalId: string; role: ItemGrantsTable['role']; expiresAt: Date | null; by: string },
): Promise<{ id: string; added: boolean }> {
  const row = await db
    .insertInto('item_grants')
    .values({ id: uuidv7(), item_id: g.itemId, principal_type: g.type, principal_id: g.principalId, role: g.role, expires_at: g.expiresAt, created_by: g.by })
    .onConflict((oc) =>
      oc.columns(['item_id', 'principal_type', 'principal_id']).doUpdateSet({ role: g.role, expires_at: g.expiresAt, updated_at: new Date() }),
    )
    // xmax is 0 on a row this statement inserted, and set on one it updated.
    .returning(['id', sql<boolean>`xmax = 0`.as('added')])
    .executeTakeFirstOrThrow();
  return { id: row.id, added: row.added };
}

/** The grant withdrawn (whom it was for), or undefined when the item has no such grant. */
export async function deleteGrant(db: Q, itemId: string, id: string): Promise<{ principal_type: string; principal_id: string } | undefined> {
  return db.deleteFrom('item_grants').where('item_id', '=', itemId).where('id', '=', id).returning(['principal_type', 'principal_id']).executeTakeFirst();
}

/** The live grants (not expired) on any of the given folders, with each folder's name. */
export async function findLiveGrantsOn(db: Q, itemIds: string[]): Promise<InheritedGrantRow[]> {
  if (itemIds.length === 0) return [];
  const { rows } = await sql<InheritedGrantRow>`
    SELECT g.id, g.item_id, g.principal_type, g.principal_id, g.role, g.expires_at, g.created_at,
      COALESCE(NULLIF(u.name, ''), u.email, gr.name, w.name, '') AS name, u.email, i.name AS item_name
    FROM item_grants g
    JOIN items i ON i.id = g.item_id
    LEFT JOIN users u ON g.principal_type = 'user' AND u.id = g.principal_id
    LEFT JOIN workspaces w ON g.principal_type = 'workspace' AND w.id = g.principal_id
    LEFT JOIN groups gr ON g.principal_type = 'group' AND gr.id = g.principal_id
    WHERE g.item_id = ANY(${itemIds}::uuid[]) AND (g.expires_at IS NULL OR g.expires_at > now())
    ORDER BY g.created_at, g.id
  `.execute(db);
  return rows;
}

/** Changes a grant on the item; answers whom it is for, or undefined when the item has no such grant. */
export async function updateGrantRow(db: Q, itemId: string, id: string, change: { role?: ItemGrantsTable['role']; expiresAt?: Date | null }) {
  return db
    .updateTable('item_grants')
    .set({ ...(change.role ? { role: change.role } : {}), ...(change.expiresAt !== undefined ? { expires_at: change.expiresAt } : {}), updated_at: new Date() })
    .where('item_id', '=', itemId)
    .where('id', '=', id)
    .returning(['principal_type', 'principal_id', 'role', 'expires_at'])
    .executeTakeFirst();
}

export interface PersonRow {
  id: string;
  name: string;
  email: string | null;
}

export async function findPerson(db: Q, id: string | null): Promise<PersonRow | undefined> {
  if (!id) return undefined;
  return db
    .selectFrom('users')
    .select(['id', sql<string>`COALESCE(NULLIF(name, ''), email, '')`.as('name'), 'email'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export interface SharedRow {
  grant_id: string;
  grant_role: ItemGrantsTable['role'];
  shared_at: Date;
  shared_by_id: string | null;
  shared_by_name: string | null;
  shared_by_email: string | null;
  /** The group the item was shared with, when it reached the person through one. */
  group_id: string | null;
  group_name: string | null;
  item: ItemRow;
}

/**
 * Active items of a workspace shared with one person themself or with a group they are in (live
 * grants; not those to the workspace), one row per item, newest share first, after the position
 * given. An item shared with them in several ways (themself and through a group, or two groups)
 * shows once: with the strongest of those roles, and as its latest share (who, when, which group),
 * which is also its place in the list. Times count to the millisecond, as cursors carry them, so a
 * page never skips or repeats an item.
 */
export async function findSharedWith(db: Q, userId: string, workspaceId: string, limit: number, before?: { at: string; id: string }): Promise<SharedRow[]> {
  const { rows } = await sql<ItemRow & Omit<SharedRow, 'item'>>`
    WITH reaching AS (
      SELECT g.id, g.item_id, g.role, g.created_by, g.principal_type, g.principal_id, date_trunc('milliseconds', g.created_at) AS at,
        max(CASE g.role WHEN 'manager' THEN 4 WHEN 'editor' THEN 3 WHEN 'commenter' THEN 2 ELSE 1 END) OVER (PARTITION BY g.item_id) AS strongest
      FROM item_grants g
      JOIN items i ON i.id = g.item_id
      WHERE ((g.principal_type = 'user' AND g.principal_id = ${userId})
          OR (g.principal_type = 'group' AND EXISTS (SELECT 1 FROM group_members gm WHERE gm.group_id = g.principal_id AND gm.user_id = ${userId})))
        AND (g.expires_at IS NULL OR g.expires_at > now())
        AND i.workspace_id = ${workspaceId} AND i.state = 'active'
    ), latest AS (
      SELECT DISTINCT ON (item_id) * FROM reaching ORDER BY item_id, at DESC, id DESC
    )
    SELECT i.*, l.id AS grant_id, (ARRAY['viewer', 'commenter', 'editor', 'manager'])[l.strongest] AS grant_role, l.at AS shared_at,
      u.id AS shared_by_id, COALESCE(NULLIF(u.name, ''), u.email) AS shared_by_name, u.email AS shared_by_email,
      gr.id AS group_id, gr.name AS group_name
    FROM latest l
    JOIN items i ON i.id = l.item_id
    LEFT JOIN users u ON u.id = l.created_by
    LEFT JOIN groups gr ON l.principal_type = 'group' AND gr.id = l.principal_id
    ${before ? sql`WHERE (l.at, l.id) < (${before.at}::timestamptz, ${before.id}::uuid)` : sql``}
    ORDER BY l.at DESC, l.id DESC
    LIMIT ${limit}
  `.execute(db);
  return rows.map(({ grant_id, grant_role, shared_at, shared_by_id, shared_by_name, shared_by_email, group_id, group_name, ...item }) => ({
    grant_id,
    grant_role,
    shared_at,
    shared_by_id,
    shared_by_name,
    shared_by_email,
    group_id,
    group_name,
    item,
  }));
}

/** What was shared with a person in a workspace is no longer theirs once they leave it. */
export async function deleteGrantsTo(db: Q, workspaceId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('item_grants')
    .where('principal_type', '=', 'user')
    .where('principal_id', '=', userId)
    .where('item_id', 'in', (eb) => eb.selectFrom('items').select('id').where('workspace_id', '=', workspaceId))
    .execute();
}
