import { ZCreateWorkspaceRequest, ZMemberList, ZMembersQuery, ZWorkspace, ZWorkspaceList, ZWorkspaceParams } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../auth/actor.ts';
import { createWorkspace, getWorkspace, listMembers, listWorkspaces } from './workspaces.service.ts';

export async function workspacesRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/workspaces', { schema: { tags: ['workspaces'], summary: 'Workspaces you belong to', response: { 200: ZWorkspaceList } } }, async (req) => ({
    items: await listWorkspaces(ctx.db, requireActor(req).user),
    nextCursor: null,
  }));
  r.post(
    '/workspaces',
    { schema: { tags: ['workspaces'], summary: 'Create a workspace you own', body: ZCreateWorkspaceRequest, response: { 201: ZWorkspace } } },
    async (req, reply) => reply.code(201).send(await createWorkspace(ctx.db, requireActor(req).user, req.body)),
  );
  r.get(
    '/workspaces/:ws',
    { schema: { tags: ['workspaces'], summary: 'One workspace, by id or slug', params: ZWorkspaceParams, response: { 200: ZWorkspace } } },
    async (req) => getWorkspace(ctx.db, requireActor(req).user, req.params.ws),
  );
  r.get(
    '/workspaces/:ws/members',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Members of a workspace, optionally those whose name or email contains q (not for guests)',
        params: ZWorkspaceParams,
        querystring: ZMembersQuery,
        response: { 200: ZMemberList },
      },
    },
    async (req) => ({ items: await listMembers(ctx.db, requireActor(req).user, req.params.ws, req.query.q ?? '', req.query.limit), nextCursor: null }),
  );
}
