/** Who is in a workspace: changing roles, handing the workspace over, removing people, invitations. */
export { teamRoutes } from './team.routes.ts';
