import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { record } from '../events/index.ts';
import { mayBreakLock, requireItem } from '../items/index.ts';
import { deleteLock, findLocksOn } from './dav.repo.ts';

/**
 * Breaks the live WebDAV locks on an item (`DELETE /items/:id/lock`), all of them or none: the caller must be allowed
 * to break each (the policy's `mayBreakLock`). The client that held one finds the token it sends no longer holds, and
 * anyone may change the file again. Nothing to break is no error.
 */
export async function breakLock(db: Db, actor: Actor, itemId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const access = await requireItem(tx, actor, itemId, 'view');
    const locks = await findLocksOn(tx, [itemId]);
    if (!locks.length) return;
    if (!locks.every((l) => mayBreakLock(actor, access, l.user_id)))
      throw new AppError('forbidden', 'Only whoever holds the lock, or someone who manages this item, may break it.');
    for (const l of locks) await deleteLock(tx, l.token);
    const { item } = access;
    // Whose lock it was, when one person held them all (shared locks may be several people's).
    const holders = new Set(locks.map((l) => l.user_id));
    const [only] = holders.size === 1 ? holders : [];
    const clients = new Set(locks.map((l) => l.client));
    const [client] = clients.size === 1 ? clients : [];
    await record(tx, actor, {
      workspaceId: item.workspace_id,
      action: 'item.unlocked',
      itemId: item.id,
      parentIds: [item.parent_id],
      data: { name: item.name, kind: item.kind, ...(only ? { userId: only } : {}), ...(client ? { client } : {}), locks: locks.length },
    });
  });
}
