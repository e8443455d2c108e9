import { securityApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import { SecurityService } from './security.service.ts';

export async function securityRoutes(app: FastifyInstance, ctx: AppContext) {
  const security = new SecurityService(ctx);
  route(app, securityApi.get, async (req) => security.get(requireActor(req)));
  route(app, securityApi.beginTotp, async (req) => security.beginTotp(requireActor(req)));
  route(app, securityApi.confirmTotp, async (req) => security.confirmTotp(requireActor(req), req.body.code));
  route(app, securityApi.regenerateRecoveryCodes, async (req) => security.regenerateRecoveryCodes(requireActor(req)));
  route(app, securityApi.remove, async (req) => security.remove(requireActor(req)));
  route(app, securityApi.listPasskeys, async (req) => security.listPasskeys(requireActor(req)));
  route(app, securityApi.passkeyOptions, async (req) => security.passkeyOptions(requireActor(req), req.body.currentPassword));
  route(app, securityApi.addPasskey, async (req) => security.addPasskey(requireActor(req), req.body));
  route(app, securityApi.renamePasskey, async (req) => security.renamePasskey(requireActor(req), req.params.id, req.body.name));
  route(app, securityApi.removePasskey, async (req) => security.removePasskey(requireActor(req), req.params.id));
  route(app, securityApi.changePassword, async (req) => security.changePassword(requireActor(req), req.body));
}
