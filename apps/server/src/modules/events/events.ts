import type { TActivityAction, TItemEvent } from '@cabinet/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { Database, Db } from '../../db/client.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { rateKey } from '../../lib/client-address.ts';

const CHANNEL = 'cabinet_events';

/** What the trigger of migration 0010 announces for each recorded activity row. */
interface Envelope {
  w: string;
  id: number;
  /** Who made the change (their user id), or null (Cabinet itself). */
  by: string | null;
  e: RecordedChange['event'];
}

/**
 * Someone's access may have shrunk: a grant, membership or item (trashed, moved, deleted) in
 * workspace `w` changed, or user `u`'s account, sessions or tokens did (either may be null). Sent
 * by triggers in the writer's transaction (migration 0009), so every writer announces it.
 */
export interface AccessChange {
  w: string | null;
  u: string | null;
}

/** A change to record: what was done (`item.created`…), in which workspace, to which item. */
export interface Activity {
  workspaceId: string;
  action: TActivityAction;
  itemId: string | null;
  /** The folders whose listings it changed (the parent; for a move the old parent too). */
  parentIds?: (string | null)[];
  /** Whatever else the action needs to be understood later (names, roles…); small. */
  data?: Record<string, unknown>;
}

/** Someone without an account holding a public link: the link is who they are (actor kind `link`). */
export interface LinkVisitor {
  via: 'link';
  linkId: string;
  ip: string;
  userAgent: string | null;
}

/** The actor columns of a row: who did it, from where. `null`: Cabinet itself (a job). */
function actorColumns(actor: Actor | LinkVisitor | null) {
  if (actor?.via === 'link') {
    return {
      actor_kind: 'link',
      actor_user_id: null,
      actor_token_id: null,
      actor_link_id: actor.linkId,
      ip: actor.ip,
      user_agent: actor.userAgent,
      client_id: null,
    } as const;
  }
  return {
    actor_kind: actor ? (actor.via === 'token' ? 'token' : 'user') : 'system',
    actor_user_id: actor?.user.id ?? null,
    actor_token_id: actor?.tokenId ?? null,
    actor_link_id: null,
    ip: actor?.ip ?? null,
    user_agent: actor?.userAgent ?? null,
    client_id: actor?.clientId ?? null,
  } as const;
}

/**
 * Records a change, in the caller's transaction: the one way a change is written down and
 * announced (the row's trigger sends it to every instance, heard only if the transaction commits).
 */
export async function record(db: Db, actor: Actor | LinkVisitor | null, activity: Activity): Promise<void> {
  const parentIds = [...new Set((activity.parentIds ?? []).filter((id): id is string => !!id))];
  await db
    .insertInto('activity_events')
    .values({
      ...actorColumns(actor),
      workspace_id: activity.workspaceId,
      action: activity.action,
      item_id: activity.itemId,
      data: JSON.stringify({ ...activity.data, parentIds }),
    })
    .execute();
}

/**
 * `record` for a link visitor's page view: at most once per link, address and item within
 * `withinMs`, so a page reloaded again and again (or a script) neither floods the record nor makes
 * every open page of the workspace look again.
 */
export async function recordVisit(db: Db, visitor: LinkVisitor, activity: Activity & { itemId: string }, withinMs: number): Promise<void> {
  const recent = await db
    .selectFrom('activity_events')
    .select('id')
    .where('actor_link_id', '=', visitor.linkId)
    .where('created_at', '>', new Date(Date.now() - withinMs))
    .where('ip', '=', visitor.ip)
    .where('action', '=', activity.action)
    .where('item_id', '=', activity.itemId)
    .limit(1)
    .executeTakeFirst();
  if (!recent) await record(db, visitor, activity);
}

/**
 * The people a comment was recorded as mentioning, when it was added and at each edit (ADR 0034):
 * an edit names only the others. The item's entries, read by `activity_events_item_idx`.
 */
export async function findRecordedMentions(db: Db, itemId: string, commentId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('activity_events')
    .select('data')
    .where('item_id', '=', itemId)
    .where('action', 'in', ['comment.added', 'comment.edited'])
    .where(sql<string>`data ->> 'commentId'`, '=', commentId)
    .execute();
  return new Set(rows.flatMap(({ data }) => (Array.isArray(data.mentioned) ? data.mentioned.filter((m): m is string => typeof m === 'string') : [])));
}

/**
 * How many changes of `action` a link's visitor made from their address since `since` (those whose
 * data holds `data`, when given): what a limit per link and address counts. An IPv6 address counts
 * by its /64 (`rateKey`), as the link's other limits: the addresses in it are all the visitor's to change.
 */
