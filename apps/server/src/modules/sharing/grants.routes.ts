import { grantsApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../infra/http/route.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { createGrant, listGrants, removeGrant } from './grants.service.ts';

export async function grantsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, grantsApi.list, async (req) => ({ items: await listGrants(ctx.db, requireActor(req), req.params.id), nextCursor: null }));
  route(app, grantsApi.create, async (req) => createGrant(ctx.db, requireActor(req), req.params.id, req.body));
  route(app, grantsApi.remove, async (req) => {
    await removeGrant(ctx.db, requireActor(req), req.params.id, req.params.grantId);
  });
}
