import type { TWorkspaceAbilities, TWorkspaceAbility, TWorkspaceRole } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { requireWorkspaceAbility, workspaceAbilities } from './workspaces.policy.ts';

const NONE: TWorkspaceAbilities = {
  createInRoots: false,
  seeMembers: false,
  seeUsage: false,
  manageMembers: false,
  manageGroups: false,
  manageLinks: false,
  changeSettings: false,
  readAudit: false,
  handOver: false,
};
const only = (...names: TWorkspaceAbility[]): TWorkspaceAbilities => ({ ...NONE, ...Object.fromEntries(names.map((n) => [n, true])) });
const MEMBER = ['createInRoots', 'seeMembers', 'seeUsage'] as const;
const ADMIN = [...MEMBER, 'manageMembers', 'manageGroups', 'manageLinks', 'changeSettings', 'readAudit'] as const;

describe('workspace abilities', () => {
  // PRODUCT.md §6's workspace roles, written out.
  it('follow the product: the owner hands over, admins run the workspace, members work in it, guests only see what is shared', () => {
    expect(workspaceAbilities('owner')).toEqual(only(...ADMIN, 'handOver'));
    expect(workspaceAbilities('admin')).toEqual(only(...ADMIN));
    expect(workspaceAbilities('member')).toEqual(only(...MEMBER));
    expect(workspaceAbilities('guest')).toEqual(NONE);
  });

  it('never give a stronger role less', () => {
    const roles: TWorkspaceRole[] = ['guest', 'member', 'admin', 'owner'];
    for (let i = 1; i < roles.length; i++) {
      const weaker = workspaceAbilities(roles[i - 1]!);
      const stronger = workspaceAbilities(roles[i]!);
      for (const name of Object.keys(NONE) as TWorkspaceAbility[]) if (weaker[name]) expect(stronger[name], `${roles[i]} ${name}`).toBe(true);
    }
  });

  it('refuse a missing ability as forbidden, saying who may', () => {
    expect(() => requireWorkspaceAbility(workspaceAbilities('admin'), 'manageGroups')).not.toThrow();
    expect(() => requireWorkspaceAbility(workspaceAbilities('member'), 'manageGroups')).toThrow(
      expect.objectContaining({ code: 'forbidden', message: 'Only the owner and admins manage groups.' }),
    );
    expect(() => requireWorkspaceAbility(workspaceAbilities('guest'), 'seeMembers', 'Guests cannot see the groups of the workspace.')).toThrow(
      expect.objectContaining({ code: 'forbidden', message: 'Guests cannot see the groups of the workspace.' }),
    );
  });
});
