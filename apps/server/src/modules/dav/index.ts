/** WebDAV at /dav/ (ADR 0067): the workspaces' files and documents for desktop and command-line clients. */
export { davRoutes } from './dav.routes.ts';
export { lockRoutes } from './lock.routes.ts';
