import { CLIENT_ID_HEADER, CSRF_HEADER, isAppPassword, type TTokenScope } from '@cabinet/contracts';
import type { IncomingHttpHeaders } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { safeEqual, sha256 } from '../../lib/crypto.ts';
import { csrfTokenFor, findSessionWithUser, idleCutoff, SESSION_COOKIE, touchSession } from '../sessions/index.ts';
import { findApiTokenWithUser, noteTokenUse, revocationsNoted } from '../tokens/index.ts';
import type { Actor } from '../../infra/http/actor.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Recording every request would write on every read; once a minute is enough for "last used".
const TOUCH_INTERVAL_MS = 60_000;
/** How long a WebDAV sign-in is taken again without reading its password again, and how many are kept at most. */
const SIGN_IN_KEPT_MS = 1_000;
const SIGN_INS_KEPT = 1_000;

/**
 * Resolves the caller from `Authorization: Bearer` or the session cookie. Cookie-borne
 * state changes must also carry the CSRF header and come from Cabinet's own origin.
 */
/** What authentication needs of a request: an HTTP call, or the upgrade of the collaboration socket. */
interface Caller {
  method: string;
  headers: IncomingHttpHeaders;
  ip: string;
}

const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** Where a call came from, as the activity record keeps it (bounded: headers are the caller's to fill). */
function whereFrom(req: Caller): Pick<Actor, 'ip' | 'userAgent' | 'clientId'> {
  const agent = req.headers['user-agent'];
  const client = req.headers[CLIENT_ID_HEADER];
  return {
    ip: req.ip,
    userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null,
    clientId: typeof client === 'string' && CLIENT_ID.test(client) ? client : null,
  };
}

export function authenticator(ctx: AppContext) {
  const publicOrigin = new URL(ctx.env.PUBLIC_URL).origin;

  /**
   * The person a live token acts for, with the token's scopes, its use noted. What the scopes let it do is the
   * caller's to decide: the API's rules are in fromToken.
   */
  async function tokenActor(req: Caller, token: string, lookup = (hash: string) => findApiTokenWithUser(ctx.db, hash)): Promise<Actor> {
    const found = await lookup(sha256(token));
    const row = found?.token;
    if (!row || row.revoked_at || row.expires_at <= new Date()) throw new AppError('unauthenticated', 'The API token is invalid, expired or revoked.');
    const user = found.user;
    if (user.status !== 'active') throw new AppError('unauthenticated', 'The API token is invalid, expired or revoked.');
    const actor: Actor = { user, via: 'token', sessionId: null, tokenId: row.id, scopes: row.scopes as TTokenScope[], ...whereFrom(req) };
    // Its use is recorded when "last used" is touched, at most once an hour (noteTokenUse).
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > TOUCH_INTERVAL_MS) {
      // Noted on the row too, which a kept sign-in reads again within its second.
      row.last_used_at = new Date();
      await noteTokenUse(ctx.db, actor, user.id, row.id);
    }
    return actor;
  }

  /**
   * WebDAV's sign-ins, kept a second per password (ADR 0075): a client sends several requests a second (rclone: three a
   * small file), each of which would look its password up again. One is taken again only within the second after it
   * was read and while this process has revoked no token since; a revocation by another instance holds here within
   * that second, as a request it had just beaten would have.
   */
  const signIns = new Map<string, { found: Awaited<ReturnType<typeof findApiTokenWithUser>>; at: number; revocations: number }>();
  async function keptSignIn(hash: string) {
    const at = Date.now();
    const kept = signIns.get(hash);
    if (kept && at - kept.at <= SIGN_IN_KEPT_MS && kept.revocations === revocationsNoted()) return kept.found;
    const revocations = revocationsNoted();
    const found = await findApiTokenWithUser(ctx.db, hash);
    if (found) {
      if (signIns.size >= SIGN_INS_KEPT) signIns.clear();
      signIns.set(hash, { found, at, revocations });
    }
    return found;
  }

  /**
   * A caller of the API or the collaboration socket by token. `write`: the route changes something, which a token may
   * do only with the write scope (any API token may read). An app password signs in WebDAV clients only.
   */
  async function fromToken(req: Caller, token: string, write: boolean): Promise<Actor> {
    const actor = await tokenActor(req, token);
    const { scopes } = actor;
    if (!scopes.includes('read') && !scopes.includes('write'))
      throw new AppError('forbidden', 'This is an app password: it signs in WebDAV clients at /dav/ only. Use an API token for the API.');
    if (write && !scopes.includes('write')) throw new AppError('forbidden', 'This API token may only read.');
    return actor;
  }

  async function fromSession(req: Caller, token: string): Promise<Actor> {
    const found = await findSessionWithUser(ctx.db, sha256(token));
    const session = found?.session;
    if (!session || session.revoked_at) throw new AppError('unauthenticated');
    const now = Date.now();
    if (session.expires_at.getTime() <= now || session.last_used_at <= idleCutoff(ctx, now)) throw new AppError('session_expired');
    const user = found.user;
    if (user.status !== 'active') throw new AppError('unauthenticated');
    if (!SAFE_METHODS.has(req.method)) {
      const origin = req.headers.origin;
      if (origin && origin !== publicOrigin) throw new AppError('forbidden', 'Cross-site requests are refused.');
      if (!origin && req.headers['sec-fetch-site'] === 'cross-site') throw new AppError('forbidden', 'Cross-site requests are refused.');
      const header = req.headers[CSRF_HEADER];
      if (typeof header !== 'string' || !safeEqual(header, csrfTokenFor(ctx.env.SESSION_SECRET, token))) {
        throw new AppError('forbidden', 'The request is missing its CSRF token. Reload the page and try again.');
      }
    }
    if (now - session.last_used_at.getTime() > TOUCH_INTERVAL_MS) await touchSession(ctx.db, session.id, req.ip);
    return { user, via: 'session', sessionId: session.id, tokenId: null, scopes: ['read', 'write'], ...whereFrom(req) };
  }

  /**
   * The caller of the collaboration socket: the API token a script sends as its Hocuspocus token,
   * or else the browser's session cookie, which only counts from Cabinet's own origin (a cookie
   * alone would let any site open a socket in the visitor's name).
   */
  async function socketActor(req: Caller, token: string): Promise<Actor> {
    // A browser sends `session`, or `session:<its tab's client id>` so that its own saves are not sent back to it.
    const [kind, client] = token.split(':', 2);
    if (token && kind !== SESSION_TOKEN) return fromToken(req, token, false);
    if (req.headers.origin !== publicOrigin) throw new AppError('forbidden', 'Connections from other sites are refused.');
    const cookie = fastifyCookie.parse(req.headers.cookie ?? '')[SESSION_COOKIE];
    if (!cookie) throw new AppError('unauthenticated');
    const actor = await fromSession(req, cookie);
    return client && CLIENT_ID.test(client) ? { ...actor, clientId: client } : actor;
  }

  /** Who may call a route is its declaration's `auth` (a route without one is for signed-in callers). */
  async function authenticate(req: FastifyRequest): Promise<void> {
    req.actor = null;
    const auth = req.routeOptions.config.route?.auth ?? 'write';
    const open = auth === 'none';
    const authorization = req.headers.authorization;
    if (authorization) {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization);
      if (!match) throw new AppError('unauthenticated', 'Use "Authorization: Bearer <api token>".');
      req.actor = await fromToken(req, match[1]!, auth === 'write');
      return;
    }
    const cookie = req.cookies[SESSION_COOKIE];
    if (cookie) {
      try {
        req.actor = await fromSession(req, cookie);
      } catch (error) {
        // A public route still answers to a caller whose cookie went stale.
        if (!open) throw error;
      }
      return;
    }
    if (!open) throw new AppError('unauthenticated');
  }

  /**
   * The caller of WebDAV (`/dav/`): HTTP Basic with any user name and, as the password, an app password (or an API
   * token, with its scopes).
   */
  async function davActor(req: Caller): Promise<Actor> {
    const basic = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(req.headers.authorization ?? '');
    if (!basic) throw new AppError('unauthenticated', 'Sign in with your email address and an app password (Account → App passwords).');
    const credentials = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = credentials.indexOf(':');
    const actor = await tokenActor(req, colon < 0 ? '' : credentials.slice(colon + 1), keptSignIn);
    // An app password reads and writes there; an API token keeps its own scopes.
    return isAppPassword(actor.scopes) ? { ...actor, scopes: ['read', 'write'] } : actor;
  }

  return { authenticate, socketActor, davActor };
}

/** The token a browser sends on the collaboration socket: "use my session cookie" (followed by `:` and its tab's client id). */
export const SESSION_TOKEN = 'session';
