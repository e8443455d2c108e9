import { filesApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import { itemThumbnail, sendThumbnail } from './thumbnails.ts';

export async function previewsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, filesApi.thumbnail, async (req, reply) => sendThumbnail(reply, await itemThumbnail(ctx, requireActor(req), req.params.id, req.query)));
}
