import { searchApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import { search, searchTextState } from './search.service.ts';

export async function searchRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, searchApi.search, async (req) => search(ctx.db, requireActor(req), req.params.ws, req.query));
  route(app, searchApi.textState, async (req) => searchTextState(ctx.db, requireActor(req), req.params.id));
}
