import type { TItemEvent } from '@cabinet/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { Database, Db } from '../../db/client.ts';

const CHANNEL = 'cabinet_events';

interface Envelope {
  w: string;
  e: TItemEvent;
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

/**
 * Announces a change to everyone watching the workspace, on every instance. Sent with NOTIFY in
 * the caller's transaction, so it is heard only if that transaction commits, and only then.
 */
export async function publish(db: Db, workspaceId: string, event: TItemEvent): Promise<void> {
  const parentIds = [...new Set(event.parentIds.filter(Boolean))];
  const payload: Envelope = { w: workspaceId, e: { ...event, parentIds } };
  await sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(payload)})`.execute(db);
}

/**
 * `publish` of `item.created` as an SQL expression over rows of new items (columns `id`,
 * `workspace_id`, `parent_id` of `table`), for a statement that announces what it inserts.
 */
export function createdNotices(table: string): RawBuilder<unknown> {
  const col = (c: string) => sql.ref(`${table}.${c}`);
  return sql`pg_notify(${CHANNEL}, json_build_object('w', ${col('workspace_id')}, 'e', json_build_object('type', 'item.created', 'itemId', ${col('id')}, 'parentIds', json_build_array(${col('parent_id')})))::text)`;
}

type Listener = (event: TItemEvent) => void;
type AccessListener = (change: AccessChange) => void;

/** This instance's one LISTEN connection, fanned out to the browsers watching each workspace. */
export class EventHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly accessListeners = new Set<AccessListener>();
  private unlisten: (() => Promise<void>) | undefined;

  async start(database: Database): Promise<void> {
    this.unlisten = await database.listen(CHANNEL, (payload) => {
      let envelope: Envelope | { access: AccessChange };
      try {
        envelope = JSON.parse(payload) as Envelope | { access: AccessChange };
      } catch {
        return;
      }
      if ('access' in envelope) {
        for (const listener of this.accessListeners) listener(envelope.access);
        return;
      }
      for (const listener of this.listeners.get(envelope.w) ?? []) listener(envelope.e);
    });
  }

  subscribe(workspaceId: string, listener: Listener): () => void {
    let set = this.listeners.get(workspaceId);
    if (!set) this.listeners.set(workspaceId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(workspaceId);
    };
  }

  /** Hears every AccessChange on every instance (the collaboration socket closes what is no longer allowed). */
  onAccessChange(listener: AccessListener): () => void {
    this.accessListeners.add(listener);
    return () => this.accessListeners.delete(listener);
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.listeners.clear();
    this.accessListeners.clear();
  }
}
