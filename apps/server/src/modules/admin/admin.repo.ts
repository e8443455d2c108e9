import { uuidv7 } from '@cabinet/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Q = Kysely<Database>;

/** `%q%` for ILIKE, its wildcards taken literally. */
const contains = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface WorkspaceRow {
  id: string;
  slug: string;
  name: string;
  used_bytes: number;
  quota_bytes: number | null;
  created_at: Date;
  member_count: number;
  owner: { id: string; name: string; email: string } | null;
}

function workspaceRows(db: Q) {
  return db.selectFrom('workspaces as w').select([
    'w.id',
    'w.slug',
    'w.name',
    sql<number>`w.used_bytes::float8`.as('used_bytes'),
    sql<number | null>`w.quota_bytes::float8`.as('quota_bytes'),
    'w.created_at',
    sql<number>`(SELECT count(*)::int FROM memberships m WHERE m.workspace_id = w.id)`.as('member_count'),
    sql<WorkspaceRow['owner']>`(SELECT jsonb_build_object('id', u.id, 'name', u.name, 'email', u.email)
        FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = w.id AND m.role = 'owner' LIMIT 1)`.as('owner'),
  ]);
}

/** A page of workspaces, most storage first, after `after`. */
export function workspacesPage(
  db: Q,
  o: { q?: string | undefined; after?: { usedBytes: number; id: string } | undefined; limit: number },
): Promise<WorkspaceRow[]> {
  let query = workspaceRows(db);
  if (o.q) query = query.where((eb) => eb.or([eb('w.name', 'ilike', contains(o.q!)), eb('w.slug', 'ilike', contains(o.q!))]));
  if (o.after) query = query.where(sql<boolean>`(w.used_bytes, w.id) < (${o.after.usedBytes}::bigint, ${o.after.id}::uuid)`);
  return query.orderBy('w.used_bytes', 'desc').orderBy('w.id', 'desc').limit(o.limit).execute();
}

export function workspaceById(db: Q, id: string): Promise<WorkspaceRow | undefined> {
  return workspaceRows(db).where('w.id', '=', id).executeTakeFirst();
}

/** Sets a workspace's quota (inside the caller's transaction, the row locked first); the quota it had, or undefined when there is no such workspace. */
export async function setQuota(db: Q, id: string, quotaBytes: number | null): Promise<{ before: number | null } | undefined> {
  const old = await db
    .selectFrom('workspaces')
    .select(sql<number | null>`quota_bytes::float8`.as('quota'))
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!old) return undefined;
  await db.updateTable('workspaces').set({ quota_bytes: quotaBytes, updated_at: new Date() }).where('id', '=', id).execute();
  return { before: old.quota };
}

export interface UserRowForAdmin {
  id: string;
  name: string;
  email: string;
  status: 'active' | 'deactivated';
  is_instance_admin: boolean;
  last_seen_at: Date | null;
  created_at: Date;
  owned_bytes: number;
  workspaces: { id: string; slug: string; name: string; role: 'owner' | 'admin' | 'member' | 'guest' }[];
}

function userRows(db: Q) {
  return db.selectFrom('users as u').select([
    'u.id',
    'u.name',
    'u.email',
    'u.status',
    'u.is_instance_admin',
    'u.last_seen_at',
    'u.created_at',
    sql<number>`(SELECT coalesce(sum(i.size_bytes), 0)::float8 FROM items i WHERE i.owner_id = u.id AND i.kind = 'file' AND i.state = 'active')`.as(
      'owned_bytes',
    ),
    sql<
      UserRowForAdmin['workspaces']
    >`(SELECT coalesce(jsonb_agg(jsonb_build_object('id', w.id, 'slug', w.slug, 'name', w.name, 'role', m.role) ORDER BY w.name), '[]'::jsonb)
        FROM memberships m JOIN workspaces w ON w.id = m.workspace_id WHERE m.user_id = u.id)`.as('workspaces'),
  ]);
}

/** A page of people in the order they joined (their ids are time-ordered), after `after`. */
export function usersPage(
  db: Q,
  o: { q?: string | undefined; status?: 'active' | 'deactivated' | undefined; after?: string | undefined; limit: number },
): Promise<UserRowForAdmin[]> {
  let query = userRows(db);
  if (o.q) query = query.where((eb) => eb.or([eb('u.name', 'ilike', contains(o.q!)), eb('u.email', 'ilike', contains(o.q!))]));
  if (o.status) query = query.where('u.status', '=', o.status);
  if (o.after) query = query.where('u.id', '>', o.after);
  return query.orderBy('u.id').limit(o.limit).execute();
}

export function userById(db: Q, id: string): Promise<UserRowForAdmin | undefined> {
  return userRows(db).where('u.id', '=', id).executeTakeFirst();
}

/** Who the person is at their identity provider (its issuer and their subject there), with their name and address. */
export function identityOf(db: Q, id: string) {
  return db.selectFrom('users').select(['id', 'email', 'name', 'issuer', 'subject']).where('id', '=', id).executeTakeFirst();
}

/** The person's row, locked until the transaction ends (two administrators changing one person take turns). */
export function lockUser(db: Q, id: string) {
  return db.selectFrom('users').select(['id', 'email', 'issuer', 'subject', 'status', 'is_instance_admin']).where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * The active instance administrators, locked in the order of their ids (so two administrators' changes at once take
 * turns, never deadlock): the last one is never taken away.
 */
export async function activeAdmins(db: Q): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('is_instance_admin', '=', true)
    .where('status', '=', 'active')
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}

export async function updateUserForAdmin(db: Q, id: string, change: { status?: 'active' | 'deactivated'; is_instance_admin?: boolean }): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...change, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** What every workspace takes and how many people and workspaces there are. */
export async function usageTotals(db: Q) {
  const row = await sql<{ used_bytes: number; workspaces: number; people: number; deactivated: number }>`
    SELECT (SELECT coalesce(sum(used_bytes), 0)::float8 FROM workspaces) AS used_bytes,
           (SELECT count(*)::int FROM workspaces) AS workspaces,
           (SELECT count(*)::int FROM users) AS people,
           (SELECT count(*)::int FROM users WHERE status = 'deactivated') AS deactivated`.execute(db);
  return row.rows[0]!;
}

export interface AuditInsert {
  actorUserId: string;
  action: string;
  targetKind: 'user' | 'workspace' | 'job';
  targetId: string;
  targetLabel: string;
  data: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
}

export async function insertAudit(db: Q, entry: AuditInsert): Promise<void> {
  await db
    .insertInto('instance_audit')
    .values({
      id: uuidv7(),
      actor_user_id: entry.actorUserId,
      action: entry.action,
      target_kind: entry.targetKind,
      target_id: entry.targetId,
      target_label: entry.targetLabel,
      data: JSON.stringify(entry.data),
      ip: entry.ip,
      user_agent: entry.userAgent,
    })
    .execute();
}

/** A page of the instance's audit, newest first, before `before`. */
export function auditPage(db: Q, o: { before?: string | undefined; limit: number }) {
  let query = db
    .selectFrom('instance_audit as a')
    .leftJoin('users as u', 'u.id', 'a.actor_user_id')
    .select([
      'a.id',
      'a.action',
      'a.target_kind',
      'a.target_id',
      'a.target_label',
      'a.data',
      'a.ip',
      'a.created_at',
      'u.id as actor_id',
      'u.name as actor_name',
      'u.email as actor_email',
    ]);
  if (o.before) query = query.where('a.id', '<', o.before);
  return query.orderBy('a.id', 'desc').limit(o.limit).execute();
}
