import { commentsApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../infra/http/route.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { addComment, listThreads, removeComment, updateComment } from './comments.service.ts';

export async function commentsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, commentsApi.threads, async (req) => ({ items: await listThreads(ctx.db, requireActor(req), req.params.id), nextCursor: null }));
  route(app, commentsApi.add, async (req) => addComment(ctx.db, requireActor(req), req.params.id, req.body));
  route(app, commentsApi.update, async (req) => updateComment(ctx.db, requireActor(req), req.params.id, req.params.commentId, req.body));
  route(app, commentsApi.remove, async (req) => {
    await removeComment(ctx.db, requireActor(req), req.params.id, req.params.commentId);
  });
}