export async function countRecorded(db: Db, visitor: LinkVisitor, action: TActivityAction, since: Date, data: Record<string, string> = {}): Promise<number> {
  const from = rateKey(visitor.ip);
  const network = from.endsWith('/64');
  const rows = await db
    .selectFrom('activity_events')
    .select(['ip', sql<number>`count(*)::int`.as('n')])
    .where('actor_link_id', '=', visitor.linkId)
    .where('created_at', '>', since)
    .where('action', '=', action)
    .where(sql<boolean>`data @> ${JSON.stringify(data)}::jsonb`)
    // The addresses that may be the visitor's, read as `rateKey` reads them.
    .where((eb) => (network ? eb('ip', 'like', '%:%') : eb('ip', 'in', [from, `::ffff:${from}`])))
    .groupBy('ip')
    .execute();
  return rows.reduce((sum, r) => sum + (r.ip !== null && rateKey(r.ip) === from ? Number(r.n) : 0), 0);
}

/** Who changed an account, from where (at sign-in there is no `Actor` yet). */
export type AccountActor = Pick<Actor, 'via' | 'tokenId' | 'userAgent' | 'clientId'> & { ip: string | null };

/** A change to someone's account: a sign-in, a sign-out, an API token made, revoked or used. */
export interface AccountActivity {
  /** Whose account (the actor's, unless Cabinet itself acts). */
  userId: string;
  action: Extract<TActivityAction, `session.${string}` | `token.${string}`>;
  data?: Record<string, unknown>;
}

/**
 * `record` for a change to someone's account, which belongs to no workspace: one row in each
 * workspace they are a member of, so its owner and admins see it in their audit log; not where
 * they are a guest, whose admins have no say over their account. One statement.
 */
export async function recordAccount(db: Db, actor: AccountActor | null, activity: AccountActivity): Promise<void> {
  const kind = actor ? (actor.via === 'token' ? 'token' : 'user') : 'system';
  const data = JSON.stringify({ ...activity.data, parentIds: [] });
  await sql`INSERT INTO activity_events (workspace_id, actor_kind, actor_user_id, actor_token_id, ip, user_agent, client_id, action, item_id, data)
    SELECT m.workspace_id, ${kind}, ${activity.userId}, ${actor?.tokenId ?? null},
           ${actor?.ip ?? null}, ${actor?.userAgent ?? null}, ${actor?.clientId ?? null}, ${activity.action}, NULL, ${data}::jsonb
      FROM memberships m WHERE m.user_id = ${activity.userId} AND m.role <> 'guest'`.execute(db);
}

/**
 * `record` of `item.created` for every row of `table` (columns `id`, `workspace_id`,
 * `parent_id`, `name`, `kind`), as a statement to run inside the statement that inserts them.
 */
export function recordCreated(table: string, actor: Actor | LinkVisitor | null): RawBuilder<unknown> {
  const a = actorColumns(actor);
  const col = (c: string) => sql.ref(`${table}.${c}`);
  return sql`INSERT INTO activity_events
      (workspace_id, actor_kind, actor_user_id, actor_token_id, actor_link_id, ip, user_agent, client_id, action, item_id, data)
    SELECT ${col('workspace_id')}, ${a.actor_kind}, ${a.actor_user_id}, ${a.actor_token_id}, ${a.actor_link_id},
           ${a.ip}, ${a.user_agent}, ${a.client_id}, 'item.created', ${col('id')},
           jsonb_build_object('parentIds', jsonb_build_array(${col('parent_id')}), 'name', ${col('name')}, 'kind', ${col('kind')})
      FROM ${sql.table(table)}
    RETURNING id`;
}

/** A recorded change as the live stream hears it: one to an item, or (itemId null) one to the workspace's groups. */
export type RecordedChange = { id: number; by: string | null; event: Omit<TItemEvent, 'itemId'> & { itemId: string | null } };

/** The changes a live stream sends: those to items, and those to groups (who is in one changes what they see). */
const streamed = (db: Db, workspaceId: string) =>
  db
    .selectFrom('activity_events')
    .select(['id', 'action', 'item_id', 'data', 'client_id', 'actor_user_id'])
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or([eb('item_id', 'is not', null), eb('action', 'like', 'group.%')]));

const asChange = (r: {
  id: string | number;
  action: string;
  item_id: string | null;
  data: Record<string, unknown>;
  client_id: string | null;
  actor_user_id: string | null;
}): RecordedChange => ({
  id: Number(r.id),
  by: r.actor_user_id,
  event: { type: r.action as TActivityAction, itemId: r.item_id, parentIds: (r.data.parentIds as string[] | undefined) ?? [], clientId: r.client_id },
});

/**
 * Recorded changes in a workspace after `afterId`, oldest first (a reconnecting listener catches
 * up; a page opens its stream from the `Last-Change-Id` its answers carried). `afterId` may be any
 * change of the record, in any workspace. Undefined when more than `limit` changes follow it, or
 * when the record does not hold where it left off: an id past its head (a database restored from a
 * backup) or before what it still keeps (pruned): what was missed is not known, or is better fetched afresh.
 */
