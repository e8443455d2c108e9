import type { TMember, TWorkspace, TWorkspaceRole } from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { record } from '../events/index.ts';
import { leaveAllGroups } from '../groups/index.ts';
import { getWorkspace } from '../workspaces/index.ts';
import { deleteGrantsTo, deleteMembership, handOverHome, lockMember, setRole, type MemberRow } from './team.repo.ts';

const invalid = (path: string, message: string) => new AppError('invalid_input', message, { fields: [{ path, message }] });

/** The workspace, for someone who manages its people (owners and admins); members and guests are refused, anyone else does not see it. */
export async function requireManager(db: Db, actor: Actor, ws: string): Promise<TWorkspace> {
  const workspace = await getWorkspace(db, actor.user, ws);
  if (workspace.role !== 'owner' && workspace.role !== 'admin') throw new AppError('forbidden', 'Only the owner and admins manage who is in the workspace.');
  return workspace;
}

const present = (m: MemberRow, role: TWorkspaceRole = m.role): TMember => ({ userId: m.user_id, name: m.name, email: m.email, role });

/**
 * Changes someone's role. Admins may not change an owner nor make one. `owner` for another member
 * hands the workspace over: the owner becomes an admin in the same transaction, so there is always
 * exactly one owner; the owner cannot otherwise step down.
 */
export async function changeRole(db: Db, actor: Actor, ws: string, userId: string, role: TWorkspaceRole): Promise<TMember> {
  return inTransaction(db, async (tx) => {
    const workspace = await requireManager(tx, actor, ws);
    const target = await lockMember(tx, workspace.id, userId);
    if (!target) throw new AppError('not_found', 'That person is not in this workspace.');
    if (target.role === role) return present(target);
    const byOwner = workspace.role === 'owner';
    if (target.role === 'owner') {
      throw new AppError('forbidden', byOwner ? 'There is always one owner: hand the workspace to another member to stop being its owner.' : 'Only the owner can change their own role.');
    }
    if (role === 'owner') {
      if (!byOwner) throw new AppError('forbidden', 'Only the owner can hand the workspace over.');
      if (target.role === 'guest') throw new AppError('forbidden', 'Make a guest a member before handing the workspace to them.');
      await lockMember(tx, workspace.id, actor.user.id);
      await setRole(tx, workspace.id, actor.user.id, 'admin');
      await record(tx, actor, { workspaceId: workspace.id, action: 'member.role_changed', itemId: null, data: { userId: actor.user.id, from: 'owner', to: 'admin' } });
    }
    await setRole(tx, workspace.id, userId, role);
    await record(tx, actor, { workspaceId: workspace.id, action: 'member.role_changed', itemId: null, data: { userId, from: target.role, to: role } });
    return present(target, role);
  });
}

/**
 * Removes someone from the workspace. Their "My files", with everything in it, becomes a folder
 * "<Name>'s files" in the recipient's "My files": nothing is deleted. What was shared with them
 * there is withdrawn, and they leave its groups. The owner cannot be removed (they hand the workspace over first).
 */
export async function removeMember(db: Db, actor: Actor, ws: string, userId: string, filesTo: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const workspace = await requireManager(tx, actor, ws);
    const target = await lockMember(tx, workspace.id, userId);
    if (!target) throw new AppError('not_found', 'That person is not in this workspace.');
    if (target.role === 'owner') throw new AppError('forbidden', 'The owner cannot be removed: they hand the workspace to someone else first.');
    if (filesTo === userId) throw invalid('query.filesTo', 'Choose someone other than the person being removed to receive their files.');
    const recipient = await lockMember(tx, workspace.id, filesTo);
    if (!recipient || recipient.role === 'guest' || !recipient.home_item_id) throw invalid('query.filesTo', 'Choose a member of this workspace (not a guest) to receive their files.');
    let folder: { id: string; name: string } | null = null;
    if (target.home_item_id) {
      const name = await handOverHome(tx, target.home_item_id, target.user_id, recipient.home_item_id, recipient.user_id, `${target.name.slice(0, 200)}'s files`);
      folder = { id: target.home_item_id, name };
    }
    await deleteGrantsTo(tx, workspace.id, userId);
    await leaveAllGroups(tx, actor, workspace.id, userId);
    await deleteMembership(tx, workspace.id, userId);
    await record(tx, actor, { workspaceId: workspace.id, action: 'member.removed', itemId: null, data: { userId, role: target.role, name: target.name, filesTo, folderId: folder?.id ?? null } });
    if (folder) {
      // The recipient's "My files" gained a folder: their listing hears of it.
      await record(tx, actor, { workspaceId: workspace.id, action: 'item.moved', itemId: folder.id, parentIds: [recipient.home_item_id], data: { name: folder.name } });
    }
  });
}
