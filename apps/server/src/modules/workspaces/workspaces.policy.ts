import type { TWorkspaceAbilities, TWorkspaceAbility, TWorkspaceRole } from '@cabinet/contracts';
import { AppError } from '../../errors.ts';

/**
 * The one place that decides what someone may do in a workspace, by their role in it (PRODUCT.md
 * §6): the owner and admins run it (its people, groups, links, settings and audit log), members
 * work in it, a guest sees only what is shared with them, and only the owner hands it over. What
 * they may do with an item is items.policy.ts's. Nothing else compares workspace roles for what the
 * caller may do: services ask for an ability, and the workspace carries the caller's to the browser.
 */
export function workspaceAbilities(role: TWorkspaceRole): TWorkspaceAbilities {
  const runs = role === 'owner' || role === 'admin';
  const member = role !== 'guest';
  return {
    createInRoots: member,
    seeMembers: member,
    seeUsage: member,
    manageMembers: runs,
    manageGroups: runs,
    manageLinks: runs,
    changeSettings: runs,
    readAudit: runs,
    handOver: role === 'owner',
  };
}

/** Why each ability the server asks for is refused, in the caller's terms. */
const REFUSALS: Partial<Record<TWorkspaceAbility, string>> = {
  seeMembers: 'Guests cannot see the member list.',
  manageMembers: 'Only the owner and admins manage who is in the workspace.',
  manageGroups: 'Only the owner and admins manage groups.',
  manageLinks: "Only the owner and admins manage the workspace's links.",
  changeSettings: 'Only the owner and admins change how the workspace is searched.',
  readAudit: 'Only the owner and admins can read the audit log.',
  handOver: 'Only the owner can hand the workspace over.',
};

/** `forbidden` unless the abilities hold `ability`; `why` words the refusal when the call is about one part of it. */
export function requireWorkspaceAbility(abilities: TWorkspaceAbilities, ability: TWorkspaceAbility, why = REFUSALS[ability]): void {
  if (!abilities[ability]) throw new AppError('forbidden', why);
}
