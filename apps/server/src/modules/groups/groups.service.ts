import type { TGroup, TGroupMember, TWorkspace } from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { record } from '../events/index.ts';
import { requireWorkspace, requireWorkspaceAbility } from '../workspaces/index.ts';
import {
  deleteFromAllGroups,
  deleteGroupMember,
  deleteGroupRow,
  findGroup,
  findGroupable,
  findGroupMembers,
  findGroupNamed,
  findGroupPlaces,
  findGroups,
  insertGroup,
  insertGroupMembers,
  renameGroupRow,
  type GroupMemberRow,
  type GroupRow,
} from './groups.repo.ts';

const invalid = (path: string, message: string) => new AppError('invalid_input', message, { fields: [{ path, message }] });

const present = (g: GroupRow): TGroup => ({
  id: g.id,
  workspaceId: g.workspace_id,
  name: g.name,
  memberCount: Number(g.member_count),
  createdAt: new Date(g.created_at).toISOString(),
});
const presentMember = (m: GroupMemberRow): TGroupMember => ({
  userId: m.user_id,
  name: m.name,
  email: m.email,
  role: m.role,
  source: m.source,
  addedAt: new Date(m.created_at).toISOString(),
});

/** The workspace, for someone who may see its groups: anyone in it but a guest (who sees only what is shared with them). */
function requireGroupReader(db: Db, actor: Actor, ws: string): Promise<TWorkspace> {
  return requireWorkspace(db, actor.user, ws, 'seeMembers', 'Guests cannot see the groups of the workspace.');
}

/** The workspace, for someone who manages its groups: the owner and admins (a guest is told first that they do not see them). */
async function requireGroupManager(db: Db, actor: Actor, ws: string): Promise<TWorkspace> {
  const workspace = await requireGroupReader(db, actor, ws);
  requireWorkspaceAbility(workspace.abilities, 'manageGroups');
  return workspace;
}

async function requireGroup(db: Db, workspaceId: string, groupId: string, options: { lock?: boolean } = {}): Promise<GroupRow> {
  const group = await findGroup(db, workspaceId, groupId, options);
  if (!group) throw new AppError('not_found', 'No such group in this workspace.');
  return group;
}

async function requireFreeName(db: Db, workspaceId: string, name: string, exceptId?: string): Promise<void> {
  if (await findGroupNamed(db, workspaceId, name, exceptId)) throw invalid('body.name', 'A group with this name already exists in the workspace.');
}

/** Whether the unique index on group names refused a row (two people naming groups alike at once). */
const nameTakenRace = (e: unknown) => (e as { code?: string; constraint?: string })?.code === '23505';

export async function listGroups(db: Db, actor: Actor, ws: string): Promise<TGroup[]> {
  const workspace = await requireGroupReader(db, actor, ws);
  return (await findGroups(db, workspace.id)).map(present);
}

export async function createGroup(db: Db, actor: Actor, ws: string, name: string): Promise<TGroup> {
  try {
    return await inTransaction(db, async (tx) => {
      const workspace = await requireGroupManager(tx, actor, ws);
      await requireFreeName(tx, workspace.id, name);
      const id = await insertGroup(tx, { workspaceId: workspace.id, name, by: actor.user.id });
      await record(tx, actor, { workspaceId: workspace.id, action: 'group.created', itemId: null, data: { groupId: id, name } });
      return present((await findGroup(tx, workspace.id, id))!);
    });
  } catch (e) {
    if (nameTakenRace(e)) throw invalid('body.name', 'A group with this name already exists in the workspace.');
    throw e;
  }
}

export async function renameGroup(db: Db, actor: Actor, ws: string, groupId: string, name: string): Promise<TGroup> {
  try {
    return await inTransaction(db, async (tx) => {
      const workspace = await requireGroupManager(tx, actor, ws);
      const group = await requireGroup(tx, workspace.id, groupId, { lock: true });
      if (group.name === name) return present(group);
      await requireFreeName(tx, workspace.id, name, group.id);
      await renameGroupRow(tx, group.id, name);
      await record(tx, actor, { workspaceId: workspace.id, action: 'group.renamed', itemId: null, data: { groupId: group.id, from: group.name, to: name } });
      return present({ ...group, name });
    });
  } catch (e) {
    if (nameTakenRace(e)) throw invalid('body.name', 'A group with this name already exists in the workspace.');
    throw e;
  }
}

/** Deletes a group: what was shared with it is withdrawn, and its people lose that access at once. */
export async function deleteGroup(db: Db, actor: Actor, ws: string, groupId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const workspace = await requireGroupManager(tx, actor, ws);
    const group = await requireGroup(tx, workspace.id, groupId, { lock: true });
    await deleteGroupRow(tx, group.id);
    await record(tx, actor, {
      workspaceId: workspace.id,
      action: 'group.deleted',
      itemId: null,
      data: { groupId: group.id, name: group.name, memberCount: Number(group.member_count) },
    });
  });
}

