import { grantsApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../infra/http/route.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { createGrant, listGrants, listSharedWithMe, removeGrant, updateGrant } from './grants.service.ts';

export async function grantsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, grantsApi.list, async (req) => listGrants(ctx.db, requireActor(req), req.params.id));
  route(app, grantsApi.update, async (req) => updateGrant(ctx.db, requireActor(req), req.params.id, req.params.grantId, req.body));
  route(app, grantsApi.sharedWithMe, async (req) => listSharedWithMe(ctx.db, requireActor(req), req.params.ws, req.query));
  route(app, grantsApi.create, async (req) => createGrant(ctx.db, requireActor(req), req.params.id, req.body));
  route(app, grantsApi.remove, async (req) => {
    await removeGrant(ctx.db, requireActor(req), req.params.id, req.params.grantId);
  });
}
