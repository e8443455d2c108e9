import type { TNotificationKind } from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import { findThreadAuthorsBefore } from '../comments/index.ts';
import { reader } from '../events/index.ts';
import { findGroupMembers } from '../groups/index.ts';
import { findAccesses } from '../items/index.ts';
import {
  findActiveUsers,
  findConfirmedUserByEmail,
  findSourceEvents,
  insertNotifications,
  lastEventId,
  lockProgress,
  saveProgress,
  type NewNotification,
  type SourceEvent,
} from './notifications.repo.ts';
import { personActor } from './notifications.service.ts';

/**
 * Changes read again by the recurring pass (the last thousand, of the last five minutes): one whose
 * transaction committed after a later one was read is still seen.
 */
const LOOKBACK = { ids: 1000, seconds: 300 };
/** Changes read per pass; a pass that reads this many goes on with the next ones. */
const BATCH = 500;

const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

const idOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Who a recorded change tells, and why: a mention outranks a reply, and a reply a comment on what
 * the person owns, in the same comment.
 */
async function recipientsOf(db: Db, e: SourceEvent): Promise<Map<string, Omit<NewNotification, 'user_id'>>> {
  const base = {
    workspace_id: e.workspace_id,
    item_id: e.item_id,
    actor_id: e.actor_user_id,
    event_id: e.id,
    at: new Date(e.created_at),
    thread_id: null,
    comment_id: null,
    invitation_id: null,
    link_id: null,
  };
  const out = new Map<string, Omit<NewNotification, 'user_id'>>();
  const add = (people: string[], kind: TNotificationKind, extra: Partial<NewNotification> = {}) => {
    for (const p of people) if (!out.has(p)) out.set(p, { ...base, kind, ...extra });
  };
  if (e.action === 'item.shared') {
    const type = e.data.principalType;
    const principal = idOf(e.data.principalId) ?? undefined;
    // Shared with the whole workspace is not shared with anyone in particular: no one is told.
    if (type === 'user' && principal) add([principal], 'shared');
    if (type === 'group' && principal)
      add(
        (await findGroupMembers(db, principal)).map((m) => m.user_id),
        'shared',
      );
  } else if (e.action === 'comment.added' || e.action === 'comment.edited') {
    const threadId = idOf(e.data.threadId);
    const commentId = idOf(e.data.commentId);
    const place = { thread_id: threadId, comment_id: commentId };
    // An edit names only whom the comment did not mention before (comments.service).
    add(ids(e.data.mentioned), 'mentioned', place);
    if (e.action === 'comment.added') {
      if (threadId && commentId && threadId !== commentId) add(await findThreadAuthorsBefore(db, threadId, commentId), 'replied', place);
      if (e.item_owner_id) add([e.item_owner_id], 'commented', place);
    }
  } else if (e.action === 'item.created') {
    // A file that arrived through a file request: its maker is told, about the request's folder.
    if (e.link_maker_id) add([e.link_maker_id], 'uploaded', { item_id: e.link_item_id, link_id: e.actor_link_id });
  } else if (e.action === 'invitation.created') {
    const email = typeof e.data.email === 'string' ? e.data.email : null;
    const invitationId = idOf(e.data.invitationId);
    const person = email && invitationId ? await findConfirmedUserByEmail(db, email) : undefined;
    if (person) add([person.id], 'invited', { item_id: null, invitation_id: invitationId });
  } else {
    add(ids(e.data.mentioned), 'mentioned');
  }
  // Nobody is told of what they did themself.
  if (e.actor_user_id) out.delete(e.actor_user_id);
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

/** Makes the notifications one recorded change calls for: to people who can see the item they name now. */
async function notify(tx: Db, e: SourceEvent): Promise<number> {
  const recipients = await recipientsOf(tx, e);
  if (recipients.size === 0) return 0;
  const rows: NewNotification[] = [];
  for (const person of await findActiveUsers(tx, [...recipients.keys()])) {
    const told = recipients.get(person.id)!;
    // An invitation names no item: it is the person's own address it was sent to.
    const itemId = told.item_id;
    const access = itemId ? (await findAccesses(tx, personActor(person), [itemId])).get(itemId) : undefined;
    if (!itemId || access?.abilities.view) rows.push({ ...told, user_id: person.id });
  }
  return insertNotifications(tx, rows);
}

/**
 * Notifications are made right after a change that may call for one commits, on whichever instance
 * hears it first (derivers take turns on the progress row); the job every minute catches up on what
 * no instance heard (an instance away, a lost LISTEN) and reads again the changes that committed late.
 */
export const notificationsReader = reader({
  name: 'notifications.derive',
  wakesOn: ['item.shared', 'comment.added', 'comment.edited', 'item.updated', 'item.created', 'invitation.created'],
  settleMs: 100,
  run: (ctx) => deriveNotifications(ctx.db, { lookBack: false }),
  catchUpEvery: 60_000,
  catchUp: (ctx) => deriveNotifications(ctx.db),
});
