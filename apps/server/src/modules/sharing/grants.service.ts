import {
  encodeCursor,
  type TCreateGrantRequest,
  type TGrant,
  type TGrantList,
  type TSharedPage,
  type TSharedPosition,
  type TSharedQuery,
  type TUpdateGrantRequest,
} from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { record } from '../events/index.ts';
import { findAccesses, maySeeGrants, presentItem, requireItem } from '../items/index.ts';
import { findGroupOf } from '../groups/index.ts';
import { findShareableUser } from '../users/index.ts';
import { addGuest, getWorkspace, requireWorkspace } from '../workspaces/index.ts';
import {
  deleteGrant,
  findGrants,
  findLiveGrantsOn,
  findPerson,
  findSharedWith,
  updateGrantRow,
  upsertGrant,
  type GrantRow,
  type InheritedGrantRow,
} from './grants.repo.ts';

/** `withEmail` false for a guest: people's addresses are for the workspace's own members, not for guests. */
const present = (g: GrantRow | InheritedGrantRow, withEmail = true): TGrant => ({
  id: g.id,
  itemId: g.item_id,
  principal: { type: g.principal_type, id: g.principal_id, name: g.name, email: withEmail ? g.email : null },
  role: g.role,
  expiresAt: g.expires_at ? new Date(g.expires_at).toISOString() : null,
  createdAt: new Date(g.created_at).toISOString(),
  inheritedFrom: 'item_name' in g ? { id: g.item_id, name: g.item_name } : null,
});

const invalid = (path: string, message: string) => new AppError('invalid_input', message, { fields: [{ path, message }] });

/**
 * Who has access to an item (whoever may share it sees this): the live grants on the item itself
 * (an expired grant gives nothing and is not listed, on the item as above it), then the live grants
 * on the folders above it, nearest folder first — only folders where the caller may see who has
 * access (as they may here) — and who owns it. Base roles from where the item is (the workspace's
 * members in the shared root, a member's own My files) are not grants and are not listed. A guest
 * managing an item sees names, not email addresses.
 */
export async function listGrants(db: Db, actor: Actor, id: string): Promise<TGrantList> {
  const access = await requireItem(db, actor, id, 'view');
  if (!maySeeGrants(access)) throw new AppError('forbidden', 'Only those who may share it see who has access.');
  const withEmail = (await getWorkspace(db, actor.user, access.item.workspace_id)).abilities.seeMembers;
  const above = access.chain.slice(1);
  const seen = await findAccesses(db, actor, above);
  const visible = above.filter((a) => {
    const there = seen.get(a);
    return there ? maySeeGrants(there) : false;
  });
  const inherited = await findLiveGrantsOn(db, visible);
  const depth = new Map(visible.map((a, i) => [a, i]));
  inherited.sort((a, b) => depth.get(a.item_id)! - depth.get(b.item_id)!);
  const owner = await findPerson(db, access.item.owner_id);
  const own = (await findGrants(db, access.item.id)).filter((g) => !g.expires_at || new Date(g.expires_at).getTime() > Date.now());
  return {
    items: [...own, ...inherited].map((g) => present(g, withEmail)),
    nextCursor: null,
    owner: owner ? { ...owner, email: withEmail ? owner.email : null } : null,
  };
}

/**
 * Shares an item (whoever may share it: its managers): with the whole workspace, a group of it, or one person. Someone with an
 * account who is not in the workspace joins it as a guest, who sees only what is shared with them.
 * By email, only an account whose address is verified counts; one that never proved it is treated
 * as no account yet (`invalid_input`), so it gains nothing.
 */
/**
 * A group or the whole workspace is shared with by those who see who is in it: not by a guest managing what was shared
 * with them (they may still take such a grant away, which only narrows access).
 */
async function requireSeeingWhoIsThere(db: Db, actor: Actor, workspaceId: string): Promise<void> {
  await requireWorkspace(db, actor.user, workspaceId, 'seeMembers', 'Guests share with people, not with a group or the whole workspace.');
}

