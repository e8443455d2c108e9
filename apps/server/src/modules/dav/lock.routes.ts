import { itemsApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import { breakLock } from './break-lock.ts';

/** The API's part of WebDAV's locks: breaking one from the browser (the items carry them, read by the items module). */
export async function lockRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, itemsApi.breakLock, async (req) => {
    await breakLock(ctx.db, requireActor(req), req.params.id);
  });
}
