import { activityApi } from './activity.ts';
import { adminApi } from './admin.ts';
import { configApi } from './config.ts';
import { conversionsApi } from './conversions.ts';
import type { RouteDeclaration } from './define-route.ts';
import { commentsApi, documentsApi } from './documents.ts';
import { filesApi } from './files.ts';
import { grantsApi } from './grants.ts';
import { groupsApi } from './groups.ts';
import { itemsApi } from './items.ts';
import { linksApi, publicLinksApi } from './links.ts';
import { authApi, meApi } from './me.ts';
import { notificationsApi } from './notifications.ts';
import { searchApi } from './search.ts';
import { securityApi } from './security.ts';
import { sessionsApi, tokensApi } from './sessions.ts';
import { invitationsApi, membersApi } from './team.ts';
import { uploadsApi } from './uploads.ts';
import { versionsApi } from './versions.ts';
import { eventsApi, workspacesApi } from './workspaces.ts';

export * from './define-route.ts';
export {
  activityApi,
  adminApi,
  authApi,
  commentsApi,
  configApi,
  conversionsApi,
  documentsApi,
  eventsApi,
  filesApi,
  grantsApi,
  groupsApi,
  invitationsApi,
  itemsApi,
  linksApi,
  meApi,
  membersApi,
  notificationsApi,
  publicLinksApi,
  searchApi,
  securityApi,
  sessionsApi,
  tokensApi,
  uploadsApi,
  versionsApi,
  workspacesApi,
};

// One file per area, so that a page's bundle holds the declarations it calls and not its neighbours'.
/** Every area of `/api/v1` by the name it is imported by (`itemsApi`), for the server and the tests; the browser imports the areas it calls. */
export const routeAreas = {
  configApi,
  authApi,
  meApi,
  sessionsApi,
  tokensApi,
  securityApi,
  workspacesApi,
  eventsApi,
  itemsApi,
  uploadsApi,
  filesApi,
  versionsApi,
  documentsApi,
  commentsApi,
  grantsApi,
  membersApi,
  invitationsApi,
  groupsApi,
  activityApi,
  linksApi,
  publicLinksApi,
  notificationsApi,
  searchApi,
  conversionsApi,
  adminApi,
};

/** Every route of `/api/v1`. */
export const allRoutes = (): RouteDeclaration[] => Object.values(routeAreas).flatMap((area): RouteDeclaration[] => Object.values(area));
