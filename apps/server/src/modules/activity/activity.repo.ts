import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Q = Kysely<Database>;

/** What one entry of the record is read with: the row, who did it and the item as it is now (if it still is). */
export interface ActivityRow {
  id: number | string;
  created_at: Date;
  actor_kind: 'user' | 'token' | 'link' | 'system';
  actor_user_id: string | null;
  action: string;
  item_id: string | null;
  data: Record<string, unknown>;
  ip: string | null;
  user_agent: string | null;
  actor_name: string | null;
  actor_email: string | null;
  item_name: string | null;
  item_kind: 'folder' | 'file' | 'document' | null;
}

export interface ActivityFilter {
  workspaceId?: string;
  itemId?: string;
  actorId?: string;
  action?: string;
  /** At or after this time. */
  after?: Date;
  /** Before this time. */
  before?: Date;
  /** Entries older than this one (its id): the next page. */
  beforeId?: number;
}

/** A page of the record, newest first, filtered; each filter has its index (migrations 0010, 0014). */
export function findActivity(db: Q, f: ActivityFilter, limit: number): Promise<ActivityRow[]> {
  let q = db
    .selectFrom('activity_events as e')
    .leftJoin('users as u', 'u.id', 'e.actor_user_id')
    .leftJoin('items as i', 'i.id', 'e.item_id')
    .select([
      'e.id',
      'e.created_at',
      'e.actor_kind',
      'e.actor_user_id',
      'e.action',
      'e.item_id',
      'e.data',
      'e.ip',
      'e.user_agent',
      'u.name as actor_name',
      'u.email as actor_email',
      'i.name as item_name',
      'i.kind as item_kind',
    ]);
  if (f.workspaceId) q = q.where('e.workspace_id', '=', f.workspaceId);
  if (f.itemId) q = q.where('e.item_id', '=', f.itemId);
  if (f.actorId) q = q.where('e.actor_user_id', '=', f.actorId);
  // Thumbnails made (by Cabinet, for the live lists) are not history people read, unless asked for by name.
  if (f.action) q = q.where('e.action', '=', f.action);
  else q = q.where('e.action', '!=', 'file.previewed');
  if (f.after) q = q.where('e.created_at', '>=', f.after);
  if (f.before) q = q.where('e.created_at', '<', f.before);
  if (f.beforeId !== undefined) q = q.where('e.id', '<', f.beforeId);
  return q.orderBy('e.id', 'desc').limit(limit).execute() as Promise<ActivityRow[]>;
}

/**
 * Deletes up to `batch` entries recorded before `cutoff`, oldest first; answers how many. The
 * retention job calls it until fewer come back, so no statement holds many rows at once.
 */
export async function deleteActivityBefore(db: Q, cutoff: Date, batch: number): Promise<number> {
  const result = await sql`DELETE FROM activity_events WHERE id IN (
      SELECT id FROM activity_events WHERE created_at < ${cutoff} ORDER BY created_at, id LIMIT ${batch})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** People and groups that entries are about, by id, as they are now (those gone are missing). */
export async function findSubjects(
  db: Q,
  userIds: readonly string[],
  groupIds: readonly string[],
): Promise<{ users: { id: string; name: string; email: string }[]; groups: { id: string; name: string }[] }> {
  const users = userIds.length
    ? await db
        .selectFrom('users')
        .select(['id', 'name', 'email'])
        .where('id', 'in', [...userIds])
        .execute()
    : [];
  const groups = groupIds.length
    ? await db
        .selectFrom('groups')
        .select(['id', 'name'])
        .where('id', 'in', [...groupIds])
        .execute()
    : [];
  return { users, groups };
}
