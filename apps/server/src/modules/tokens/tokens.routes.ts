import { ZApiTokenList, ZCreateApiTokenRequest, ZCreatedApiToken, ZIdParams } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../auth/actor.ts';
import { createApiToken, deleteApiToken, listApiTokens } from './tokens.service.ts';

export async function tokensRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/tokens', { schema: { tags: ['tokens'], summary: 'List your API tokens', response: { 200: ZApiTokenList } } }, async (req) => ({
    items: await listApiTokens(ctx.db, requireActor(req).user.id),
    nextCursor: null,
  }));
  r.post(
    '/tokens',
    { schema: { tags: ['tokens'], summary: 'Create an API token (the secret is shown once)', body: ZCreateApiTokenRequest, response: { 201: ZCreatedApiToken } } },
    async (req, reply) => reply.code(201).send(await createApiToken(ctx.db, requireActor(req).user.id, req.body)),
  );
  r.delete('/tokens/:id', { schema: { tags: ['tokens'], summary: 'Revoke an API token', params: ZIdParams } }, async (req, reply) => {
    await deleteApiToken(ctx.db, requireActor(req).user.id, req.params.id);
    return reply.code(204).send();
  });
}
