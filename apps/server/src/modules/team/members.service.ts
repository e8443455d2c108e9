import { ZItemName, type TMember, type TWorkspace, type TWorkspaceRole } from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { record } from '../events/index.ts';
import { leaveAllGroups } from '../groups/index.ts';
import { deleteEmptyHome, findActiveSibling, handOverHome, handOverTrash, hasChildren, suggestFreeName } from '../items/index.ts';
import { deleteGrantsTo } from '../sharing/index.ts';
import { requireWorkspace, requireWorkspaceAbility, workspaceAbilities } from '../workspaces/index.ts';
import { deleteMembership, lockMembers, revokeInvitationsBy, setRole, type MemberRow } from './team.repo.ts';

const invalid = (path: string, message: string) => new AppError('invalid_input', message, { fields: [{ path, message }] });

/**
 * Locks the caller's membership and the others', in user id order, and checks again from the locked
 * rows that the caller still manages the workspace: a change that raced ahead of this one (a
 * hand-over, a demotion) is seen, not overwritten.
 */
async function lockWithCaller(tx: Db, actor: Actor, workspace: TWorkspace, others: string[]): Promise<{ caller: MemberRow; rows: Map<string, MemberRow> }> {
  const rows = await lockMembers(tx, workspace.id, [actor.user.id, ...others]);
  const caller = rows.get(actor.user.id);
  if (!caller) throw new AppError('not_found');
  requireWorkspaceAbility(workspaceAbilities(caller.role), 'manageMembers');
  return { caller, rows };
}

/** Someone who no longer manages the workspace's people cannot go on inviting people with the invitations they made. */
async function revokeInvitationsOf(tx: Db, actor: Actor, workspaceId: string, userId: string): Promise<void> {
  for (const i of await revokeInvitationsBy(tx, workspaceId, userId)) {
    await record(tx, actor, {
      workspaceId,
      action: 'invitation.revoked',
      itemId: null,
      data: { invitationId: i.id, email: i.email, role: i.role, reason: 'maker_left' },
    });
  }
}

const present = (m: MemberRow, role: TWorkspaceRole = m.role): TMember => ({ userId: m.user_id, name: m.name, email: m.email, role });

/**
 * Changes someone's role. Admins may not change an owner nor make one. `owner` for another member
 * hands the workspace over: the owner becomes an admin in the same transaction, so there is always
 * exactly one owner; the owner cannot otherwise step down. Someone who no longer manages the
 * workspace's people loses the pending invitations they made.
 */
export async function changeRole(db: Db, actor: Actor, ws: string, userId: string, role: TWorkspaceRole): Promise<TMember> {
  return inTransaction(db, async (tx) => {
    const workspace = await requireWorkspace(tx, actor.user, ws, 'manageMembers');
    const { caller, rows } = await lockWithCaller(tx, actor, workspace, [userId]);
    const target = rows.get(userId);
    if (!target) throw new AppError('not_found', 'That person is not in this workspace.');
    if (target.role === role) return present(target);
    const may = workspaceAbilities(caller.role);
    // The owner's role changes only by handing the workspace over, which only they may do.
    if (target.role === 'owner') {
      throw new AppError(
        'forbidden',
        may.handOver ? 'There is always one owner: hand the workspace to another member to stop being its owner.' : 'Only the owner can change their own role.',
      );
    }
    if (role === 'owner') {
      requireWorkspaceAbility(may, 'handOver');
      if (target.role === 'guest') throw new AppError('forbidden', 'Make a guest a member before handing the workspace to them.');
      if (target.status !== 'active') throw invalid('body.role', 'This account is deactivated: it cannot be made the owner.');
      await setRole(tx, workspace.id, actor.user.id, 'admin');
      await record(tx, actor, {
        workspaceId: workspace.id,
        action: 'member.role_changed',
        itemId: null,
        data: { userId: actor.user.id, from: 'owner', to: 'admin' },
      });
    }
    await setRole(tx, workspace.id, userId, role);
    if (workspaceAbilities(target.role).manageMembers && !workspaceAbilities(role).manageMembers) await revokeInvitationsOf(tx, actor, workspace.id, userId);
    // Guests are in no group (ADR 0031): made a guest, they leave them all, so nothing a group was given comes back with a later promotion.
    if (role === 'guest' && target.role !== 'guest') await leaveAllGroups(tx, actor, workspace.id, userId);
    await record(tx, actor, { workspaceId: workspace.id, action: 'member.role_changed', itemId: null, data: { userId, from: target.role, to: role } });
    return present(target, role);
  });
}

