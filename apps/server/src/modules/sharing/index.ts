/** Giving people access to items. */
export { grantsRoutes } from './grants.routes.ts';
export { deleteGrantsTo } from './grants.repo.ts';
export { listSharedWithMe } from './grants.service.ts';
