import type { TItemRole } from '@cabinet/contracts';
import type { Db } from '../../db/client.ts';
import type { ItemRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { findMemberWorkspace } from '../workspaces/workspaces.repo.ts';
import { findAccessFacts, findItem, lockItem } from './items.repo.ts';

/**
 * The one place that decides who may do what with an item (PRODUCT.md §6).
 *
 * - The shared root's tree: workspace owners and admins manage it, members edit it, guests see
 *   nothing of it unless something in it is shared with them.
 * - A "My files" root's tree belongs to its member, who manages it (a guest only sees theirs);
 *   nobody else sees it unless something in it is shared with them.
 * - Grants on an item hold for everything below it; the strongest grant or base role wins.
 * - Not a member of the item's workspace, or no role at all: the item does not exist for the caller.
 */
export const RANK: Record<TItemRole, number> = { viewer: 1, commenter: 2, editor: 3, manager: 4 };
const ROLE_OF_RANK: (TItemRole | null)[] = [null, 'viewer', 'commenter', 'editor', 'manager'];

export type ItemAction = 'view' | 'comment' | 'edit' | 'manage';
const NEEDED: Record<ItemAction, number> = { view: 1, comment: 2, edit: 3, manage: 4 };

export interface ItemAccess {
  item: ItemRow;
  role: TItemRole;
  /** From the item up to its root. */
  chain: string[];
  trashedAbove: boolean;
}

export async function effectiveRole(db: Db, actor: Actor, item: ItemRow): Promise<{ role: TItemRole; chain: string[]; trashedAbove: boolean } | null> {
  const membership = await findMemberWorkspace(db, actor.user.id, item.workspace_id);
  if (!membership) return null;
  const facts = await findAccessFacts(db, item.id, actor.user.id, item.workspace_id);
  if (!facts) return null;
  let base = 0;
  if (facts.rootId === membership.root_item_id) {
    base = membership.role === 'owner' || membership.role === 'admin' ? RANK.manager : membership.role === 'member' ? RANK.editor : 0;
  } else if (facts.rootId === membership.home_item_id) {
    // Guests cannot create at a root: their own "My files" is only there to look at.
    base = membership.role === 'guest' ? RANK.viewer : RANK.manager;
  }
  const role = ROLE_OF_RANK[Math.max(base, facts.grantRank)] ?? null;
  return role ? { role, chain: facts.chain, trashedAbove: facts.trashedAbove } : null;
}

/**
 * The item if the caller may do `action` with it: invisible → `not_found`; visible but too weak
 * → `forbidden`. Items in the trash (or inside a trashed folder) exist only for `inTrash` calls
 * (restore, delete forever), and those reach only items that were trashed themselves.
 */
export async function requireItem(db: Db, actor: Actor, id: string, action: ItemAction, options: { lock?: boolean; inTrash?: boolean } = {}): Promise<ItemAccess> {
  const item = options.lock ? await lockItem(db, id) : await findItem(db, id);
  if (!item) throw new AppError('not_found');
  const access = await effectiveRole(db, actor, item);
  if (!access) throw new AppError('not_found');
  const visible = options.inTrash ? item.state === 'trashed' : item.state === 'active' && !access.trashedAbove;
  if (!visible) throw new AppError('not_found');
  if (RANK[access.role] < NEEDED[action]) throw new AppError('forbidden');
  return { item, ...access };
}
