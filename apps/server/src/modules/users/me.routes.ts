import { meApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../infra/http/route.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { presentUser } from './present-user.ts';
import { updateUser } from './users.repo.ts';

export async function meRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, meApi.get, async (req) => {
    const actor = requireActor(req);
    return { user: presentUser(actor.user), via: actor.via, sessionId: actor.sessionId };
  });
  route(app, meApi.update, async (req) => {
    const actor = requireActor(req);
    return presentUser(await updateUser(ctx.db, actor.user.id, { name: req.body.name }));
  });
}
