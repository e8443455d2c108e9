import { activityApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import { itemActivity, workspaceActivity, workspaceActivityCsv } from './activity.service.ts';

export async function activityRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, activityApi.workspace, async (req, reply) => {
    const actor = requireActor(req);
    const { format, ...query } = req.query;
    if (format !== 'csv') return workspaceActivity(ctx.db, actor, req.params.ws, query);
    const { slug, lines } = await workspaceActivityCsv(ctx.db, actor, req.params.ws, query);
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${slug}-activity-${day}.csv"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(lines));
  });
  route(app, activityApi.item, async (req) => itemActivity(ctx.db, requireActor(req), req.params.id, req.query));
}
