import {
  encodeCursor,
  type TMarkNotificationsReadRequest,
  type TNotification,
  type TNotificationKind,
  type TNotificationPage,
  type TNotificationSettings,
  type TNotificationsQuery,
} from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { findThreadAuthorsBefore } from '../comments/index.ts';
import { findGroupMembers } from '../groups/index.ts';
import { findAccesses } from '../items/index.ts';
import {
  countUnread,
  findActiveUsers,
  findMailSetting,
  findNotifications,
  findSourceEvents,
  insertNotifications,
  lastEventId,
  lockProgress,
  markRead,
  saveProgress,
  setMailSetting,
  type NewNotification,
  type NotificationRow,
  type SourceEvent,
} from './notifications.repo.ts';

/**
 * Changes read again by the recurring pass (the last thousand, of the last five minutes): one whose
 * transaction committed after a later one was read is still seen.
 */
const LOOKBACK = { ids: 1000, seconds: 300 };
/** Changes read per pass; a pass that reads this many goes on with the next ones. */
const BATCH = 500;

/** A recipient as the access policy sees them: notifications go only to who can see the item. */
export function personActor(user: UserRow): Actor {
  return { user, via: 'session', sessionId: null, tokenId: null, scopes: ['read'], ip: '', userAgent: null, clientId: null };
}

const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Who a recorded change tells, and why: a mention outranks a reply in the same comment. */
async function recipientsOf(db: Db, e: SourceEvent): Promise<Map<string, Omit<NewNotification, 'user_id'>>> {
  const base = { workspace_id: e.workspace_id, item_id: e.item_id, actor_id: e.actor_user_id, event_id: e.id, thread_id: null, comment_id: null };
  const out = new Map<string, Omit<NewNotification, 'user_id'>>();
  const add = (people: string[], kind: TNotificationKind, extra: Partial<NewNotification> = {}) => {
    for (const p of people) if (!out.has(p)) out.set(p, { ...base, kind, ...extra });
  };
  if (e.action === 'item.shared') {
    const type = e.data.principalType;
    const principal = typeof e.data.principalId === 'string' ? e.data.principalId : undefined;
    // Shared with the whole workspace is not shared with anyone in particular: no one is told.
    if (type === 'user' && principal) add([principal], 'shared');
    if (type === 'group' && principal)
      add(
        (await findGroupMembers(db, principal)).map((m) => m.user_id),
        'shared',
      );
  } else if (e.action === 'comment.added') {
    const threadId = typeof e.data.threadId === 'string' ? e.data.threadId : null;
    const commentId = typeof e.data.commentId === 'string' ? e.data.commentId : null;
    const place = { thread_id: threadId, comment_id: commentId };
    add(ids(e.data.mentioned), 'mentioned', place);
    if (threadId && commentId && threadId !== commentId) add(await findThreadAuthorsBefore(db, threadId, commentId), 'replied', place);
  } else {
    add(ids(e.data.mentioned), 'mentioned');
  }
  // Nobody is told of what they did themself.
  out.delete(e.actor_user_id);
  return out;
}

/**
 * Reads the activity record from where the last pass stopped and makes the notifications it
 * calls for (ADR 0034): only for active people who can see the item now. Derivers on several
 * instances take turns on the progress row; one notification per person per change whatever runs
 * twice. `lookBack` (the recurring job's) reads the recent changes behind the position again;
 * the passes woken by each change do not, or every save would read up to a thousand of them again.
 * Answers how many were made.
 */
export async function deriveNotifications(db: Db, o: { lookBack: boolean } = { lookBack: true }): Promise<number> {
  let made = 0;
  for (let pass = 0; ; pass++) {
    const { inserted, more } = await inTransaction(db, async (tx) => {
      const after = await lockProgress(tx);
      // Read before the changes: anything recorded later is read by the next pass.
      const upTo = await lastEventId(tx);
      const fresh = await findSourceEvents(tx, { afterId: after, upToId: upTo, limit: BATCH });
      // Once per call, the recent ones before the position again (see LOOKBACK).
      const late =
        pass === 0 && o.lookBack
          ? await findSourceEvents(tx, { afterId: Math.max(0, after - LOOKBACK.ids), upToId: after, withinSeconds: LOOKBACK.seconds, limit: BATCH })
          : [];
      let inserted = 0;
      for (const e of [...late, ...fresh]) inserted += await notify(tx, e);
      const more = fresh.length === BATCH;
      await saveProgress(tx, more ? fresh.at(-1)!.id : upTo);
      return { inserted, more };
    });
    made += inserted;
    if (!more) return made;
  }
}

/** Makes the notifications one recorded change calls for: to people who can see its item now. */
async function notify(tx: Db, e: SourceEvent): Promise<number> {
  const recipients = await recipientsOf(tx, e);
  if (recipients.size === 0) return 0;
  const rows: NewNotification[] = [];
  for (const person of await findActiveUsers(tx, [...recipients.keys()])) {
    const access = (await findAccesses(tx, personActor(person), [e.item_id])).get(e.item_id);
    if (access?.abilities.view) rows.push({ ...recipients.get(person.id)!, user_id: person.id });
  }
  return insertNotifications(tx, rows);
}

/**
 * Runs `deriveNotifications` soon after a change that may call for one is heard (on any instance),
 * one pass at a time, changes heard during a pass making one more. The recurring job catches up
 * on what was not heard (an instance away, a lost LISTEN) and on changes that committed late.
 */
export class NotificationDeriver {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
    private readonly delayMs = 100,
  ) {}

  /** Changes that may call for a notification. */
  static concerns(action: string): boolean {
    return action === 'item.shared' || action === 'comment.added' || action === 'item.updated';
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // Changes in quick succession (a document saved as people type) make one pass.
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, this.delayMs);
  }

  private run() {
    this.running = deriveNotifications(this.db, { lookBack: false })
      .then(() => undefined)
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

/**
 * Notifications as their person may see them: one about an item they can no longer see (access
 * withdrawn, in the trash) keeps its kind, who and when, but neither the item nor the place in it.
 */
export async function present(db: Db, user: UserRow, rows: NotificationRow[]): Promise<TNotification[]> {
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
      createdAt: new Date(r.created_at).toISOString(),
      readAt: r.read_at ? new Date(r.read_at).toISOString() : null,
    };
  });
}

export async function listNotifications(db: Db, actor: Actor, q: TNotificationsQuery): Promise<TNotificationPage> {
  const rows = await findNotifications(db, actor.user.id, { limit: q.limit + 1, beforeId: q.cursor?.id, unread: q.unread });
  const page = rows.slice(0, q.limit);
  return {
    items: await present(db, actor.user, page),
    nextCursor: rows.length > q.limit ? encodeCursor({ id: page.at(-1)!.id }) : null,
    unreadCount: await countUnread(db, actor.user.id),
  };
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
