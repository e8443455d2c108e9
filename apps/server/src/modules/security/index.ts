/** Account → Security's calls: the password, two-step sign-in and passkeys of an account of the embedded provider. */
export { securityRoutes } from './security.routes.ts';
export { resetTwoStep } from './security.service.ts';
