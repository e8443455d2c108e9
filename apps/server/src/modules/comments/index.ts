/** Comment threads on documents. */
export { commentsRoutes } from './comments.routes.ts';
