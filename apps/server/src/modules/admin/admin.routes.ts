import { adminApi } from '@cabinet/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import * as admin from './admin.service.ts';

/** The signed-in caller, when an instance administrator; `forbidden` for anyone else. */
function administrator(req: FastifyRequest) {
  const actor = requireActor(req);
  admin.requireInstanceAdmin(actor);
  return actor;
}

export async function adminRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, adminApi.overview, async (req) => {
    administrator(req);
    return admin.overview(ctx);
  });
  route(app, adminApi.settings, async (req) => {
    administrator(req);
    return admin.settings(ctx);
  });
  route(app, adminApi.workspaces, async (req) => {
    administrator(req);
    return admin.listWorkspaces(ctx, req.query);
  });
  route(app, adminApi.updateWorkspace, async (req) => admin.setWorkspaceQuota(ctx, administrator(req), req.params.id, req.body.quotaBytes));
  route(app, adminApi.users, async (req) => {
    administrator(req);
    return admin.listUsers(ctx, req.query);
  });
  route(app, adminApi.updateUser, async (req) => admin.updateUser(ctx, administrator(req), req.params.id, req.body));
  route(app, adminApi.signOutUser, async (req) => admin.signOutUser(ctx, administrator(req), req.params.id));
  route(app, adminApi.resetTwoStep, async (req) => admin.resetTwoStep(ctx, administrator(req), req.params.id));
  route(app, adminApi.jobs, async (req) => {
    administrator(req);
    return admin.jobs(ctx);
  });
  route(app, adminApi.retryJob, async (req) => admin.retryJob(ctx, administrator(req), req.params.id));
  route(app, adminApi.discardJob, async (req) => admin.discardJob(ctx, administrator(req), req.params.id));
  route(app, adminApi.audit, async (req) => {
    administrator(req);
    return admin.auditLog(ctx, req.query);
  });
}
