import { invitationsApi, membersApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import {
  acceptInvitation,
  acceptOwnInvitation,
  createInvitation,
  invitationsOf,
  previewInvitation,
  previewOwnInvitation,
  resendInvitation,
  revokeInvitation,
} from './invitations.service.ts';
import { changeRole, removeMember } from './members.service.ts';

export async function teamRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, membersApi.update, async (req) => changeRole(ctx.db, requireActor(req), req.params.ws, req.params.userId, req.body.role));
  route(app, membersApi.remove, async (req) => removeMember(ctx.db, requireActor(req), req.params.ws, req.params.userId, req.query.filesTo));
  route(app, invitationsApi.list, async (req) => invitationsOf(ctx.db, requireActor(req), req.params.ws, req.query));
  route(app, invitationsApi.create, async (req) => createInvitation(ctx, requireActor(req), req.params.ws, req.body));
  route(app, invitationsApi.revoke, async (req) => revokeInvitation(ctx.db, requireActor(req), req.params.ws, req.params.id));
  route(app, invitationsApi.resend, async (req) => resendInvitation(ctx, requireActor(req), req.params.ws, req.params.id));
  route(app, invitationsApi.preview, async (req) => previewInvitation(ctx.db, req.params.token));
  route(app, invitationsApi.accept, async (req) => acceptInvitation(ctx, requireActor(req), req.params.token));
  route(app, invitationsApi.previewMine, async (req) => previewOwnInvitation(ctx.db, requireActor(req), req.params.id));
  route(app, invitationsApi.acceptMine, async (req) => acceptOwnInvitation(ctx, requireActor(req), req.params.id));
}
