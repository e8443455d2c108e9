import { uuidv7 } from '@cabinet/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database, MembershipsTable } from '../../db/schema.ts';
import { plannedOnceOutside } from '../../db/planned-once.ts';

type Q = Kysely<Database>;
export type WorkspaceRole = MembershipsTable['role'];

export interface MemberWorkspaceRow {
  id: string;
  slug: string;
  name: string;
  quota_bytes: number | null;
  used_bytes: number;
  root_item_id: string | null;
  role: WorkspaceRole;
  home_item_id: string | null;
}

/**
 * Whether the membership `m` counts: every member's does; a guest's only while a live grant (one
 * not expired) in the workspace is theirs. A guest whose last share was removed or ran out is not
 * in the workspace for anyone, themselves included. For any query naming memberships `m`.
 */
export const LIVE_MEMBERSHIP = sql<boolean>`(m.role <> 'guest' OR EXISTS (
  SELECT 1 FROM item_grants lg JOIN items li ON li.id = lg.item_id
   WHERE lg.principal_type = 'user' AND lg.principal_id = m.user_id AND li.workspace_id = m.workspace_id
     AND (lg.expires_at IS NULL OR lg.expires_at > now())))`;

function memberWorkspaces(db: Q, userId: string) {
  return db
    .selectFrom('workspaces as w')
    .innerJoin('memberships as m', 'm.workspace_id', 'w.id')
    .select(['w.id', 'w.slug', 'w.name', 'w.quota_bytes', 'w.used_bytes', 'w.root_item_id', 'm.role', 'm.home_item_id'])
    .where('m.user_id', '=', userId)
    .where(LIVE_MEMBERSHIP);
}

export function listMemberWorkspaces(db: Q, userId: string): Promise<MemberWorkspaceRow[]> {
  return memberWorkspaces(db, userId).orderBy('w.created_at').orderBy('w.id').execute();
}

export async function findMemberWorkspace(db: Q, userId: string, idOrSlug: string): Promise<MemberWorkspaceRow | undefined> {
  // Planned once per connection (ADR 0053, 0071): every call that names a workspace reads it (a WebDAV path's own
  // statement reads the workspace with the path instead, ADR 0072).
  const { rows } = await sql<MemberWorkspaceRow>`${plannedOnceOutside(db)}${memberWorkspaceQuery(db, userId, idOrSlug)}`.execute(db);
  return rows[0];
}

/**
 * The query of `findMemberWorkspace` (a workspace, by id or slug, and the caller's live membership of it as `m`), for a
 * module that reads more of the two in the same statement.
 */
export function memberWorkspaceQuery(db: Q, userId: string, idOrSlug: string) {
  const byId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrSlug);
  return memberWorkspaces(db, userId).where(byId ? 'w.id' : 'w.slug', '=', idOrSlug);
}

export async function slugTaken(db: Q, slug: string): Promise<boolean> {
  return !!(await db.selectFrom('workspaces').select('id').where('slug', '=', slug).executeTakeFirst());
}

export async function insertWorkspace(db: Q, w: { name: string; slug: string; ownerId: string }): Promise<{ id: string; rootId: string }> {
  const id = uuidv7();
  const rootId = uuidv7();
  await db.insertInto('workspaces').values({ id, name: w.name, slug: w.slug, root_item_id: rootId }).execute();
  await db
    .insertInto('items')
    .values({ id: rootId, workspace_id: id, parent_id: null, kind: 'folder', name: 'Workspace', owner_id: w.ownerId, size_bytes: 0, updated_by: w.ownerId })
    .execute();
  return { id, rootId };
}

/** A member and their private "My files" root. */
export function findMembership(db: Q, workspaceId: string, userId: string): Promise<{ role: WorkspaceRole } | undefined> {
  return db.selectFrom('memberships').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
}

export async function insertMembership(db: Q, m: { workspaceId: string; userId: string; role: WorkspaceRole }): Promise<string> {
  const homeId = uuidv7();
  await db
    .insertInto('items')
    .values({
      id: homeId,
      workspace_id: m.workspaceId,
      parent_id: null,
      kind: 'folder',
      name: 'My files',
      owner_id: m.userId,
      size_bytes: 0,
      updated_by: m.userId,
    })
    .execute();
  await db.insertInto('memberships').values({ workspace_id: m.workspaceId, user_id: m.userId, role: m.role, home_item_id: homeId }).execute();
  return homeId;
}

/**
 * Active members (guests while something is shared with them) whose name or email contains `q`
 * (all when it is empty), by name then id, after the position given; `withDeactivated` lists
 * deactivated accounts too, `withoutGuests` leaves guests out.
 */
export function findMembers(
  db: Q,
  workspaceId: string,
  q: string,
  limit: number,
  o: { after?: { name: string; id: string }; withDeactivated?: boolean; withoutGuests?: boolean } = {},
) {
  let query = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id as user_id', 'u.name', 'u.email', 'm.role', 'u.status'])
    .where('m.workspace_id', '=', workspaceId)
    .where(LIVE_MEMBERSHIP);
  if (!o.withDeactivated) query = query.where('u.status', '=', 'active');
  if (o.withoutGuests) query = query.where('m.role', '<>', 'guest');
  if (o.after) {
    const { name, id } = o.after;
    query = query.where((eb) => eb.or([eb('u.name', '>', name), eb.and([eb('u.name', '=', name), eb('u.id', '>', id)])]));
  }
  if (q) {
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('u.name', 'ilike', pattern), eb('u.email', 'ilike', pattern)]));
  }
  return query.orderBy('u.name').orderBy('u.id').limit(limit).execute();
}

/**
 * Adds bytes to what a workspace uses if its quota allows (removing bytes always succeeds);
 * false when it would exceed the quota. Every writer of usage does this as its transaction's
 * last statement, so the workspace row is held only while that transaction commits, and no two
 * writers can deadlock over it.
 */
export async function addUsage(db: Q, workspaceId: string, bytes: number): Promise<boolean> {
  if (bytes === 0) return true;
  const row = await db
    .updateTable('workspaces')
    .set({ used_bytes: sql`greatest(used_bytes + ${bytes}, 0)` })
    .where('id', '=', workspaceId)
    .where((eb) => eb.or([eb('quota_bytes', 'is', null), eb(sql`used_bytes + ${bytes}`, '<=', eb.ref('quota_bytes')), eb.val(bytes < 0)]))
    .returning('used_bytes')
    .executeTakeFirst();
  return !!row;
}

/**
 * Holds the workspace's row until the caller's transaction ends, so that uploads starting at once
 * reserve its room one after another. A statement of its own: one that waited for the lock still
 * reads what it had read before waiting, so the checks come after it.
 */
export async function lockWorkspaceRoom(db: Q, workspaceId: string): Promise<void> {
  await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
}

/** Merges `change` into the workspace's settings (JSON): the keys given replace theirs, the others stay. */
export async function mergeSettings(db: Q, workspaceId: string, change: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('workspaces')
    .set({ settings: sql`coalesce(settings, '{}'::jsonb) || ${JSON.stringify(change)}::jsonb`, updated_at: new Date() })
    .where('id', '=', workspaceId)
    .execute();
}
