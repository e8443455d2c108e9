import { searchApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import { getSearchSettings, relanguage, updateSearchSettings } from './search-settings.ts';
import { search, searchTextState } from './search.service.ts';

export async function searchRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, searchApi.search, async (req) => search(ctx.db, requireActor(req), req.params.ws, req.query));
  route(app, searchApi.textState, async (req) => searchTextState(ctx.db, requireActor(req), req.params.id));
  route(app, searchApi.settings, async (req) => getSearchSettings(ctx.db, requireActor(req), req.params.ws));
  route(app, searchApi.updateSettings, async (req) => {
    const settings = await updateSearchSettings(ctx.db, requireActor(req), req.params.ws, req.body);
    // A small workspace is read again at once; the search.language job carries on with a large one.
    if (settings.updating) void relanguage(ctx.db, 10_000).catch((err: unknown) => req.log.error({ err }, 'reading texts again in a new language failed'));
    return settings;
  });
}