export async function activitySince(db: Db, workspaceId: string, afterId: number, o: { limit: number }): Promise<RecordedChange[] | undefined> {
  const ends = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('activity_events')
        .select((f) => f.fn.max('id').as('head'))
        .as('head'),
      eb
        .selectFrom('activity_events')
        .select((f) => f.fn.min('id').as('tail'))
        .as('tail'),
    ])
    .executeTakeFirstOrThrow();
  const head = ends.head == null ? 0 : Number(ends.head);
  const tail = ends.tail == null ? null : Number(ends.tail);
  // `tail - 1`: ids are handed out in order, so nothing was recorded between the id before the oldest kept and it.
  if (afterId > head || (tail !== null && afterId < tail - 1)) return undefined;
  const rows = await streamed(db, workspaceId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(o.limit + 1)
    .execute();
  return rows.length > o.limit ? undefined : rows.map(asChange);
}

/**
 * For a listener starting afresh: the changes of the last `withinMs` milliseconds, oldest first
 * (at most `limit`), and the id of the workspace's latest recorded change of any kind (null when
 * there is none), from which it can later ask for what it missed.
 */
export async function recentActivity(
  db: Db,
  workspaceId: string,
  o: { limit: number; withinMs: number },
): Promise<{ changes: RecordedChange[]; latestId: number | null }> {
  const rows = await streamed(db, workspaceId)
    .where('created_at', '>', new Date(Date.now() - o.withinMs))
    .orderBy('id')
    .limit(o.limit)
    .execute();
  const latest = await db
    .selectFrom('activity_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return { changes: rows.map(asChange), latestId: latest?.id == null ? null : Number(latest.id) };
}

/** A recorded change, or `reset`: changes may have been missed (the instance lost its LISTEN for a while). */
export type HubMessage = RecordedChange | 'reset';
type Listener = (message: HubMessage) => void;
type AccessListener = (change: AccessChange) => void;
/** A recorded change anywhere (workspace, row id, action): what readers of the record (notifications) wake on. */
type RecordedListener = (recorded: { workspaceId: string; id: number; action: TActivityAction }) => void;
/** A person's notifications changed (made, read): `null` when notices may have been missed. */
type NoticeListener = (userId: string | null) => void;

/** This instance's one LISTEN connection, fanned out to the browsers watching each workspace. */
export class EventHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly accessListeners = new Set<AccessListener>();
  private readonly recordedListeners = new Set<RecordedListener>();
  private readonly noticeListeners = new Set<NoticeListener>();
  private unlisten: (() => Promise<void>) | undefined;
  private heard = 0;

  /**
   * The id of the latest change recorded in any workspace that this instance has heard of (0: none
   * yet): every change up to it has been announced, so a read that starts now shows it. Read once
   * from the record at start and after a lost LISTEN, then kept by the announcements.
   */
  get latestId(): number {
    return this.heard;
  }

  private async readHead(database: Database): Promise<void> {
    const row = await database.db
      .selectFrom('activity_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    this.heard = Math.max(this.heard, row?.id == null ? 0 : Number(row.id));
  }

  async start(database: Database): Promise<void> {
    this.unlisten = await database.listen(
      CHANNEL,
      (payload) => {
        let envelope: Envelope | { access: AccessChange } | { notice: string };
        try {
          envelope = JSON.parse(payload) as Envelope | { access: AccessChange } | { notice: string };
        } catch {
          return;
        }
        if ('access' in envelope) {
          for (const listener of this.accessListeners) listener(envelope.access);
          return;
        }
        if ('notice' in envelope) {
          for (const listener of this.noticeListeners) listener(envelope.notice);
          return;
        }
        this.heard = Math.max(this.heard, envelope.id);
        for (const listener of this.recordedListeners) listener({ workspaceId: envelope.w, id: envelope.id, action: envelope.e.type });
        for (const listener of this.listeners.get(envelope.w) ?? []) listener({ id: envelope.id, by: envelope.by ?? null, event: envelope.e });
      },
      () => {
        // What was announced while the connection was away is lost: everyone looks again, and the head is read anew.
        this.readHead(database).catch(() => {});
        for (const listener of this.accessListeners) listener({ w: null, u: null });
        for (const listener of this.noticeListeners) listener(null);
        for (const set of this.listeners.values()) for (const listener of set) listener('reset');
      },
    );
    // After LISTEN is up, so no change falls between the two.
    await this.readHead(database);
  }

  subscribe(workspaceId: string, listener: Listener): () => void {
    let set = this.listeners.get(workspaceId);
    if (!set) this.listeners.set(workspaceId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      // Only its own set: a later subscriber may have made a new one since this one emptied.
      if (set.size === 0 && this.listeners.get(workspaceId) === set) this.listeners.delete(workspaceId);
    };
  }

  /** Hears every AccessChange on every instance (the collaboration socket closes what is no longer allowed). */
  onAccessChange(listener: AccessListener): () => void {
    this.accessListeners.add(listener);
    return () => this.accessListeners.delete(listener);
  }

  /** Hears every change recorded in any workspace, on every instance. */
  onRecorded(listener: RecordedListener): () => void {
    this.recordedListeners.add(listener);
    return () => this.recordedListeners.delete(listener);
  }

  /** Hears whose notifications changed (migration 0016's trigger), on every instance. */
  onNotice(listener: NoticeListener): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.listeners.clear();
    this.accessListeners.clear();
    this.recordedListeners.clear();
    this.noticeListeners.clear();
  }
}
