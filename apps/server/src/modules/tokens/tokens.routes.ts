import { tokensApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../infra/http/route.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { createApiToken, deleteApiToken, listApiTokens } from './tokens.service.ts';

export async function tokensRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, tokensApi.list, async (req) => ({ items: await listApiTokens(ctx.db, requireActor(req).user.id), nextCursor: null }));
  route(app, tokensApi.create, async (req) => createApiToken(ctx.db, requireActor(req).user.id, req.body, requireActor(req)));
  route(app, tokensApi.revoke, async (req) => {
    const actor = requireActor(req);
    await deleteApiToken(ctx.db, actor.user.id, req.params.id, actor);
  });
}
