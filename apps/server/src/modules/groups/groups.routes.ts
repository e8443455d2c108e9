import { groupsApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import { addGroupMembers, createGroup, deleteGroup, listGroupMembers, listGroups, removeGroupMember, renameGroup } from './groups.service.ts';

export async function groupsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, groupsApi.list, async (req) => ({ items: await listGroups(ctx.db, requireActor(req), req.params.ws), nextCursor: null }));
  route(app, groupsApi.create, async (req) => createGroup(ctx.db, requireActor(req), req.params.ws, req.body.name));
  route(app, groupsApi.rename, async (req) => renameGroup(ctx.db, requireActor(req), req.params.ws, req.params.groupId, req.body.name));
  route(app, groupsApi.remove, async (req) => deleteGroup(ctx.db, requireActor(req), req.params.ws, req.params.groupId));
  route(app, groupsApi.members, async (req) => ({
    items: await listGroupMembers(ctx.db, requireActor(req), req.params.ws, req.params.groupId),
    nextCursor: null,
  }));
  route(app, groupsApi.addMembers, async (req) => ({
    items: await addGroupMembers(ctx.db, requireActor(req), req.params.ws, req.params.groupId, req.body.userIds),
    nextCursor: null,
  }));
  route(app, groupsApi.removeMember, async (req) => removeGroupMember(ctx.db, requireActor(req), req.params.ws, req.params.groupId, req.params.userId));
}
