import { uuidv7 } from '@cabinet/contracts';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { InvitationsTable } from '../../db/schema.ts';
import type { WorkspaceRole } from '../workspaces/index.ts';

/** A member with what the rules about them need: their role, name, account status and private root. */
export interface MemberRow {
  user_id: string;
  name: string;
  email: string;
  status: 'active' | 'deactivated';
  role: WorkspaceRole;
  home_item_id: string | null;
}

/**
 * Several people's memberships, held until the transaction ends, locked one after another in the
 * order of their user ids: two changes touching the same two people (a hand-over each way, removing
 * X to Y and Y to X) then wait for each other instead of deadlocking.
 */
export async function lockMembers(db: Db, workspaceId: string, userIds: string[]): Promise<Map<string, MemberRow>> {
  const held = new Map<string, MemberRow>();
  for (const id of [...new Set(userIds)].sort()) {
    const row = await lockMember(db, workspaceId, id);
    if (row) held.set(id, row);
  }
  return held;
}

/** Holds a person's account row until the transaction ends: two joins by one person go one after another. */
export async function lockUser(db: Db, userId: string): Promise<void> {
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

/** Someone's membership, held until the transaction ends (two changes to one person go one after another). */
export function lockMember(db: Db, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.name', 'u.email', 'u.status', 'm.role', 'm.home_item_id'])
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

export type InvitationRow = Omit<Selectable<InvitationsTable>, 'updated_at'> & { created_by_name: string | null };

function invitations(db: Db) {
  return db
    .selectFrom('invitations as i')
    .leftJoin('users as u', 'u.id', 'i.created_by')
    .select([
      'i.id',
      'i.workspace_id',
      'i.email',
      'i.role',
      'i.token_hash',
      'i.expires_at',
      'i.max_uses',
      'i.uses',
      'i.state',
      'i.created_by',
      'i.accepted_by',
      'i.created_at',
      'u.name as created_by_name',
    ]);
}

/** Invitations of a workspace, newest first (ids are time-ordered), after the id given. */
export function listInvitations(db: Db, workspaceId: string, limit: number, beforeId?: string): Promise<InvitationRow[]> {
  let q = invitations(db).where('i.workspace_id', '=', workspaceId);
  if (beforeId) q = q.where('i.id', '<', beforeId);
  return q.orderBy('i.id', 'desc').limit(limit).execute();
}

/** A pending invitation to this address (case folded) in the workspace that has not expired. */
export function findPendingFor(db: Db, workspaceId: string, email: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('invitations')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('state', '=', 'pending')
    .where('expires_at', '>', new Date())
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/** Revokes the pending invitations a person made in a workspace (they no longer manage it); answers them. */
export async function revokeInvitationsBy(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<{ id: string; email: string | null; role: InvitationRow['role'] }[]> {
  return db
    .updateTable('invitations')
    .set({ state: 'revoked', updated_at: new Date() })
    .where('workspace_id', '=', workspaceId)
    .where('created_by', '=', userId)
    .where('state', '=', 'pending')
    .returning(['id', 'email', 'role'])
    .execute();
}

/** A person's role in a workspace now, or undefined when they are not in it (or their account is deactivated). */
export async function activeRoleOf(db: Db, workspaceId: string, userId: string): Promise<WorkspaceRole | undefined> {
  const row = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('m.role')
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId)
    .where('u.status', '=', 'active')
    .executeTakeFirst();
  return row?.role;
}

export function findInvitation(db: Db, workspaceId: string, id: string): Promise<InvitationRow | undefined> {
  return invitations(db).where('i.workspace_id', '=', workspaceId).where('i.id', '=', id).executeTakeFirst();
}

/** An invitation by its token's hash; `lock` holds it while it is being accepted. */
export function findInvitationByHash(db: Db, tokenHash: string, lock = false): Promise<InvitationRow | undefined> {
  const query = invitations(db).where('i.token_hash', '=', tokenHash);
  return (lock ? query.forUpdate('i') : query).executeTakeFirst();
}

/** An invitation by email to this address (in any case), by its id; `lock` holds it while it is being accepted. */
export function findInvitationForEmail(db: Db, id: string, email: string, lock = false): Promise<InvitationRow | undefined> {
  const query = invitations(db)
    .where('i.id', '=', id)
    .where(sql<string>`lower(i.email)`, '=', email.toLowerCase());
  return (lock ? query.forUpdate('i') : query).executeTakeFirst();
}

export async function insertInvitation(
  db: Db,
  i: { workspaceId: string; email: string | null; role: InvitationRow['role']; tokenHash: string; expiresAt: Date; maxUses: number | null; createdBy: string },
): Promise<string> {
  const id = uuidv7();
  await db
    .insertInto('invitations')
    .values({
      id,
      workspace_id: i.workspaceId,
      email: i.email,
      role: i.role,
      token_hash: i.tokenHash,
      expires_at: i.expiresAt,
      max_uses: i.maxUses,
      created_by: i.createdBy,
    })
    .execute();
  return id;
}

export async function updateInvitation(
  db: Db,
  id: string,
  set: { state?: InvitationRow['state']; token_hash?: string; expires_at?: Date; uses?: number; accepted_by?: string },
): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ ...set, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** An invitation whose mail could not be sent, if it is still as it was made (pending, never used, its token unchanged); answers whether it went. */
export async function deleteUnsentInvitation(db: Db, id: string, tokenHash: string): Promise<boolean> {
  const gone = await db
    .deleteFrom('invitations')
    .where('id', '=', id)
    .where('token_hash', '=', tokenHash)
    .where('state', '=', 'pending')
    .where('uses', '=', 0)
    .returning('id')
    .execute();
  return gone.length > 0;
}

/** Puts back an invitation's token, expiry and state from before a resend whose mail could not be sent, if nothing changed it since. */
export async function restoreInvitationToken(
  db: Db,
  id: string,
  sentTokenHash: string,
  before: { token_hash: string; expires_at: Date; state: InvitationRow['state'] },
): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ ...before, updated_at: new Date() })
    .where('id', '=', id)
    .where('token_hash', '=', sentTokenHash)
    .execute();
}

/**
 * How many invitations a person sent (made or mailed again) in any workspace since `since`, as the
 * activity record has them — every send counts, however many times one invitation was resent.
 * `invitationId` counts only the sends of that one invitation.
 */
export async function countSendsSince(db: Db, userId: string, since: Date, invitationId?: string): Promise<number> {
  let q = db
    .selectFrom('activity_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('actor_user_id', '=', userId)
    .where('action', 'in', ['invitation.created', 'invitation.resent'])
    .where('created_at', '>', since);
  if (invitationId) q = q.where(sql`data->>'invitationId'`, '=', invitationId);
  const row = await q.executeTakeFirstOrThrow();
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