export async function createGrant(db: Db, actor: Actor, id: string, input: TCreateGrantRequest): Promise<TGrant> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw invalid('body.expiresAt', 'must be in the future');
  return inTransaction(db, async (tx) => {
    const { item } = await requireItem(tx, actor, id, 'share');
    let principalId = item.workspace_id;
    if (input.principal.type !== 'user') await requireSeeingWhoIsThere(tx, actor, item.workspace_id);
    if (input.principal.type === 'group') {
      const group = await findGroupOf(tx, item.workspace_id, input.principal.id);
      if (!group) throw invalid('body.principal', 'No such group in this workspace.');
      principalId = group.id;
    } else if (input.principal.type === 'user') {
      const user = await findShareableUser(tx, input.principal);
      if (!user) throw invalid('body.principal', 'No one with that address has signed in to Cabinet and confirmed it yet.');
      await addGuest(tx, item.workspace_id, user.id);
      principalId = user.id;
    }
    const { id: grantId, added } = await upsertGrant(tx, {
      itemId: item.id,
      type: input.principal.type,
      principalId,
      role: input.role,
      expiresAt,
      by: actor.user.id,
    });
    // `added`: a new grant (notifications tell its people, ADR 0034), not a role changed by sharing again.
    await record(tx, actor, {
      workspaceId: item.workspace_id,
      action: 'item.shared',
      itemId: item.id,
      parentIds: [item.parent_id],
      data: { grantId, principalType: input.principal.type, principalId, role: input.role, added },
    });
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

/** Changes the role or expiry of a grant on the item (whoever may share it); a grant inherited from a folder above changes there. */
export async function updateGrant(db: Db, actor: Actor, id: string, grantId: string, input: TUpdateGrantRequest): Promise<TGrant> {
  const expiresAt = input.expiresAt === undefined ? undefined : input.expiresAt === null ? null : new Date(input.expiresAt);
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw invalid('body.expiresAt', 'must be in the future');
  return inTransaction(db, async (tx) => {
    const { item } = await requireItem(tx, actor, id, 'share');
    const grant = (await findGrants(tx, item.id, grantId))[0];
    if (!grant) throw new AppError('not_found');
    // Changing (or renewing) a grant to a group or the whole workspace is sharing with it again.
    if (grant.principal_type !== 'user') await requireSeeingWhoIsThere(tx, actor, item.workspace_id);
    const changed = await updateGrantRow(tx, item.id, grantId, {
      ...(input.role ? { role: input.role } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    });
    if (!changed) throw new AppError('not_found');
    const data = {
      grantId,
      principalType: changed.principal_type,
      principalId: changed.principal_id,
      role: changed.role,
      expiresAt: changed.expires_at ? new Date(changed.expires_at).toISOString() : null,
    };
    await record(tx, actor, { workspaceId: item.workspace_id, action: 'item.shared', itemId: item.id, parentIds: [item.parent_id], data });
    return present((await findGrants(tx, item.id, grantId))[0]!);
  });
}

/**
 * "Shared with me": items of the workspace shared with the caller themself or with a group they
 * are in — a grant to the whole workspace is not sharing with them — that they can see now (active, not inside a folder in the
 * trash), newest share first, with who shared each and when. A page may hold fewer than `limit`
 * items when some are out of sight; `nextCursor` says whether more may follow.
 */
export async function listSharedWithMe(db: Db, actor: Actor, workspaceIdOrSlug: string, q: TSharedQuery): Promise<TSharedPage> {
  const workspace = await getWorkspace(db, actor.user, workspaceIdOrSlug);
  const rows = await findSharedWith(db, actor.user.id, workspace.id, q.limit + 1, q.cursor);
  const page = rows.slice(0, q.limit);
  const accesses = await findAccesses(
    db,
    actor,
    page.map((r) => r.item.id),
  );
  const items = page.flatMap((r) => {
    const access = accesses.get(r.item.id);
    if (!access?.abilities.view) return [];
    // A guest sees who shared something with them by name, not by address.
    const sharedBy = r.shared_by_id
      ? { id: r.shared_by_id, name: r.shared_by_name ?? '', email: workspace.abilities.seeMembers ? r.shared_by_email : null }
      : null;
    const group = r.group_id ? { id: r.group_id, name: r.group_name ?? '' } : null;
    return [{ item: presentItem(r.item, access), grantId: r.grant_id, role: r.grant_role, sharedAt: new Date(r.shared_at).toISOString(), sharedBy, group }];
  });
  const last = page.at(-1);
  return {
    items,
    nextCursor:
      rows.length > q.limit && last ? encodeCursor({ at: new Date(last.shared_at).toISOString(), id: last.grant_id } satisfies TSharedPosition) : null,
  };
}
