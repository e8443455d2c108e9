/** API tokens for scripts and other programs. */
export { tokensRoutes } from './tokens.routes.ts';
export { createApiToken } from './tokens.service.ts';
export { findApiTokenWithUser, touchApiToken } from './tokens.repo.ts';
