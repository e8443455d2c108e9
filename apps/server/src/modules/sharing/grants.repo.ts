import { uuidv7 } from '@cabinet/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database, ItemGrantsTable } from '../../db/schema.ts';

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

/** The grants made on the item itself, with who they are for. */
export async function findGrants(db: Q, itemId: string, id?: string): Promise<GrantRow[]> {
  const { rows } = await sql<GrantRow>`
    SELECT g.id, g.item_id, g.principal_type, g.principal_id, g.role, g.expires_at, g.created_at,
      COALESCE(NULLIF(u.name, ''), u.email, w.name, '') AS name, u.email
    FROM item_grants g
    LEFT JOIN users u ON g.principal_type = 'user' AND u.id = g.principal_id
    LEFT JOIN workspaces w ON g.principal_type = 'workspace' AND w.id = g.principal_id
    WHERE g.item_id = ${itemId} ${id ? sql`AND g.id = ${id}` : sql``}
    ORDER BY g.created_at, g.id
  `.execute(db);
  return rows;
}

/** Gives the role, or changes the role an existing grant to the same principal gives. Answers the grant's id. */
export async function upsertGrant(db: Q, g: { itemId: string; type: 'user' | 'workspace'; principalId: string; role: ItemGrantsTable['role']; expiresAt: Date | null; by: string }): Promise<string> {
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
