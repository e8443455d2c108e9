import { conversionsApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import { previewHtml, previewSheets } from './conversions.service.ts';

/** Files converted to be shown (ADR 0039); the public link's variants are the links module's, with its rules. */
export async function conversionsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, conversionsApi.html, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return previewHtml(ctx, requireActor(req), req.params.id, req.query.version);
  });
  route(app, conversionsApi.sheets, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return previewSheets(ctx, requireActor(req), req.params.id, req.query);
  });
}
