import { ZIdParams, ZRevokeOthersResult, ZSessionList } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../auth/actor.ts';
import { clearSessionCookies, endOtherSessions, endSession, listSessions } from './sessions.service.ts';

export async function sessionsRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/sessions', { schema: { tags: ['sessions'], summary: 'List your active sessions', response: { 200: ZSessionList } } }, async (req) => {
    const actor = requireActor(req);
    return { items: await listSessions(ctx, actor.user.id, actor.sessionId), nextCursor: null };
  });
  r.delete('/sessions/:id', { schema: { tags: ['sessions'], summary: 'Sign out one session', params: ZIdParams } }, async (req, reply) => {
    const actor = requireActor(req);
    await endSession(ctx, actor.user.id, req.params.id);
    if (req.params.id === actor.sessionId) clearSessionCookies(ctx, reply);
    return reply.code(204).send();
  });
  r.post(
    '/sessions/revoke-others',
    { schema: { tags: ['sessions'], summary: 'Sign out every other session', response: { 200: ZRevokeOthersResult } } },
    async (req) => {
      const actor = requireActor(req);
      return { revoked: await endOtherSessions(ctx, actor.user.id, actor.sessionId) };
    },
  );
}
