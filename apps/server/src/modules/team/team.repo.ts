import { uuidv7 } from '@cabinet/contracts';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { InvitationsTable } from '../../db/schema.ts';
import type { WorkspaceRole } from '../workspaces/index.ts';

/** A member with what the rules about them need: their role, name and private root. */
export interface MemberRow {
  user_id: string;
  name: string;
  email: string;
  role: WorkspaceRole;
  home_item_id: string | null;
}

/** Someone's membership, held until the transaction ends (two changes to one person go one after another). */
export function lockMember(db: Db, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.name', 'u.email', 'm.role', 'm.home_item_id'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId)
    .forUpdate('m')
    .executeTakeFirst();
}

export async function setRole(db: Db, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
  await db.updateTable('memberships').set({ role, updated_at: new Date() }).where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
}

/** Ends a membership (the trigger of migration 0009 tells every instance, whose sockets then close). */
export async function deleteMembership(db: Db, workspaceId: string, userId: string): Promise<void> {
  await db.deleteFrom('memberships').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
}

/** What was shared with a person in a workspace is no longer theirs once they leave it. */
export async function deleteGrantsTo(db: Db, workspaceId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('item_grants')
    .where('principal_type', '=', 'user')
    .where('principal_id', '=', userId)
    .where('item_id', 'in', (eb) => eb.selectFrom('items').select('id').where('workspace_id', '=', workspaceId))
    .execute();
}

/** Whether `parentId` has an active child called `name` (case folded, as the unique index compares). */
async function nameTaken(db: Db, parentId: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('items')
    .select('id')
    .where('parent_id', '=', parentId)
    .where('state', '=', 'active')
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  return !!row;
}

/**
 * Hands a private root over: it becomes a folder `name` (or `name (2)`…) in `toHomeId`, with
 * everything in it — trashed things too. What the person owned there becomes `toUserId`'s, so it
 * shows in their trash too and nothing is lost.
 */
export async function handOverHome(db: Db, homeId: string, fromUserId: string, toHomeId: string, toUserId: string, name: string): Promise<string> {
  await sql`
    WITH RECURSIVE sub AS (SELECT id FROM items WHERE id = ${homeId} UNION ALL SELECT i.id FROM items i JOIN sub ON i.parent_id = sub.id)
    UPDATE items SET owner_id = ${toUserId} WHERE id IN (SELECT id FROM sub) AND owner_id = ${fromUserId}
  `.execute(db);
  let candidate = name;
  for (let n = 2; await nameTaken(db, toHomeId, candidate); n++) candidate = `${name} (${n})`;
  await db
    .updateTable('items')
    .set({ parent_id: toHomeId, name: candidate, owner_id: toUserId, updated_at: new Date(), version: sql`version + 1` })
    .where('id', '=', homeId)
    .execute();
  return candidate;
}

export type InvitationRow = Omit<Selectable<InvitationsTable>, 'updated_at'> & { created_by_name: string | null };

function invitations(db: Db) {
  return db
    .selectFrom('invitations as i')
    .leftJoin('users as u', 'u.id', 'i.created_by')
    .select(['i.id', 'i.workspace_id', 'i.email', 'i.role', 'i.token_hash', 'i.expires_at', 'i.max_uses', 'i.uses', 'i.state', 'i.created_by', 'i.accepted_by', 'i.created_at', 'u.name as created_by_name']);
}

export function listInvitations(db: Db, workspaceId: string): Promise<InvitationRow[]> {
  return invitations(db).where('i.workspace_id', '=', workspaceId).orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(200).execute();
}

export function findInvitation(db: Db, workspaceId: string, id: string): Promise<InvitationRow | undefined> {
  return invitations(db).where('i.workspace_id', '=', workspaceId).where('i.id', '=', id).executeTakeFirst();
}

/** An invitation by its token's hash; `lock` holds it while it is being accepted. */
export function findInvitationByHash(db: Db, tokenHash: string, lock = false): Promise<InvitationRow | undefined> {
  const query = invitations(db).where('i.token_hash', '=', tokenHash);
  return (lock ? query.forUpdate('i') : query).executeTakeFirst();
}

export async function insertInvitation(
  db: Db,
  i: { workspaceId: string; email: string | null; role: InvitationRow['role']; tokenHash: string; expiresAt: Date; maxUses: number | null; createdBy: string },
): Promise<string> {
  const id = uuidv7();
  await db
    .insertInto('invitations')
    .values({ id, workspace_id: i.workspaceId, email: i.email, role: i.role, token_hash: i.tokenHash, expires_at: i.expiresAt, max_uses: i.maxUses, created_by: i.createdBy })
    .execute();
  return id;
}

export async function updateInvitation(db: Db, id: string, set: { state?: InvitationRow['state']; token_hash?: string; expires_at?: Date; uses?: number; accepted_by?: string }): Promise<void> {
  await db.updateTable('invitations').set({ ...set, updated_at: new Date() }).where('id', '=', id).execute();
}

/** How many invitations a person made (or mailed again) in a workspace since `since`. */
export async function countInvitationsSince(db: Db, workspaceId: string, userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('invitations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('created_by', '=', userId)
    .where((eb) => eb.or([eb('created_at', '>', since), eb('updated_at', '>', since)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Someone with this address (case folded) already in the workspace, guests aside. */
export async function memberWithEmail(db: Db, workspaceId: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('m.user_id')
    .where('m.workspace_id', '=', workspaceId)
    .where('m.role', '<>', 'guest')
    .where(sql`lower(u.email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return !!row;
}

export function findWorkspaceSummary(db: Db, workspaceId: string) {
  return db.selectFrom('workspaces').select(['id', 'name', 'slug']).where('id', '=', workspaceId).executeTakeFirstOrThrow();
}
