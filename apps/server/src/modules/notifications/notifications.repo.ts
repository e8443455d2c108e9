import { uuidv7 } from '@cabinet/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database, NotificationsTable, UserRow } from '../../db/schema.ts';

type Q = Kysely<Database>;

/** A recorded change notifications may come from (ADR 0034). */
export interface SourceEvent {
  id: number;
  workspace_id: string;
  action: 'item.shared' | 'comment.added' | 'comment.edited' | 'item.updated' | 'item.created' | 'invitation.created';
  /** Null for an invitation (it names no item). */
  item_id: string | null;
  /** Null for a file request's visitor (`actor_link_id` is their link). */
  actor_user_id: string | null;
  actor_link_id: string | null;
  data: Record<string, unknown>;
  created_at: Date;
  /** A comment's item's owner. */
  item_owner_id: string | null;
  /** A file that arrived through a file request: who made the request, and its folder. */
  link_maker_id: string | null;
  link_item_id: string | null;
}

/** The read position in the activity record, locked until the transaction ends: derivers take turns. */
export async function lockProgress(db: Q): Promise<number> {
  const row = await db.selectFrom('notification_progress').select('last_event_id').forUpdate().executeTakeFirst();
  return Number(row?.last_event_id ?? 0);
}

export async function saveProgress(db: Q, lastEventId: number): Promise<void> {
  await db
    .updateTable('notification_progress')
    .set({ last_event_id: sql`GREATEST(last_event_id, ${lastEventId})` })
    .execute();
}

