/** The settings the browser app reads before anyone signs in. */
export { CABINET_VERSION, configRoutes } from './config.routes.ts';
