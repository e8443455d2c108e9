import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/client.ts';
import { LogoutTokenRefused } from '../../infra/oidc/relying-party.ts';
import { endProviderSessions } from '../sessions/index.ts';
import { claimLogoutToken } from './logout-tokens.repo.ts';

/** A logout token is a few hundred bytes to a few kilobytes; anything far bigger is not one. */
const BODY_LIMIT = 64 * 1024;

/**
 * `POST /auth/backchannel-logout` (OpenID Connect Back-Channel Logout 1.0): the provider tells Cabinet that a person's
 * session with it ended, with a signed logout token; Cabinet ends the sessions signed in through it (ADR 0068).
 * 200 when done (also when no session of Cabinet's matched), 400 with the specification's JSON error otherwise.
 * Called server to server: no cookie, CSRF token or Origin is involved, the token's signature is the proof.
 */
export async function backchannelLogoutRoutes(app: FastifyInstance, ctx: AppContext) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
      done(null, new URLSearchParams(body as string));
    });
    // Any other body is read as no form at all, and answered as the specification asks (400, JSON).
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    scope.post('/auth/backchannel-logout', { schema: { hide: true } }, async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const refuse = (description: string) => reply.code(400).send({ error: 'invalid_request', error_description: description });
      const form = req.body instanceof URLSearchParams ? req.body : undefined;
      const token = form?.getAll('logout_token');
      if (!token || token.length !== 1 || !token[0]) return refuse('expected one logout_token, form-encoded');
      let logout;
      try {
        logout = await ctx.rp.verifyLogoutToken(token[0]);
      } catch (error) {
        if (error instanceof LogoutTokenRefused) {
          req.log.warn({ reason: error.message }, 'logout token refused');
          return refuse(error.message);
        }
        req.log.error({ err: error }, 'identity provider unreachable at back-channel logout');
        return refuse('the identity provider could not be reached to check the logout token');
      }
      // The token is taken and its sessions ended together: a provider that retries after a failure here is not refused.
      const ended = await inTransaction(ctx.db, async (tx) => {
        if (!(await claimLogoutToken(tx, logout.jti, logout.acceptedUntil))) return undefined;
        return endProviderSessions(tx, { issuer: logout.issuer, subject: logout.subject, providerSid: logout.sessionId });
      });
      if (ended === undefined) {
        req.log.warn('logout token replayed');
        return refuse('this logout token was already used');
      }
      req.log.info({ ended }, 'back-channel logout');
      return reply.code(200).send();
    });
  });
}
