import type { TItemAbilities, TItemAbility, TItemRole, TWorkspaceRole } from '@cabinet/contracts';
import type { Db } from '../../db/client.ts';
import type { ItemRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import type { MemberWorkspaceRow } from '../workspaces/index.ts';
import { findAccess, findAccessMany, findFolderPage, findPathAccess, lockItem, type AccessRow, type ChildRow, type PathStart } from './items.repo.ts';

/**
 * The one place that decides who may do what with an item (PRODUCT.md §6), in two steps: the
 * caller's role on the item, from where it is and what is shared; then what that role lets them
 * do with this item now (its abilities, by its kind and place). Nothing else compares roles:
 * services ask for an ability, and the browser shows what the item's abilities say.
 *
 * Roles:
 * - The shared root's tree: workspace owners and admins manage it, members edit it, guests see
 *   nothing of it unless something in it is shared with them.
 * - A "My files" root's tree belongs to its member, who manages it (a guest only sees theirs);
 *   nobody else sees it unless something in it is shared with them.
 * - Grants on an item hold for everything below it; the strongest grant or base role wins. A
 *   grant to the workspace holds for its members, owners and admins, never for guests; a grant
 *   to a group holds for the people in the group while they are members of the workspace (a
 *   guest is never in a group, and one made a guest has no role from it).
 * - Not a member of the item's workspace (a guest is one only while something in it is shared with
 *   them), or no role at all: the item does not exist for the caller.
 */
const RANK: Record<TItemRole, number> = { viewer: 1, commenter: 2, editor: 3, manager: 4 };
const ROLE_OF_RANK: (TItemRole | null)[] = [null, 'viewer', 'commenter', 'editor', 'manager'];

/** What abilities depend on besides the role. */
export interface AbilityFacts {
  role: TItemRole;
  kind: ItemRow['kind'];
  /** The shared root or a "My files": it stays where it is, as it is. */
  root: boolean;
  /** In use; in the trash itself; or inside a folder that is in the trash (which goes and comes back with it). */
  place: 'active' | 'trashed' | 'in-trashed-folder';
  /** The caller may change things: a session, or an API token with the `write` scope. */
  writes: boolean;
}

/** PRODUCT.md §6's table for one item: what the caller may do with it. */
export function abilitiesOf(f: AbilityFacts): TItemAbilities {
  const active = f.place === 'active';
  const trashed = f.place === 'trashed';
  const document = f.kind === 'document';
  const may = (least: TItemRole) => f.writes && RANK[f.role] >= RANK[least];
  return {
    view: active,
    download: active,
    comment: active && document && may('commenter'),
    deleteAnyComment: active && document && may('manager'),
    edit: active && !f.root && may('editor'),
    createInside: active && f.kind !== 'file' && may('editor'),
    trash: active && !f.root && may('editor'),
    restore: trashed && may('editor'),
    deleteForever: trashed && may('manager'),
    share: active && may('manager'),
    manage: active && may('manager'),
    restoreRevision: active && document && may('manager'),
    restoreVersion: active && f.kind === 'file' && may('manager'),
    deleteVersion: active && f.kind === 'file' && may('manager'),
  };
}

/**
 * Who has been given access to an item is seen by whoever may share it — and also through their
 * API token that may only read, since looking changes nothing (`share` needs writing).
 */
export function maySeeGrants(access: ItemAccess): boolean {
  return access.abilities.view && RANK[access.role] >= RANK.manager;
}

/** What is done with the trash: an item in the trash exists only for these, and other items not for them. */
const TRASH_ABILITIES: ReadonlySet<TItemAbility> = new Set(['restore', 'deleteForever']);

export interface ItemAccess {
  item: ItemRow;
  role: TItemRole;
  abilities: TItemAbilities;
  /** From the item up to its root. */
  chain: string[];
  trashedAbove: boolean;
  /** The slug of the item's workspace (a route may name the workspace either way). */
  workspaceSlug: string;
  /** The caller's role in the item's workspace. */
  workspaceRole: TWorkspaceRole | null;
  /** The caller may break the live WebDAV lock on the item (false when there is none). */
  lockBreakable: boolean;
  /** A live WebDAV lock on the item or a folder above it; undefined where the read did not look (only a path's walk does: accessesOnPath). */
  lockedAlong?: boolean;
  /** What a WebDAV client said of a file's current version when it sent it (read by a path's walk only). */
  client?: { modifiedAt: Date | null; checksums: string | null };
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

/**
 * The role on a folder's child: the folder's role (which holds for everything below it), or the strongest grant on the
 * child itself that holds for the caller (`grantRank`, 0 for none) when that is stronger.
 */
function childRole(folderRole: TItemRole, grantRank: number): TItemRole {
  return ROLE_OF_RANK[Math.max(RANK[folderRole], grantRank)] ?? folderRole;
}

/**
 * The caller's role and abilities on an item whose role is known without looking it up: a
 * folder's child has `childRole`, a new item its parent's role.
 */
export function accessWithRole(actor: Actor, item: ItemRow, role: TItemRole, trashedAbove = false): { role: TItemRole; abilities: TItemAbilities } {
  const place = item.state === 'trashed' ? 'trashed' : trashedAbove ? 'in-trashed-folder' : 'active';
  return { role, abilities: abilitiesOf({ role, kind: item.kind, root: item.parent_id === null, place, writes: actor.scopes.includes('write') }) };
}

function accessOf(actor: Actor, row: AccessRow): ItemAccess | null {
  const role = roleOf(row);
  if (!role) return null;
  const access = accessWithRole(actor, row, role, row.trashed_above);
  return {
    item: row,
    ...access,
    chain: row.chain,
    trashedAbove: row.trashed_above,
    workspaceSlug: row.workspace_slug,
    workspaceRole: row.member_role,
    lockBreakable: !!row.lock_user_id && mayBreakLock(actor, { ...access, workspaceRole: row.member_role }, row.lock_user_id),
  };
}

/**
 * Whether the caller may break a WebDAV lock that `holderId` holds on an item they see: their own, always; anyone's
 * when they manage the item, are an owner or admin of its workspace, or administer the instance. Only while they may
 * change things (a session, or a token that may write).
 */
export function mayBreakLock(actor: Actor, access: { abilities: TItemAbilities; workspaceRole: TWorkspaceRole | null }, holderId: string): boolean {
  if (!access.abilities.view || !actor.scopes.includes('write')) return false;
  const runsWorkspace = access.workspaceRole === 'owner' || access.workspaceRole === 'admin';
  return holderId === actor.user.id || access.abilities.manage || runsWorkspace || actor.user.is_instance_admin;
}

/**
 * Whether a person, by id, may share an item now (they manage it): what they shared in their own
 * name, such as a public link, holds only while this does.
 */
export async function mayShareNow(db: Db, userId: string, itemId: string): Promise<boolean> {
  const row = await findAccess(db, itemId, userId);
  const role = row ? roleOf(row) : null;
  return !!role && RANK[role] >= RANK.manager;
}

/**
 * The caller's access to each of several items, in one query, whatever their place; items they have no role on are
 * missing. With `parents`, their parents' too (in the same query).
 */
export async function findAccesses(db: Db, actor: Actor, ids: string[], options: { parents?: boolean } = {}): Promise<Map<string, ItemAccess>> {
  const out = new Map<string, ItemAccess>();
  for (const [id, row] of await findAccessMany(db, ids, actor.user.id, options)) {
    const access = accessOf(actor, row);
    if (access) out.set(id, access);
  }
  return out;
}

/**
 * The caller's access to a folder and to each item a path of names leads to below it (`findPathAccess`), in one query:
 * the folder first, then the path as far as it leads and the caller has a role on each item; and the folder's
 * workspace as the caller is in it (undefined, and no access, when the walk found no folder to start from).
 */
export async function accessesOnPath(
  db: Db,
  actor: Actor,
  from: PathStart,
  names: string[],
  suffix: string,
): Promise<{ workspace: MemberWorkspaceRow | undefined; accesses: ItemAccess[] }> {
  const rows = await findPathAccess(db, from, names, suffix, actor.user.id);
  const first = rows[0];
  const workspace: MemberWorkspaceRow | undefined =
    first && first.member_role
      ? {
          id: first.workspace_id,
          slug: first.workspace_slug,
          name: first.workspace_name,
          quota_bytes: first.workspace_quota_bytes,
          used_bytes: first.workspace_used_bytes,
          root_item_id: first.workspace_root_id,
          role: first.member_role,
          home_item_id: first.member_home_id,
        }
      : undefined;
  const accesses: ItemAccess[] = [];
  for (const row of rows) {
    const access = accessOf(actor, row);
    if (!access) break;
    accesses.push({ ...access, lockedAlong: row.locks_along, client: { modifiedAt: row.version_modified_at, checksums: row.version_checksums } });
  }
  return { workspace, accesses };
}

/**
 * The item if the caller may do `ability` with it: invisible → `not_found`; visible but not
 * allowed → `forbidden`. Items in the trash (or inside a trashed folder) exist only for what is
 * done with the trash (restore, delete forever), and those reach only items trashed themselves.
 */
export async function requireItem(db: Db, actor: Actor, id: string, ability: TItemAbility, options: { lock?: boolean } = {}): Promise<ItemAccess> {
  if (options.lock && !(await lockItem(db, id))) throw new AppError('not_found');
  const access = judge(actor, await findAccess(db, id, actor.user.id), ability);
  if (access instanceof AppError) throw access;
  return access;
}

/**
 * `requireItem(…, 'view')` on a folder, and one page of its children read in the same statement, each with the
 * caller's role on it (`childRole`: the folder's, or a stronger grant on the child) and so its abilities.
 */
export async function requireFolderPage(
  db: Db,
  actor: Actor,
  folderId: string,
  page: Parameters<typeof findFolderPage>[3],
): Promise<{ folder: ItemAccess; children: (ChildRow & { role: TItemRole; abilities: TItemAbilities; lockBreakable: boolean })[] }> {
  const { folder: row, children } = await findFolderPage(db, folderId, actor.user.id, page);
  const folder = judge(actor, row, 'view');
  if (folder instanceof AppError) throw folder;
  // Each child gains its role and abilities in place (a page is a hundred rows of some fifty columns).
  return {
    folder,
    children: children.map((child) => {
      const access = accessWithRole(actor, child, childRole(folder.role, child.grant_rank));
      const holder = child.lock_user_id;
      return Object.assign(child, access, {
        lockBreakable: !!holder && mayBreakLock(actor, { ...access, workspaceRole: folder.workspaceRole }, holder),
      });
    }),
  };
}

/** `requireItem` for what only documents have (comments, revisions): any other kind of item does not have them, so `not_found`. */
export async function requireDocument(db: Db, actor: Actor, id: string, ability: TItemAbility): Promise<ItemAccess> {
  const access = judge(actor, await findAccess(db, id, actor.user.id), ability, { document: true });
  if (access instanceof AppError) throw access;
  return access;
}

/** `requireItem` for several items in one query: each id answers its access, or the error `requireItem` would throw. */
export async function requireItems(db: Db, actor: Actor, ids: string[], ability: TItemAbility): Promise<Map<string, ItemAccess | AppError>> {
  const rows = await findAccessMany(db, [...new Set(ids)], actor.user.id);
  return new Map(ids.map((id) => [id, judge(actor, rows.get(id), ability)]));
}

/**
 * Whether the caller may move an item (which they may edit) into a folder (which they may create
 * in). Someone who manages the item may take it anywhere, as they may delete it forever. Anyone
 * else moves it only within the tree their access comes from: the same root (so whoever manages
 * that root keeps it) and nowhere their own role on it would be stronger (ADR 0017).
 */
export function requireMove(item: ItemAccess, target: ItemAccess): void {
  if (item.abilities.manage) return;
  if (item.chain.at(-1) !== target.chain.at(-1) || RANK[target.role] > RANK[item.role]) {
    throw new AppError('forbidden', 'Only someone who manages this item can move it there: it would leave the folders its access comes from.');
  }
}

function judge(actor: Actor, row: AccessRow | undefined, ability: TItemAbility, options: { document?: boolean } = {}): ItemAccess | AppError {
  const access = row && accessOf(actor, row);
  if (!row || !access) return new AppError('not_found');
  return judgeAccess(access, ability, options);
}

/**
 * `requireItem`'s answer from an access this request read already (a WebDAV path's, with the item's place and the
 * caller's role on it): the access, or the error `requireItem` would throw.
 */
export function judgeAccess(access: ItemAccess, ability: TItemAbility, options: { document?: boolean } = {}): ItemAccess | AppError {
  const { item } = access;
  const there = TRASH_ABILITIES.has(ability) ? item.state === 'trashed' : item.state === 'active' && !access.trashedAbove;
  if (!there || (options.document && item.kind !== 'document')) return new AppError('not_found');
  return access.abilities[ability] ? access : refusal(item, access, ability);
}

/** Why an ability is refused on an item the caller sees: its kind or place when those rule it out, else their role. */
function refusal(item: ItemRow, access: ItemAccess, ability: TItemAbility): AppError {
  // A file holds nothing: said to whoever could otherwise put something there, the rest are refused for their role first.
  if (ability === 'createInside' && item.kind === 'file' && access.abilities.edit) {
    return new AppError('invalid_input', 'Items can only go into a folder, and files into a document too.', {
      fields: [{ path: 'body.parentId', message: 'is a file' }],
    });
  }
  if (item.parent_id === null && (ability === 'edit' || ability === 'trash'))
    return new AppError('forbidden', 'A root folder cannot be renamed, moved or put in the trash.');
  return new AppError('forbidden');
}
