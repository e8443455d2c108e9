/** Signing in and out, and who is calling: what the rest of the server uses of the auth module. */
export { authApiRoutes, authBrowserRoutes } from './auth.routes.ts';
export { authenticator } from './authenticate.ts';
export { endSessionsOfIdentity, userForIdentity } from './sign-in.service.ts';
export { refreshEmailVerified } from './refresh-email-verified.ts';