export async function listGroupMembers(db: Db, actor: Actor, ws: string, groupId: string): Promise<TGroupMember[]> {
  const workspace = await requireGroupReader(db, actor, ws);
  const group = await requireGroup(db, workspace.id, groupId);
  return (await findGroupMembers(db, group.id)).map(presentMember);
}

/** Adds people of the workspace (not guests) to a group; those already in it stay as they are. */
export async function addGroupMembers(db: Db, actor: Actor, ws: string, groupId: string, userIds: string[]): Promise<TGroupMember[]> {
  return inTransaction(db, async (tx) => {
    const workspace = await requireGroupManager(tx, actor, ws);
    const group = await requireGroup(tx, workspace.id, groupId, { lock: true });
    const wanted = [...new Set(userIds)];
    const groupable = await findGroupable(tx, workspace.id, wanted);
    const refused = wanted.findIndex((id) => !groupable.has(id));
    if (refused >= 0) throw invalid(`body.userIds.${userIds.indexOf(wanted[refused]!)}`, 'Only members of the workspace (not guests) can be in its groups.');
    for (const userId of await insertGroupMembers(tx, group, wanted, 'manual', actor.user.id)) {
      await record(tx, actor, {
        workspaceId: workspace.id,
        action: 'group.member_added',
        itemId: null,
        data: { groupId: group.id, name: group.name, userId, source: 'manual' },
      });
    }
    return (await findGroupMembers(tx, group.id)).map(presentMember);
  });
}

/** Takes someone out of a group: what was shared with the group is no longer theirs, at once (open documents close). */
export async function removeGroupMember(db: Db, actor: Actor, ws: string, groupId: string, userId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const workspace = await requireGroupManager(tx, actor, ws);
    const group = await requireGroup(tx, workspace.id, groupId, { lock: true });
    if (!(await deleteGroupMember(tx, group.id, userId))) throw new AppError('not_found', 'That person is not in this group.');
    await record(tx, actor, { workspaceId: workspace.id, action: 'group.member_removed', itemId: null, data: { groupId: group.id, name: group.name, userId } });
  });
}

/**
 * Someone leaving a workspace leaves its groups, each recorded (the foreign key to their
 * membership would take them out too, without a record). Run in the removing transaction.
 */
export async function leaveAllGroups(tx: Db, actor: Actor | null, workspaceId: string, userId: string): Promise<void> {
  for (const group of await deleteFromAllGroups(tx, workspaceId, userId)) {
    await record(tx, actor, {
      workspaceId,
      action: 'group.member_removed',
      itemId: null,
      data: { groupId: group.id, name: group.name, userId, reason: 'left_workspace' },
    });
  }
}

/**
 * Keeps a person's groups in step with their identity provider's groups claim, at sign-in: in
 * each workspace they are a member of (not a guest), they join the groups named in the claim
 * (names compared case folded) and leave those they joined through the claim that it no longer
 * names. Groups added by hand stay; no group or workspace is created. Recorded as Cabinet's own
 * changes (no actor).
 */
export async function syncIdpGroups(db: Db, userId: string, claim: readonly string[]): Promise<{ added: number; removed: number }> {
  const names = new Set(claim.map((n) => n.trim().toLowerCase()).filter(Boolean));
  return inTransaction(db, async (tx) => {
    let added = 0;
    let removed = 0;
    for (const place of await findGroupPlaces(tx, userId)) {
      const named = names.has(place.name.toLowerCase());
      const group = { id: place.group_id, workspace_id: place.workspace_id };
      if (named && place.source === null) {
        if ((await insertGroupMembers(tx, group, [userId], 'idp', null)).length > 0) {
          added++;
          await record(tx, null, {
            workspaceId: place.workspace_id,
            action: 'group.member_added',
            itemId: null,
            data: { groupId: place.group_id, name: place.name, userId, source: 'idp' },
          });
        }
      } else if (!named && place.source === 'idp') {
        if (await deleteGroupMember(tx, place.group_id, userId)) {
          removed++;
          await record(tx, null, {
            workspaceId: place.workspace_id,
            action: 'group.member_removed',
            itemId: null,
            data: { groupId: place.group_id, name: place.name, userId, source: 'idp' },
          });
        }
      }
    }
    return { added, removed };
  });
}

/** A group of the workspace, for sharing with it; undefined when the workspace has none such. */
export async function findGroupOf(db: Db, workspaceId: string, groupId: string): Promise<{ id: string; name: string } | undefined> {
  const group = await findGroup(db, workspaceId, groupId);
  return group && { id: group.id, name: group.name };
}
