/** Workspaces, their members, what each may do there (workspaces.policy.ts), and the room their files take (usage against quota). */
export { workspacesRoutes } from './workspaces.routes.ts';
export { addGuest, createWorkspace, getWorkspace, listWorkspaces, presentWorkspace, requireWorkspace } from './workspaces.service.ts';
export { requireWorkspaceAbility, workspaceAbilities } from './workspaces.policy.ts';
export {
  addUsage,
  findMembership,
  insertMembership,
  LIVE_MEMBERSHIP,
  lockWorkspaceRoom,
  memberWorkspaceQuery,
  mergeSettings,
  type MemberWorkspaceRow,
  type WorkspaceRole,
} from './workspaces.repo.ts';
