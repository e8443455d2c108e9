import { authApi, ZEmail } from '@cabinet/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../infra/http/route.ts';
import { deriveKey, decrypt, sha256 } from '../../lib/crypto.ts';
import { clearSessionCookies, endSession, findSessionById, startSession } from '../sessions/index.ts';
import { insertAuthRequest, takeAuthRequest } from './auth-requests.repo.ts';
import { reportsSecondFactor } from './second-factor.ts';
import { SignInRefused, userForIdentity } from './sign-in.service.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { backchannelLogoutRoutes } from './backchannel-logout.ts';

const STATE_COOKIE = 'cabinet_auth_state';
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * Only a path on this site (no open redirect). The value is resolved as a browser would resolve it
 * (tabs and newlines dropped, backslashes read as slashes), so any spelling that lands on another
 * origin, now or once sent back as a Location, is refused; control characters are refused outright. Anything refused becomes `/`.
 */
export function safeReturnTo(value: unknown, publicUrl: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2000 || /\p{Cc}/u.test(value)) return '/';
  const origin = new URL(publicUrl).origin;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return '/';
  }
  // A path that resolves to `//host` (from `/.//host` or `/a/..//host`) would leave the site as a Location.
  // The browser's router matches paths whatever their case, so the sign-in pages are refused in any case.
  const path = url.pathname;
  const lower = path.toLowerCase();
  if (url.origin !== origin || path.startsWith('//') || lower.startsWith('/auth/') || lower.startsWith('/signin')) return '/';
  return path + url.search + url.hash;
}

/** Browser routes of the sign-in flow (redirects, not JSON). */
export async function authBrowserRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const failed = (reply: FastifyReply, error: string) => reply.redirect(`/signin?error=${encodeURIComponent(error)}`, 303);
  const cookieOptions = { path: '/auth/', httpOnly: true, sameSite: 'lax' as const, secure: ctx.env.secureCookies };

  const loginQuery = z.object({
    returnTo: z.string().optional(),
    signup: z.string().optional(),
    loginHint: z.string().optional(),
    fresh: z.string().optional(),
  });
  r.get('/auth/login', { schema: { hide: true, querystring: loginQuery } }, async (req, reply) => {
    // `signup=1` opens the provider's sign-up form; `loginHint` fills in its email field. A hint that is not an
    // email address is left out rather than refused: it only saves typing.
    const hint = ZEmail.safeParse(req.query.loginHint?.trim());
    let start;
    try {
      start = await ctx.rp.start({ signUp: req.query.signup === '1', loginHint: hint.success ? hint.data : undefined, fresh: req.query.fresh === '1' });
    } catch (error) {
      req.log.error({ err: error }, 'identity provider unreachable');
      return failed(reply, 'provider_unreachable');
    }
    await insertAuthRequest(ctx.db, {
      stateHash: sha256(start.state),
      nonce: start.nonce,
      codeVerifier: start.codeVerifier,
      returnTo: safeReturnTo(req.query.returnTo, ctx.env.PUBLIC_URL),
      expiresAt: new Date(Date.now() + SIGN_IN_WINDOW_MS),
    });
    // Binds the flow to this browser: a callback carrying someone else's state is refused.
    reply.setCookie(STATE_COOKIE, start.state, { ...cookieOptions, maxAge: SIGN_IN_WINDOW_MS / 1000 });
    return reply.redirect(start.url, 303);
  });

  r.get('/auth/callback', { schema: { hide: true } }, async (req: FastifyRequest, reply) => {
    const query = req.query as Record<string, string | undefined>;
    reply.clearCookie(STATE_COOKIE, cookieOptions);
    if (query.error) return failed(reply, query.error === 'access_denied' ? 'access_denied' : 'provider_error');
    const state = query.state;
    const bound = req.cookies[STATE_COOKIE];
    if (!state || !bound || bound !== state) return failed(reply, 'state_mismatch');
    const pending = await takeAuthRequest(ctx.db, sha256(state));
    if (!pending) return failed(reply, 'state_mismatch');
    let identity;
    try {
      const url = new URL(req.url, ctx.env.PUBLIC_URL);
      identity = await ctx.rp.finish(url, { state, nonce: pending.nonce, codeVerifier: pending.code_verifier });
    } catch (error) {
      req.log.warn({ err: error }, 'sign-in refused');
      return failed(reply, 'sign_in_failed');
    }
    // Where every sign-in must take two steps, one the provider does not say took a second is refused before anything is made of it.
    if (ctx.env.REQUIRE_TWO_STEP && !reportsSecondFactor(identity)) return failed(reply, 'two_step_required');
    let user;
    try {
      user = await userForIdentity(ctx, identity);
    } catch (error) {
      if (error instanceof SignInRefused) return failed(reply, error.reason);
      throw error;
    }
    await startSession(ctx, reply, {
      userId: user.id,
      userAgent: req.headers['user-agent'] ?? null,
      ip: req.ip,
      idToken: identity.idToken,
      refreshToken: identity.refreshToken,
      providerSid: identity.sessionId,
    });
    return reply.redirect(pending.return_to, 303);
  });

  await backchannelLogoutRoutes(app, ctx);
}

/** `POST /api/v1/auth/signout`: ends this session and answers where to send the browser to end the provider's. */
export async function authApiRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, authApi.signOut, async (req, reply) => {
    const actor = requireActor(req);
    let redirectUrl = '/signin';
    if (actor.sessionId) {
      const session = await findSessionById(ctx.db, actor.sessionId);
      await endSession(ctx, actor, actor.sessionId);
      clearSessionCookies(ctx, reply);
      const idToken = session?.id_token_sealed ? decrypt(deriveKey(ctx.env.SESSION_SECRET, 'provider-tokens'), session.id_token_sealed) : undefined;
      try {
        redirectUrl = (await ctx.rp.signOutUrl(idToken)) ?? redirectUrl;
      } catch (error) {
        req.log.warn({ err: error }, 'identity provider unreachable at sign-out');
      }
    }
    return { redirectUrl };
  });
}
