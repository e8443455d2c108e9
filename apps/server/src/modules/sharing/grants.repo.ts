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
export async function upsertGrant(db: Q, g: { itemId: string; type: 'user' | 'group' | 'workspace'; principalId: string; role: ItemGrantsTable['role']; expiresAt: Date | null; by: string }): Promise<string> {
  const row = await db
    .insertInto('item_grants')
    .values({ id: uuidv7(), item_id: g.itemId, principal_type: g.type, principal_id: g.principalId, role: g.role, expires_at: g.expiresAt, created_by: g.by })
    .onConflict((oc) => oc.columns(['item_id', 'principal_type', 'principal_id']).doUpdateSet({ role: g.role, expires_at: g.expiresAt, updated_at: new Date() }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
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
  return db.selectFrom('users').select(['id', sql<string>`COALESCE(NULLIF(name, ''), email, '')`.as('name'), 'email']).where('id', '=', id).executeTakeFirst();
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
 * grants; not those to the workspace), newest share first, after the position given. Times count to the millisecond, as
 * cursors carry them, so a page never skips or repeats a share.
 */
export async function findSharedWith(db: Q, userId: string, workspaceId: string, limit: number, before?: { at: string; id: string }): Promise<SharedRow[]> {
  const { rows } = await sql<ItemRow & Omit<SharedRow, 'item'>>`
    SELECT i.*, g.id AS grant_id, g.role AS grant_role, date_trunc('milliseconds', g.created_at) AS shared_at,
      u.id AS shared_by_id, COALESCE(NULLIF(u.name, ''), u.email) AS shared_by_name, u.email AS shared_by_email,
      gr.id AS group_id, gr.name AS group_name
    FROM item_grants g
    JOIN items i ON i.id = g.item_id
    LEFT JOIN users u ON u.id = g.created_by
    LEFT JOIN groups gr ON g.principal_type = 'group' AND gr.id = g.principal_id
    WHERE ((g.principal_type = 'user' AND g.principal_id = ${userId})
        OR (g.principal_type = 'group' AND EXISTS (SELECT 1 FROM group_members gm WHERE gm.group_id = g.principal_id AND gm.user_id = ${userId})))
      AND (g.expires_at IS NULL OR g.expires_at > now())
      AND i.workspace_id = ${workspaceId} AND i.state = 'active'
      ${before ? sql`AND (date_trunc('milliseconds', g.created_at), g.id) < (${before.at}::timestamptz, ${before.id}::uuid)` : sql``}
    ORDER BY date_trunc('milliseconds', g.created_at) DESC, g.id DESC
    LIMIT ${limit}
  `.execute(db);
  return rows.map(({ grant_id, grant_role, shared_at, shared_by_id, shared_by_name, shared_by_email, group_id, group_name, ...item }) => ({ grant_id, grant_role, shared_at, shared_by_id, shared_by_name, shared_by_email, group_id, group_name, item }));
}
