/** The settings the browser app reads before anyone signs in. */
export { configRoutes } from './config.routes.ts';
