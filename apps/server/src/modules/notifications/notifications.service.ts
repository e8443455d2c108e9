import {
  encodeCursor,
  type TMarkNotificationsReadRequest,
  type TNotification,
  type TNotificationPage,
  type TNotificationSettings,
  type TNotificationsQuery,
} from '@cabinet/contracts';
import { onOneSnapshot, type Db } from '../../db/client.ts';
import type { ActorUser } from '../../db/schema.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { findAccesses } from '../items/index.ts';
import {
  countUnread,
  deleteNotificationsBefore,
  findMailSetting,
  findNotifications,
  markRead,
  setMailSetting,
  type NotificationRow,
} from './notifications.repo.ts';

/** A recipient as the access policy sees them: notifications go only to who can see the item. */
export function personActor(user: ActorUser): Actor {
  return { user, via: 'session', sessionId: null, tokenId: null, scopes: ['read'], ip: '', userAgent: null, clientId: null };
}

/**
 * Notifications as their person may see them: one about an item they can no longer see (access
 * withdrawn, in the trash) keeps its kind, who and when, but neither the item nor the place in it.
 */
export async function present(db: Db, user: ActorUser, rows: NotificationRow[]): Promise<TNotification[]> {
  const itemIds = [...new Set(rows.flatMap((r) => (r.item_id ? [r.item_id] : [])))];
  const accesses = await findAccesses(db, personActor(user), itemIds);
  return rows.map((r) => {
    const visible = r.item_id && r.item_kind && r.item_name !== null && accesses.get(r.item_id)?.abilities.view;
    return {
      id: r.id,
      kind: r.kind,
      workspace: { id: r.workspace_id, slug: r.workspace_slug, name: r.workspace_name },
      item: visible ? { id: r.item_id!, kind: r.item_kind!, name: r.item_name! } : null,
      actor: r.actor_id ? { id: r.actor_id, name: r.actor_name ?? '' } : null,
      threadId: visible ? r.thread_id : null,
      commentId: visible ? r.comment_id : null,
      invitationId: r.invitation_id,
      count: r.count === null ? null : Number(r.count),
      createdAt: new Date(r.created_at).toISOString(),
      readAt: r.read_at ? new Date(r.read_at).toISOString() : null,
    };
  });
}

/** A page of the person's notifications and how many are unread, read on one snapshot: the count never disagrees with the page. */
export async function listNotifications(db: Db, actor: Actor, q: TNotificationsQuery): Promise<TNotificationPage> {
  return onOneSnapshot(db, async (tx) => {
    const rows = await findNotifications(tx, actor.user.id, { limit: q.limit + 1, beforeId: q.cursor?.id, unread: q.unread });
    const page = rows.slice(0, q.limit);
    return {
      items: await present(tx, actor.user, page),
      nextCursor: rows.length > q.limit ? encodeCursor({ id: page.at(-1)!.id }) : null,
      unreadCount: await countUnread(tx, actor.user.id),
    };
  });
}

/** Marks the caller's notifications read (some, or all); another person's ids change nothing. */
export async function readNotifications(db: Db, actor: Actor, input: TMarkNotificationsReadRequest): Promise<{ unreadCount: number }> {
  await markRead(db, actor.user.id, input.all ? 'all' : (input.ids ?? []));
  return { unreadCount: await countUnread(db, actor.user.id) };
}

export async function notificationSettings(db: Db, actor: Actor): Promise<TNotificationSettings> {
  return { emailUnread: await findMailSetting(db, actor.user.id) };
}

export async function updateNotificationSettings(db: Db, actor: Actor, input: TNotificationSettings): Promise<TNotificationSettings> {
  await setMailSetting(db, actor.user.id, input.emailUnread);
  return notificationSettings(db, actor);
}

const DAY = 24 * 60 * 60_000;
/** Notifications deleted in one statement, and statements in one run of the job (the rest waits for the next). */
const PRUNE_BATCH = 5000;
const PRUNE_BATCHES_PER_RUN = 200;

/** Deletes notifications older than `retentionDays` (PRODUCT.md §9), read or not, in bounded batches; answers how many. */
export async function pruneNotifications(db: Db, retentionDays: number, o: { batch?: number; now?: number } = {}): Promise<number> {
  const batch = o.batch ?? PRUNE_BATCH;
  const cutoff = new Date((o.now ?? Date.now()) - retentionDays * DAY);
  let total = 0;
  for (let i = 0; i < PRUNE_BATCHES_PER_RUN; i++) {
    const deleted = await deleteNotificationsBefore(db, cutoff, batch);
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}
