/** Workspaces, their members, and the room their files take (usage against quota). */
export { workspacesRoutes } from './workspaces.routes.ts';
export { addGuest, createWorkspace, getWorkspace } from './workspaces.service.ts';
export { addUsage, findMembership, insertMembership, LIVE_MEMBERSHIP, lockWorkspaceRoom, mergeSettings, type WorkspaceRole } from './workspaces.repo.ts';
