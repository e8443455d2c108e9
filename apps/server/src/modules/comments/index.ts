/** Comment threads on documents. */
export { commentsRoutes } from './comments.routes.ts';
export { findThreadAuthorsBefore } from './comments.repo.ts';
