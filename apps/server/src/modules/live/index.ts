/** The browser's live stream of changes (Server-Sent Events), read from the activity record; and of notification notices alone. */
export { liveRoutes } from './live.routes.ts';
