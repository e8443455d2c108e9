import type { TItemRole } from '@cabinet/contracts';
import type { Db } from '../../db/client.ts';
import type { ItemRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { findAccess, findAccessMany, lockItem, type AccessRow } from './items.repo.ts';

/**
 * The one place that decides who may do what with an item (PRODUCT.md §6).
 *
 * - The shared root's tree: workspace owners and admins manage it, members edit it, guests see
 *   nothing of it unless something in it is shared with them.
 * - A "My files" root's tree belongs to its member, who manages it (a guest only sees theirs);
 *   nobody else sees it unless something in it is shared with them.
 * - Grants on an item hold for everything below it; the strongest grant or base role wins. A
 *   grant to the workspace holds for its members, owners and admins, never for guests.
 * - Not a member of the item's workspace (a guest is one only while something in it is shared with
 *   them), or no role at all: the item does not exist for the caller.
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
  /** The slug of the item's workspace (a route may name the workspace either way). */
  workspaceSlug: string;
}

/** The caller's role from the facts of one access row, by the rules above; null when they have none. */
function roleOf(row: AccessRow): TItemRole | null {
  if (!row.member_role || !row.root_id) return null;
  let base = 0;
  if (row.root_id === row.workspace_root_id) {
    base = row.member_role === 'owner' || row.member_role === 'admin' ? RANK.manager : row.member_role === 'member' ? RANK.editor : 0;
  } else if (row.root_id === row.member_home_id) {
    // Guests cannot create at a root: their own "My files" is only there to look at.
    base = row.member_role === 'guest' ? RANK.viewer : RANK.manager;
  }
  return ROLE_OF_RANK[Math.max(base, row.grant_rank)] ?? null;
}

/** The caller's role on each of several items, in one query; items they cannot see are missing. */
export async function effectiveRoles(db: Db, actor: Actor, ids: string[]): Promise<Map<string, { role: TItemRole; chain: string[]; trashedAbove: boolean; item: ItemRow }>> {
  const out = new Map<string, { role: TItemRole; chain: string[]; trashedAbove: boolean; item: ItemRow }>();
  for (const [id, row] of await findAccessMany(db, ids, actor.user.id)) {
    const role = roleOf(row);
    if (role) out.set(id, { role, chain: row.chain, trashedAbove: row.trashed_above, item: row });
  }
  return out;
}

/**
 * The item if the caller may do `action` with it: invisible → `not_found`; visible but too weak
 * → `forbidden`. Items in the trash (or inside a trashed folder) exist only for `inTrash` calls
 * (restore, delete forever), and those reach only items that were trashed themselves.
 */
export async function requireItem(db: Db, actor: Actor, id: string, action: ItemAction, options: { lock?: boolean; inTrash?: boolean } = {}): Promise<ItemAccess> {
  if (options.lock && !(await lockItem(db, id))) throw new AppError('not_found');
  const access = judge(await findAccess(db, id, actor.user.id), action, options);
  if (access instanceof AppError) throw access;
  return access;
}

/** `requireItem` for what only documents have (comments, revisions): any other kind of item does not have them, so `not_found`. */
export async function requireDocument(db: Db, actor: Actor, id: string, action: ItemAction): Promise<ItemAccess> {
  const access = await requireItem(db, actor, id, action);
  if (access.item.kind !== 'document') throw new AppError('not_found');
  return access;
}

/** `requireItem` for several items in one query: each id answers its access, or the error `requireItem` would throw. */
export async function requireItems(db: Db, actor: Actor, ids: string[], action: ItemAction): Promise<Map<string, ItemAccess | AppError>> {
  const rows = await findAccessMany(db, [...new Set(ids)], actor.user.id);
  return new Map(ids.map((id) => [id, judge(rows.get(id), action, {})]));
}

/**
 * Whether the caller may move an item (which they may edit) into a folder (which they may edit).
 * Someone who manages the item may take it anywhere, as they may delete it forever. Anyone else
 * moves it only within the tree their access comes from: the same root (so whoever manages that
 * root keeps it) and nowhere their own role on it would be stronger (ADR 0017).
 */
export function requireMove(item: ItemAccess, target: ItemAccess): void {
  if (item.role === 'manager') return;
  if (item.chain.at(-1) !== target.chain.at(-1) || RANK[target.role] > RANK[item.role]) {
    throw new AppError('forbidden', 'Only someone who manages this item can move it there: it would leave the folders its access comes from.');
  }
}

function judge(row: AccessRow | undefined, action: ItemAction, options: { inTrash?: boolean }): ItemAccess | AppError {
  const role = row ? roleOf(row) : null;
  if (!row || !role) return new AppError('not_found');
  const visible = options.inTrash ? row.state === 'trashed' : row.state === 'active' && !row.trashed_above;
  if (!visible) return new AppError('not_found');
  if (RANK[role] < NEEDED[action]) return new AppError('forbidden');
  return { item: row, role, chain: row.chain, trashedAbove: row.trashed_above, workspaceSlug: row.workspace_slug };
}