/** "<Name>'s files", made a valid item name: no slashes or control characters, no edge spaces, at most 255 bytes (cut at a whole character). */
export function filesFolderName(personName: string): string {
  const suffix = "'s files";
  let base = personName
    .normalize('NFC')
    .replace(/\//g, '-')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .trim();
  const encoder = new TextEncoder();
  // Room for the suffix and a " (NN)" a clash may add.
  const budget = 255 - encoder.encode(suffix).length - 12;
  if (encoder.encode(base).length > budget) {
    let cut = '';
    for (const ch of base) {
      if (encoder.encode(cut + ch).length > budget) break;
      cut += ch;
    }
    base = cut.trim();
  }
  const name = `${base || 'Former member'}${suffix}`;
  const checked = ZItemName.safeParse(name);
  return checked.success ? checked.data : `Former member${suffix}`;
}

/** A name free among the folder's active children (as the unique index compares them: SQL lower()). */
async function freeName(tx: Db, parentId: string, name: string): Promise<string> {
  if (!(await findActiveSibling(tx, parentId, name))) return name;
  for (let n = 2; n < 1000; n++) {
    const candidate = `${name} (${n})`;
    if (!(await findActiveSibling(tx, parentId, candidate))) return candidate;
  }
  return suggestFreeName(tx, parentId, name);
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * Removes someone from the workspace. Their "My files", with everything in it, becomes a folder
 * "<Name>'s files" in the recipient's "My files": nothing is deleted (an empty one is not handed
 * over). What they put in the trash elsewhere is the recipient's to restore. What was shared with
 * them there is withdrawn, they leave its groups, and the invitations they made are revoked. The
 * owner cannot be removed (they hand the workspace over first). The recipient must be an active member.
 */
export async function removeMember(db: Db, actor: Actor, ws: string, userId: string, filesTo: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await removeOnce(db, actor, ws, userId, filesTo);
    } catch (error) {
      // Someone made a folder with the chosen name at the same moment: choose again.
      if (!isUniqueViolation(error)) throw error;
      if (attempt >= 2) throw new AppError('name_conflict', 'A folder with the same name appeared meanwhile. Try again.');
    }
  }
}

async function removeOnce(db: Db, actor: Actor, ws: string, userId: string, filesTo: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const workspace = await requireWorkspace(tx, actor.user, ws, 'manageMembers');
    const { rows } = await lockWithCaller(tx, actor, workspace, [userId, filesTo]);
    const target = rows.get(userId);
    if (!target) throw new AppError('not_found', 'That person is not in this workspace.');
    if (target.role === 'owner') throw new AppError('forbidden', 'The owner cannot be removed: they hand the workspace to someone else first.');
    if (filesTo === userId) throw invalid('query.filesTo', 'Choose someone other than the person being removed to receive their files.');
    const recipient = rows.get(filesTo);
    if (!recipient || recipient.role === 'guest' || !recipient.home_item_id)
      throw invalid('query.filesTo', 'Choose a member of this workspace (not a guest) to receive their files.');
    if (recipient.status !== 'active') throw invalid('query.filesTo', 'This account is deactivated: choose an active member to receive the files.');
    let folder: { id: string; name: string } | null = null;
    const emptyHome = target.home_item_id && !(await hasChildren(tx, target.home_item_id)) ? target.home_item_id : null;
    if (target.home_item_id && !emptyHome) {
      const name = await freeName(tx, recipient.home_item_id, filesFolderName(target.name));
      await handOverHome(tx, target.home_item_id, target.user_id, recipient.home_item_id, recipient.user_id, name);
      folder = { id: target.home_item_id, name };
    }
    await handOverTrash(tx, workspace.id, userId, filesTo);
    await deleteGrantsTo(tx, workspace.id, userId);
    await leaveAllGroups(tx, actor, workspace.id, userId);
    await revokeInvitationsOf(tx, actor, workspace.id, userId);
    await deleteMembership(tx, workspace.id, userId);
    if (emptyHome) await deleteEmptyHome(tx, emptyHome);
    await record(tx, actor, {
      workspaceId: workspace.id,
      action: 'member.removed',
      itemId: null,
      data: { userId, role: target.role, name: target.name, filesTo, folderId: folder?.id ?? null },
    });
    if (folder) {
      // The recipient's "My files" gained a folder: their listing hears of it.
      await record(tx, actor, {
        workspaceId: workspace.id,
        action: 'item.moved',
        itemId: folder.id,
        parentIds: [recipient.home_item_id],
        data: { name: folder.name },
      });
    }
  });
}
