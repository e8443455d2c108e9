import { securityApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import { SecurityService } from './security.service.ts';

export async function securityRoutes(app: FastifyInstance, ctx: AppContext) {
  const twoStep = new SecurityService(ctx);
  route(app, securityApi.get, async (req) => twoStep.get(requireActor(req)));
  route(app, securityApi.beginTotp, async (req) => twoStep.beginTotp(requireActor(req)));
  route(app, securityApi.confirmTotp, async (req) => twoStep.confirmTotp(requireActor(req), req.body.code));
  route(app, securityApi.regenerateRecoveryCodes, async (req) => twoStep.regenerateRecoveryCodes(requireActor(req)));
  route(app, securityApi.remove, async (req) => twoStep.remove(requireActor(req)));
  route(app, securityApi.changePassword, async (req) => twoStep.changePassword(requireActor(req), req.body));
}
