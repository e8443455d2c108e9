/** Account → Security's calls: the password and two-step sign-in of an account of the embedded provider. */
export { securityRoutes } from './security.routes.ts';
