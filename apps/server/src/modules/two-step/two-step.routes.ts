import { twoStepApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import { TwoStepService } from './two-step.service.ts';

export async function twoStepRoutes(app: FastifyInstance, ctx: AppContext) {
  const twoStep = new TwoStepService(ctx);
  route(app, twoStepApi.get, async (req) => twoStep.get(requireActor(req)));
  route(app, twoStepApi.beginTotp, async (req) => twoStep.beginTotp(requireActor(req)));
  route(app, twoStepApi.confirmTotp, async (req) => twoStep.confirmTotp(requireActor(req), req.body.code));
  route(app, twoStepApi.regenerateRecoveryCodes, async (req) => twoStep.regenerateRecoveryCodes(requireActor(req)));
  route(app, twoStepApi.remove, async (req) => twoStep.remove(requireActor(req)));
}
