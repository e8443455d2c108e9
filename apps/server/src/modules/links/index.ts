/** Public links: made and managed by an item's managers under the workspace's policy, opened by visitors without an account (ADR 0032). */
export { linksRoutes } from './links.routes.ts';
