import type { TCreateGrantRequest, TGrant } from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { record } from '../events/index.ts';
import { maySeeGrants, requireItem } from '../items/index.ts';
import { findShareableUser } from '../users/index.ts';
import { addGuest } from '../workspaces/index.ts';
import { deleteGrant, findGrants, upsertGrant, type GrantRow } from './grants.repo.ts';

const present = (g: GrantRow): TGrant => ({
  id: g.id,
  itemId: g.item_id,
  principal: { type: g.principal_type, id: g.principal_id, name: g.name, email: g.email },
  role: g.role,
  expiresAt: g.expires_at ? new Date(g.expires_at).toISOString() : null,
  createdAt: new Date(g.created_at).toISOString(),
});

const invalid = (path: string, message: string) => new AppError('invalid_input', message, { fields: [{ path, message }] });

/** Who has been given access to the item itself (whoever may share it). */
export async function listGrants(db: Db, actor: Actor, id: string): Promise<TGrant[]> {
  const access = await requireItem(db, actor, id, 'view');
  if (!maySeeGrants(access)) throw new AppError('forbidden', 'Only those who may share it see who has access.');
  return (await findGrants(db, access.item.id)).map(present);
}

/**
 * Shares an item (whoever may share it: its managers): with the whole workspace, or with one person. Someone with an
 * account who is not in the workspace joins it as a guest, who sees only what is shared with them.
 * By email, only an account whose address is verified counts; one that never proved it is treated
 * as no account yet (`invalid_input`), so it gains nothing.
 */
export async function createGrant(db: Db, actor: Actor, id: string, input: TCreateGrantRequest): Promise<TGrant> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw invalid('body.expiresAt', 'must be in the future');
  return inTransaction(db, async (tx) => {
    const { item } = await requireItem(tx, actor, id, 'share');
    let principalId = item.workspace_id;
    if (input.principal.type === 'user') {
      const user = await findShareableUser(tx, input.principal);
      if (!user) throw invalid('body.principal', 'No one with that address has signed in to Cabinet and confirmed it yet.');
      await addGuest(tx, item.workspace_id, user.id);
      principalId = user.id;
    }
    const grantId = await upsertGrant(tx, { itemId: item.id, type: input.principal.type, principalId, role: input.role, expiresAt, by: actor.user.id });
    await record(tx, actor, { workspaceId: item.workspace_id, action: 'item.shared', itemId: item.id, parentIds: [item.parent_id], data: { grantId, principalType: input.principal.type, principalId, role: input.role } });
    return present((await findGrants(tx, item.id, grantId))[0]!);
  });
}

export async function removeGrant(db: Db, actor: Actor, id: string, grantId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { item } = await requireItem(tx, actor, id, 'share');
    const withdrawn = await deleteGrant(tx, item.id, grantId);
    if (!withdrawn) throw new AppError('not_found');
    const data = { grantId, principalType: withdrawn.principal_type, principalId: withdrawn.principal_id, role: null };
    await record(tx, actor, { workspaceId: item.workspace_id, action: 'item.shared', itemId: item.id, parentIds: [item.parent_id], data });
  });
}
