/** API tokens for scripts and other programs. */
export { tokensRoutes } from './tokens.routes.ts';
export { createApiToken, noteRevocation, noteTokenUse, revocationsNoted, revokeAllApiTokensOf, TOKEN_USE_RECORDED_EVERY_MS } from './tokens.service.ts';
export { findApiTokenWithUser } from './tokens.repo.ts';
