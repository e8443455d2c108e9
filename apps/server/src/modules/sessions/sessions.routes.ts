import { sessionsApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../infra/http/route.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { clearSessionCookies, endOtherSessions, endSession, listSessions } from './sessions.service.ts';

export async function sessionsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, sessionsApi.list, async (req) => {
    const actor = requireActor(req);
    return { items: await listSessions(ctx, actor.user.id, actor.sessionId), nextCursor: null };
  });
  route(app, sessionsApi.end, async (req, reply) => {
    const actor = requireActor(req);
    await endSession(ctx, actor, req.params.id);
    if (req.params.id === actor.sessionId) clearSessionCookies(ctx, reply);
  });
  route(app, sessionsApi.endOthers, async (req) => {
    const actor = requireActor(req);
    return { revoked: await endOtherSessions(ctx.db, actor.user.id, actor.sessionId, actor) };
  });
}
