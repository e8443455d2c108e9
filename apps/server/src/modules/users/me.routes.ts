import { ZMe, ZUpdateMeRequest, ZUser } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../auth/actor.ts';
import { presentUser } from './present-user.ts';
import { updateUser } from './users.repo.ts';

export async function meRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/me', { schema: { tags: ['account'], summary: 'Who is calling', response: { 200: ZMe } } }, async (req) => {
    const actor = requireActor(req);
    return { user: presentUser(actor.user), via: actor.via, sessionId: actor.sessionId };
  });
  r.patch(
    '/me',
    { schema: { tags: ['account'], summary: 'Change your display name', body: ZUpdateMeRequest, response: { 200: ZUser } } },
    async (req) => {
      const actor = requireActor(req);
      return presentUser(await updateUser(ctx.db, actor.user.id, { name: req.body.name }));
    },
  );
}
