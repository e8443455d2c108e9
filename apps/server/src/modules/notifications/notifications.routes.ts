import { notificationsApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../infra/http/route.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { listNotifications, notificationSettings, readNotifications, updateNotificationSettings } from './notifications.service.ts';

export async function notificationsRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, notificationsApi.list, async (req) => listNotifications(ctx.db, requireActor(req), req.query));
  route(app, notificationsApi.read, async (req) => readNotifications(ctx.db, requireActor(req), req.body));
  route(app, notificationsApi.settings, async (req) => notificationSettings(ctx.db, requireActor(req)));
  route(app, notificationsApi.updateSettings, async (req) => updateNotificationSettings(ctx.db, requireActor(req), req.body));
}
