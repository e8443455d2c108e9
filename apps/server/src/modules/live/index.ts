/** The browser's live stream of changes (Server-Sent Events), read from the activity record. */
export { liveRoutes } from './live.routes.ts';
