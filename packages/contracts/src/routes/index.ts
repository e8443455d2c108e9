import { authApi, configApi, meApi, sessionsApi, tokensApi } from './account.ts';
import type { RouteDeclaration } from './define-route.ts';
import { commentsApi, documentsApi, grantsApi } from './documents.ts';
import { filesApi, uploadsApi } from './files.ts';
import { itemsApi } from './items.ts';
import { eventsApi, workspacesApi } from './workspaces.ts';

export * from './define-route.ts';
export { authApi, commentsApi, configApi, documentsApi, eventsApi, filesApi, grantsApi, itemsApi, meApi, sessionsApi, tokensApi, uploadsApi, workspacesApi };

/** Every route of `/api/v1`, for the server and the tests; the browser imports the areas it calls. */
export const allRoutes = (): RouteDeclaration[] =>
  [configApi, authApi, meApi, sessionsApi, tokensApi, workspacesApi, eventsApi, itemsApi, uploadsApi, filesApi, documentsApi, commentsApi, grantsApi].flatMap((area) => Object.values(area));
