import { ZCreateGrantRequest, ZGrant, ZGrantList, ZGrantParams, ZIdParams } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../auth/actor.ts';
import { createGrant, listGrants, removeGrant } from './grants.service.ts';

export async function grantsRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/items/:id/grants', { schema: { tags: ['sharing'], summary: 'Who the item is shared with (managers)', params: ZIdParams, response: { 200: ZGrantList } } }, async (req) => ({
    items: await listGrants(ctx.db, requireActor(req), req.params.id),
    nextCursor: null,
  }));
  r.post(
    '/items/:id/grants',
    { schema: { tags: ['sharing'], summary: 'Share the item with a person or the workspace (managers); a person outside the workspace joins as a guest', params: ZIdParams, body: ZCreateGrantRequest, response: { 201: ZGrant } } },
    async (req, reply) => reply.code(201).send(await createGrant(ctx.db, requireActor(req), req.params.id, req.body)),
  );
  r.delete('/items/:id/grants/:grantId', { schema: { tags: ['sharing'], summary: 'Stop sharing (managers)', params: ZGrantParams } }, async (req, reply) => {
    await removeGrant(ctx.db, requireActor(req), req.params.id, req.params.grantId);
    return reply.code(204).send();
  });
}
