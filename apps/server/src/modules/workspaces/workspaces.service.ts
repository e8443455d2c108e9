import {
  type TCreateWorkspaceRequest,
  type TMember,
  type TMembersPosition,
  type TMembersQuery,
  type TWorkspace,
  type TWorkspaceAbility,
} from '@cabinet/contracts';
import type { Kysely } from 'kysely';
import { inTransaction } from '../../db/client.ts';
import type { ActorUser, Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { keysetPage } from '../../lib/keyset-page.ts';
import {
  findMembers,
  findMembership,
  findMemberWorkspace,
  insertMembership,
  insertWorkspace,
  listMemberWorkspaces,
  slugTaken,
  type MemberWorkspaceRow,
} from './workspaces.repo.ts';
import { requireWorkspaceAbility, workspaceAbilities } from './workspaces.policy.ts';

type Q = Kysely<Database>;

/** The workspace as the caller sees it: their role, what it lets them do, and the usage and quota when they may see them. */
export function presentWorkspace(w: MemberWorkspaceRow): TWorkspace {
  const abilities = workspaceAbilities(w.role);
  return {
    id: w.id,
    slug: w.slug,
    name: w.name,
    role: w.role,
    rootId: w.root_item_id!,
    homeId: w.home_item_id!,
    quotaBytes: !abilities.seeUsage || w.quota_bytes === null ? null : Number(w.quota_bytes),
    usedBytes: abilities.seeUsage ? Number(w.used_bytes) : null,
    abilities,
  };
}

export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return base.length >= 3 ? base : `workspace${base ? `-${base}` : ''}`;
}

async function freeSlug(db: Q, wanted: string): Promise<string> {
  if (!(await slugTaken(db, wanted))) return wanted;
  for (let n = 2; n < 1000; n++) {
    const candidate = `${wanted.slice(0, 44)}-${n}`;
    if (!(await slugTaken(db, candidate))) return candidate;
  }
  return `${wanted.slice(0, 38)}-${Date.now().toString(36)}`;
}

/** A new workspace with its shared root, owned by `owner`, who also gets a "My files" root in it. */
export async function createWorkspace(db: Q, owner: ActorUser, input: TCreateWorkspaceRequest): Promise<TWorkspace> {
  return inTransaction(db, async (tx) => {
    let slug: string;
    if (input.slug) {
      if (await slugTaken(tx, input.slug)) {
        throw new AppError('name_conflict', 'That workspace address is taken.', { field: 'slug', suggestedName: await freeSlug(tx, input.slug) });
      }
      slug = input.slug;
    } else {
      slug = await freeSlug(tx, slugify(input.name));
    }
    const { id } = await insertWorkspace(tx, { name: input.name, slug, ownerId: owner.id });
    await insertMembership(tx, { workspaceId: id, userId: owner.id, role: 'owner' });
    return presentWorkspace((await findMemberWorkspace(tx, owner.id, id))!);
  });
}

export async function listWorkspaces(db: Q, user: ActorUser): Promise<TWorkspace[]> {
  return (await listMemberWorkspaces(db, user.id)).map(presentWorkspace);
}

/** A workspace the user belongs to, by id or slug; any other is `not_found`. */
export async function getWorkspace(db: Q, user: ActorUser, idOrSlug: string): Promise<TWorkspace> {
  const w = await findMemberWorkspace(db, user.id, idOrSlug);
  if (!w) throw new AppError('not_found', 'No such workspace.');
  return presentWorkspace(w);
}

/** `getWorkspace` for a call that needs an ability there: anyone else in the workspace is refused (`forbidden`, saying who may, or `why`). */
export async function requireWorkspace(db: Q, user: ActorUser, idOrSlug: string, ability: TWorkspaceAbility, why?: string): Promise<TWorkspace> {
  const workspace = await getWorkspace(db, user, idOrSlug);
  requireWorkspaceAbility(workspace.abilities, ability, why);
  return workspace;
}

/** The workspace's members, for mentions and sharing; a guest sees only what is shared with them, not who else is here. */
export async function listMembers(db: Q, user: ActorUser, idOrSlug: string, query: TMembersQuery): Promise<{ items: TMember[]; nextCursor: string | null }> {
  const w = await requireWorkspace(db, user, idOrSlug, 'seeMembers');
  const withDeactivated = query.include === 'deactivated';
  if (withDeactivated) requireWorkspaceAbility(w.abilities, 'manageMembers', 'Only the owner and admins see deactivated accounts.');
  const rows = await findMembers(db, w.id, query.q ?? '', query.limit + 1, { after: query.cursor, withDeactivated, withoutGuests: query.exclude === 'guests' });
  return keysetPage(
    rows,
    query.limit,
    (m) => ({ userId: m.user_id, name: m.name, email: m.email, role: m.role, ...(withDeactivated ? { status: m.status } : {}) }),
    (last) => ({ name: last.name, id: last.user_id }) satisfies TMembersPosition,
  );
}

/** Someone given access to an item in a workspace they are not in joins it as a guest, who sees only what is shared with them. */
export async function addGuest(db: Q, workspaceId: string, userId: string): Promise<void> {
  if (!(await findMembership(db, workspaceId, userId))) await insertMembership(db, { workspaceId, userId, role: 'guest' });
}
