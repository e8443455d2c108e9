/** Reading the activity record: the workspace's audit log (with its CSV export), an item's history, and pruning by age (ADR 0033). */
export { activityRoutes } from './activity.routes.ts';
export { pruneActivity } from './activity.service.ts';
