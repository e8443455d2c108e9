import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AppContext } from '../context.ts';
import { authenticator } from '../modules/auth/index.ts';
import { EventHub } from '../modules/events/index.ts';
import { healthRoutes } from '../modules/health/index.ts';
import { serveMetrics } from '../infra/metrics/metrics.ts';
import { createCollab, type Collab, type SocketActor } from './collab.ts';
import { closeConnectionsOnceAnswered } from '../infra/http/close-idle.ts';

/** Serves the collaboration socket on `app`'s own port (upgrades to /collab), ended before the HTTP server closes. */
export async function attachCollab(app: FastifyInstance, ctx: AppContext, socketActor: SocketActor, hub: EventHub): Promise<Collab> {
  const collab = await createCollab(ctx, socketActor, hub, app.log);
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!collab.handleUpgrade(req, socket, head)) socket.destroy();
  });
  // Before the HTTP server closes, which would wait for the sockets.
  app.addHook('preClose', () => collab.close());
  return collab;
}

/** The collaboration socket on its own (`cabinet collab`): /collab, /healthz and /readyz for the load balancer, and its /metrics. */
export async function buildCollabServer(ctx: AppContext, options: { logger?: FastifyServerOptions['logger'] } = {}): Promise<FastifyInstance> {
  // No time limit on closing (app.ts says why): it saves every open document.
  const app = Fastify({ logger: options.logger ?? false, pluginTimeout: 0 });
  closeConnectionsOnceAnswered(app, ctx.readiness);
  await healthRoutes(app, ctx);
  // Announcements of changed access reach this process too (one LISTEN, as in the main server).
  const hub = new EventHub();
  await hub.start(ctx.database);
  app.addHook('onClose', () => hub.stop());
  const collab = await attachCollab(app, ctx, authenticator(ctx).socketActor, hub);
  ctx.metrics.watchApp({ collab: () => collab.stats() });
  serveMetrics(app, ctx.metrics, { token: ctx.env.METRICS_TOKEN, behindProxy: ctx.env.TRUST_PROXY !== false });
  return app;
}
