import { workspacesApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../infra/http/route.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { createWorkspace, getWorkspace, listMembers, listWorkspaces } from './workspaces.service.ts';

export async function workspacesRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, workspacesApi.list, async (req) => ({ items: await listWorkspaces(ctx.db, requireActor(req).user), nextCursor: null }));
  route(app, workspacesApi.create, async (req) => createWorkspace(ctx.db, requireActor(req).user, req.body));
  route(app, workspacesApi.get, async (req) => getWorkspace(ctx.db, requireActor(req).user, req.params.ws));
  route(app, workspacesApi.members, async (req) => listMembers(ctx.db, requireActor(req).user, req.params.ws, req.query));
}
