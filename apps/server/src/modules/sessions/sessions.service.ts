import { CSRF_COOKIE, type TSession } from '@cabinet/contracts';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { SessionRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { deriveKey, encrypt, hmac, randomToken, sha256 } from '../../lib/crypto.ts';
import { inTransaction, type Db } from '../../db/client.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { recordAccount, type AccountActor } from '../events/index.ts';
import { insertSession, listActiveSessions, revokeOtherSessions, revokeProviderSessions, revokeSession } from './sessions.repo.ts';

export const SESSION_COOKIE = 'cabinet_session';
const DAY = 24 * 3600 * 1000;

export const csrfTokenFor = (secret: string, sessionToken: string) => hmac(secret, `csrf:${sessionToken}`);

export function idleCutoff(ctx: AppContext, now = Date.now()): Date {
  return new Date(now - ctx.env.SESSION_IDLE_DAYS * DAY);
}

/** Starts a server-side session and sets its cookies: the HttpOnly session id and the readable CSRF token. */
export async function startSession(
  ctx: AppContext,
  reply: FastifyReply,
  s: {
    userId: string;
    userAgent: string | null;
    ip: string | null;
    idToken?: string | undefined;
    refreshToken?: string | undefined;
    /** The provider's session (the ID token's `sid`), which a back-channel logout names. */
    providerSid?: string | undefined;
  },
): Promise<SessionRow> {
  const token = randomToken();
  const key = deriveKey(ctx.env.SESSION_SECRET, 'provider-tokens');
  const expiresAt = new Date(Date.now() + ctx.env.SESSION_ABSOLUTE_DAYS * DAY);
  const session = await inTransaction(ctx.db, async (tx) => {
    const row = await insertSession(tx, {
      tokenHash: sha256(token),
      userId: s.userId,
      userAgent: s.userAgent?.slice(0, 500) ?? null,
      ip: s.ip,
      expiresAt,
      idTokenSealed: s.idToken ? encrypt(key, s.idToken) : null,
      refreshTokenSealed: s.refreshToken ? encrypt(key, s.refreshToken) : null,
      providerSid: s.providerSid?.slice(0, 500) ?? null,
    });
    await recordAccount(
      tx,
      { via: 'session', tokenId: null, ip: s.ip, userAgent: row.user_agent, clientId: null },
      { userId: s.userId, action: 'session.started', data: { sessionId: row.id } },
    );
    return row;
  });
  const base = { path: '/', sameSite: 'lax' as const, secure: ctx.env.secureCookies, expires: expiresAt };
  reply.setCookie(SESSION_COOKIE, token, { ...base, httpOnly: true });
  reply.setCookie(CSRF_COOKIE, csrfTokenFor(ctx.env.SESSION_SECRET, token), { ...base, httpOnly: false });
  return session;
}

export function clearSessionCookies(ctx: AppContext, reply: FastifyReply) {
  const base = { path: '/', sameSite: 'lax' as const, secure: ctx.env.secureCookies };
  reply.clearCookie(SESSION_COOKIE, { ...base, httpOnly: true });
  reply.clearCookie(CSRF_COOKIE, base);
}

export function presentSession(row: SessionRow, ctx: AppContext, currentId: string | null): TSession {
  const idleExpiry = new Date(row.last_used_at.getTime() + ctx.env.SESSION_IDLE_DAYS * DAY);
  return {
    id: row.id,
    userAgent: row.user_agent,
    ip: row.ip,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at.toISOString(),
    expiresAt: (idleExpiry < row.expires_at ? idleExpiry : row.expires_at).toISOString(),
    current: row.id === currentId,
  };
}

export async function listSessions(ctx: AppContext, userId: string, currentId: string | null): Promise<TSession[]> {
  return (await listActiveSessions(ctx.db, userId, idleCutoff(ctx))).map((r) => presentSession(r, ctx, currentId));
}

/** Ends one of the actor's sessions (signing out, or ending a session elsewhere), recorded as `session.ended`. */
export async function endSession(ctx: AppContext, actor: Actor, sessionId: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    if (!(await revokeSession(tx, actor.user.id, sessionId))) throw new AppError('not_found', 'No such session.');
    await recordAccount(tx, actor, { userId: actor.user.id, action: 'session.ended', data: { sessionId, current: sessionId === actor.sessionId } });
  });
}

/**
 * Ends every session of a user but `keepId` (the caller's own); recorded as one `session.ended`
 * naming how many, when there were any. `by`: who did it (null: Cabinet, after a password reset,
 * or an administrator's action, which the instance's audit names).
 */
export function endOtherSessions(db: Db, userId: string, keepId: string | null, by: AccountActor | null): Promise<number> {
  return inTransaction(db, async (tx) => {
    const ended = await revokeOtherSessions(tx, userId, keepId);
    if (ended > 0) await recordAccount(tx, by, { userId, action: 'session.ended', data: { others: ended } });
    return ended;
  });
}

/**
 * Ends the sessions a provider's back-channel logout names (ADR 0068): those signed in through its session `sid`, or
 * every session of its `subject`. Recorded as `session.ended` for each person, by Cabinet itself. Answers how many.
 */
export function endProviderSessions(db: Db, target: { issuer: string; subject: string | undefined; providerSid: string | undefined }): Promise<number> {
  return inTransaction(db, async (tx) => {
    const ended = await revokeProviderSessions(tx, target);
    const byUser = new Map<string, string[]>();
    for (const row of ended) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.id]);
    for (const [userId, sessionIds] of byUser) {
      await recordAccount(tx, null, { userId, action: 'session.ended', data: { sessionIds, by: 'provider' } });
    }
    return ended.length;
  });
}
