/** Workspaces, their members, and the room their files take (usage against quota). */
export { workspacesRoutes } from './workspaces.routes.ts';
export { addGuest, createWorkspace, getWorkspace } from './workspaces.service.ts';
export { addUsage, LIVE_MEMBERSHIP, lockWorkspaceRoom } from './workspaces.repo.ts';