export async function lastEventId(db: Q): Promise<number> {
  const row = await db
    .selectFrom('activity_events')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

/**
 * The changes people are told of with ids in (`afterId`, `upToId`] — made in the last
 * `withinSeconds`, when given — that have no notification yet: new grants, comments, document
 * saves and comment edits that mention someone new, invitations by email, all made by a person (a
 * script's token counts as its person); and files that arrived through a file request. Oldest
 * first. A range of the primary key.
 */
export async function findSourceEvents(db: Q, o: { afterId: number; upToId?: number; withinSeconds?: number; limit: number }): Promise<SourceEvent[]> {
  const { rows } = await sql<SourceEvent>`
    SELECT e.id, e.workspace_id, e.action, e.item_id, e.actor_user_id, e.actor_link_id, e.data, e.created_at,
           i.owner_id AS item_owner_id, l.created_by AS link_maker_id, l.item_id AS link_item_id
      FROM activity_events e
      LEFT JOIN items i ON e.action = 'comment.added' AND i.id = e.item_id
      LEFT JOIN share_links l ON e.action = 'item.created' AND l.id = e.actor_link_id AND l.kind = 'file_request'
     WHERE e.id > ${o.afterId}
       ${o.upToId !== undefined ? sql`AND e.id <= ${o.upToId}` : sql``}
       ${o.withinSeconds !== undefined ? sql`AND e.created_at > now() - ${o.withinSeconds}::int * interval '1 second'` : sql``}
       AND ((e.actor_user_id IS NOT NULL
             AND ((e.item_id IS NOT NULL
                   AND ((e.action = 'item.shared' AND e.data ->> 'added' = 'true')
                     OR e.action = 'comment.added'
                     OR (e.action IN ('item.updated', 'comment.edited') AND e.data ? 'mentioned')))
               OR (e.action = 'invitation.created' AND e.data ->> 'email' IS NOT NULL)))
         OR (e.action = 'item.created' AND e.actor_kind = 'link' AND e.item_id IS NOT NULL AND e.data ->> 'kind' = 'file'))
       AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.event_id = e.id)
     ORDER BY e.id
     LIMIT ${o.limit}
  `.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The active account with this address, confirmed (an unconfirmed one may not be the mailbox's owner). */
export async function findConfirmedUserByEmail(db: Q, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<boolean>`lower(email) = lower(${email})`)
    .where('status', '=', 'active')
    .where('email_verified', '=', true)
    .executeTakeFirst();
}

/** Active accounts among these ids (an id that names no one is dropped). */
export async function findActiveUsers(db: Q, ids: string[]): Promise<UserRow[]> {
  const uuids = ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (uuids.length === 0) return [];
  return db.selectFrom('users').selectAll().where('id', 'in', uuids).where('status', '=', 'active').execute();
}

export type NewNotification = Pick<
  NotificationsTable,
  'user_id' | 'workspace_id' | 'kind' | 'item_id' | 'actor_id' | 'thread_id' | 'comment_id' | 'invitation_id' | 'link_id'
> & {
  event_id: number;
  /** When the change was recorded: an arrival through a file request is told by a notification still open then. */
  at: Date;
};

/**
 * Inserts notifications: one per person per recorded change (deriving again adds nothing); no
 * second unread `shared` for the same item (shared again, or through a group and by name); no
 * second `uploaded` for files that arrived through a file request while its notification was
 * neither read nor mailed (it counts them); none for an invitation deleted since.
 */
export async function insertNotifications(db: Q, rows: NewNotification[]): Promise<number> {
  let inserted = 0;
  for (const r of rows) {
    const result = await sql`
      INSERT INTO notifications (id, user_id, workspace_id, kind, item_id, actor_id, thread_id, comment_id, invitation_id, link_id, event_id)
      SELECT ${uuidv7()}, ${r.user_id}, ${r.workspace_id}, ${r.kind}, ${r.item_id}, ${r.actor_id}, ${r.thread_id}, ${r.comment_id},
             ${r.invitation_id}, ${r.link_id}, ${r.event_id}
       WHERE NOT (${r.kind} = 'shared' AND EXISTS (
         SELECT 1 FROM notifications o WHERE o.user_id = ${r.user_id} AND o.item_id = ${r.item_id} AND o.kind = 'shared' AND o.read_at IS NULL))
         AND NOT (${r.kind} = 'uploaded' AND EXISTS (
         SELECT 1 FROM notifications o
          WHERE o.user_id = ${r.user_id} AND o.link_id = ${r.link_id} AND o.event_id < ${r.event_id}
            AND (o.read_at IS NULL OR o.read_at > ${r.at}) AND (o.mailed_at IS NULL OR o.mailed_at > ${r.at})))
         AND (${r.invitation_id}::uuid IS NULL OR EXISTS (SELECT 1 FROM invitations v WHERE v.id = ${r.invitation_id}))
      ON CONFLICT (event_id, user_id) DO NOTHING
    `.execute(db);
    inserted += Number(result.numAffectedRows ?? 0);
  }
  return inserted;
}

/** Deletes notifications made before `cutoff`, read or not, at most `batch` of them; answers how many. */
export async function deleteNotificationsBefore(db: Q, cutoff: Date, batch: number): Promise<number> {
  const result = await sql`DELETE FROM notifications WHERE id IN (
      SELECT id FROM notifications WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${batch})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export interface NotificationRow {
  id: string;
  user_id: string;
  kind: NotificationsTable['kind'];
  workspace_id: string;
  workspace_slug: string;
  workspace_name: string;
  item_id: string | null;
  item_kind: 'folder' | 'file' | 'document' | null;
  item_name: string | null;
  actor_id: string | null;
  actor_name: string | null;
  thread_id: string | null;
  comment_id: string | null;
  invitation_id: string | null;
  /** `uploaded`: the files that arrived through its file request, up to the next notification of it. */
  count: number | string | null;
  created_at: Date;
  read_at: Date | null;
}

const SELECT_ROWS = sql`
  SELECT n.id, n.user_id, n.kind, n.workspace_id, w.slug AS workspace_slug, w.name AS workspace_name,
         n.item_id, i.kind AS item_kind, i.name AS item_name,
         n.actor_id, COALESCE(NULLIF(a.name, ''), a.email) AS actor_name,
         n.thread_id, n.comment_id, n.invitation_id, n.created_at, n.read_at,
         CASE WHEN n.kind = 'uploaded' THEN (
           SELECT count(*) FROM activity_events e
            WHERE e.actor_link_id = n.link_id AND e.action = 'item.created' AND e.data ->> 'kind' = 'file' AND e.id >= n.event_id
              AND e.id < COALESCE((SELECT min(m.event_id) FROM notifications m
                                    WHERE m.user_id = n.user_id AND m.link_id = n.link_id AND m.event_id > n.event_id), 9223372036854775807))
         END AS count
    FROM notifications n
    JOIN workspaces w ON w.id = n.workspace_id
    LEFT JOIN items i ON i.id = n.item_id
    LEFT JOIN users a ON a.id = n.actor_id`;

/** A person's notifications, newest first, before `beforeId` (the page's cursor). */
export async function findNotifications(
  db: Q,
  userId: string,
  o: { limit: number; beforeId?: string | undefined; unread?: boolean | undefined },
): Promise<NotificationRow[]> {
  const { rows } = await sql<NotificationRow>`${SELECT_ROWS}
   WHERE n.user_id = ${userId}
     ${o.unread ? sql`AND n.read_at IS NULL` : sql``}
     ${o.beforeId ? sql`AND n.id < ${o.beforeId}` : sql``}
   ORDER BY n.id DESC
   LIMIT ${o.limit}`.execute(db);
  return rows;
}

export async function findNotificationsById(db: Q, ids: string[]): Promise<NotificationRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<NotificationRow>`${SELECT_ROWS} WHERE n.id = ANY(${ids}::uuid[]) ORDER BY n.id`.execute(db);
  return rows;
}

export async function countUnread(db: Q, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Marks the person's own notifications read: these ids, or all. */
export async function markRead(db: Q, userId: string, ids: string[] | 'all'): Promise<void> {
  let q = db.updateTable('notifications').set({ read_at: new Date() }).where('user_id', '=', userId).where('read_at', 'is', null);
  if (ids !== 'all') q = q.where('id', 'in', ids);
  await q.execute();
}

export async function findMailSetting(db: Q, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('notify_by_email').where('id', '=', userId).executeTakeFirst();
  return row?.notify_by_email ?? true;
}

export async function setMailSetting(db: Q, userId: string, on: boolean): Promise<void> {
  await db.updateTable('users').set({ notify_by_email: on, updated_at: new Date() }).where('id', '=', userId).execute();
}

/** The people with notifications unread since before `cutoff` and never mailed (at most `limit`). */
export async function findPeopleToMail(db: Q, cutoff: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('notifications')
    .select('user_id')
    .distinct()
    .where('read_at', 'is', null)
    .where('mailed_at', 'is', null)
    .where('created_at', '<=', cutoff)
    .limit(limit)
    .execute();
  return rows.map((r) => r.user_id);
}

/**
 * Takes a person's unread notifications from before `cutoff` that were never mailed, marking them
 * mailed in the same statement: two instances never take the same one. Answers them with the
 * person's address and setting.
 */
export async function claimForMail(db: Q, userId: string, cutoff: Date): Promise<string[]> {
  const rows = await db
    .updateTable('notifications')
    .set({ mailed_at: new Date() })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .where('mailed_at', 'is', null)
    .where('created_at', '<=', cutoff)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Puts notifications back for a later mail (the mail could not be sent). */
export async function unclaimForMail(db: Q, ids: string[]): Promise<void> {
  if (ids.length) await db.updateTable('notifications').set({ mailed_at: null }).where('id', 'in', ids).execute();
}

export async function findUser(db: Q, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}
