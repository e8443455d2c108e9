/** Groups of a workspace's people, shared with as one; kept in step with the identity provider's groups claim. */
export { groupsRoutes } from './groups.routes.ts';
export { findGroupOf, leaveAllGroups, syncIdpGroups } from './groups.service.ts';
export { findGroupMembers } from './groups.repo.ts';
