/** Instance administration (/admin): the whole installation, for its administrators (ADR 0060). */
export { adminRoutes } from './admin.routes.ts';
