import { allRoutes, LAST_CHANGE_HEADER, uuidv7 } from '@cabinet/contracts';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { idpPlugin } from '@cabinet/idp';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import path from 'node:path';
import { EMBEDDED_CLIENT_ID, embeddedClientSecret, embeddedIssuer, mailOptions, passwordPolicy, twoStepKey, type AppContext } from './context.ts';
import { answerUnparsableRequest, AppError, sendError, toAppError } from './errors.ts';
import { rateKey, trustHop } from './lib/client-address.ts';
import { hmac } from './lib/crypto.ts';
import { holdToDeclarations, openApiDocument, openApiTransform } from './infra/http/route.ts';
import { responseSerializer } from './infra/http/serializer.ts';
import { makeCreationsOnce } from './infra/http/idempotency.ts';
import { closeConnectionsOnceAnswered } from './infra/http/close-idle.ts';
import { compressJson, compressOnce } from './infra/web/compress.ts';
import { serveMetrics } from './infra/metrics/metrics.ts';
import { registerSpa } from './infra/web/spa.ts';
import { isLocalStorage } from './infra/storage/local.ts';
import { keepUserContentApart, localStorageRoutes } from './infra/storage/local-routes.ts';
import { authApiRoutes, authBrowserRoutes, authenticator, endSessionsOfIdentity } from './modules/auth/index.ts';
import { configRoutes } from './modules/config/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { sessionsRoutes } from './modules/sessions/index.ts';
import { tokensRoutes } from './modules/tokens/index.ts';
import { securityRoutes } from './modules/security/index.ts';
import { meRoutes } from './modules/users/index.ts';
import { workspacesRoutes } from './modules/workspaces/index.ts';
import { itemsRoutes } from './modules/items/index.ts';
import { filesRoutes } from './modules/files/index.ts';
import { EventHub, startReaders } from './modules/events/index.ts';
import { liveRoutes } from './modules/live/index.ts';
import { attachCollab } from './collab/collab-server.ts';
import { commentsRoutes } from './modules/comments/index.ts';
import { grantsRoutes } from './modules/sharing/index.ts';
import { teamRoutes } from './modules/team/index.ts';
import { activityRoutes } from './modules/activity/index.ts';
import { groupsRoutes } from './modules/groups/index.ts';
import { conversionsRoutes } from './modules/conversions/index.ts';
import { adminRoutes } from './modules/admin/index.ts';
import { linksRoutes } from './modules/links/index.ts';
import { copyDocuments, documentMarkdown, documentsRoutes } from './modules/documents/index.ts';
import { notificationsRoutes } from './modules/notifications/index.ts';
import { indexLagSeconds, searchRoutes } from './modules/search/index.ts';
import { previewsRoutes } from './modules/previews/index.ts';
import { davRoutes, lockRoutes } from './modules/dav/index.ts';
import { readers } from './readers.ts';

export const API_PREFIX = '/api/v1';

/**
 * A request's path as the log keeps it: a secret in the path (an invitation's or a public link's
 * token, after `/invite/`, `/invitations/`, `/s/` or `/links/`) is masked, so whoever reads the logs cannot use it.
 */
export function loggedPath(url: string): string {
  return url.split('?')[0]!.replace(/\/(invite|invitations|s|links)\/[^/]+/g, '/$1/…');
}

/** One JSON line per request, with its id; headers (cookies, tokens), query strings and tokens in paths are never logged. */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null, req: FastifyRequest, reply: FastifyReply) {
    const line = {
      method: req.method,
      url: loggedPath((req.raw as { originalUrl?: string }).originalUrl ?? req.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      userId: req.actor?.user.id,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else reply.log.info(line, 'request');
  }
}

/**
 * How long an idle keep-alive connection is kept (Fastify's default), and how long clients are told
 * it is (`Keep-Alive: timeout=`). Told the full time, a client reuses a connection up to a second
 * before the server closes it; when the process was busy for longer than that (PGlite's work runs on
 * the event loop), its request meets the close and is reset. Clients that read the header (undici,
 * Node's agent) give a connection up twelve seconds before the server would (ADR 0049).
 */
export const KEEP_ALIVE = { keptMs: 72_000, advertisedSeconds: 60 };

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** Where the built browser app is; tests point it elsewhere or nowhere. */
  webDist?: string;
}

/** Builds the whole HTTP surface: API, sign-in, embedded provider, browser app. Tests drive it over HTTP. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { env } = ctx;
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: () => uuidv7(),
    trustProxy: trustHop(env.TRUST_PROXY),
    logController: new OneLinePerRequest(),
    bodyLimit: 1024 * 1024,
    keepAliveTimeout: KEEP_ALIVE.keptMs,
    frameworkErrors: (error, req, reply) => void sendError(reply, toAppError(error, req)),
    clientErrorHandler: answerUnparsableRequest,
    // No time limit on a step of starting or closing: closing saves every open document, which on a
    // busy database takes longer than Fastify's default 10 s, and a step past the limit was thrown
    // out of the process, edits unsaved. A close now lasts as long as the database takes to take the
    // saves (each tried once more while it is away); whoever stops the process decides how long to wait.
    pluginTimeout: 0,
  });
  closeConnectionsOnceAnswered(app, ctx.readiness);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer(env.CHECK_RESPONSES));
  app.decorateRequest('actor', null);
  // Each request a span, when traces are on (ADR 0061): first of all hooks, so what the others do is inside it.
  ctx.tracing?.traceRequests(app);
  app.addHook('onClose', async () => ctx.tracing?.shutdown());

  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // A draining or closing instance closes each connection once answered, so that a balancer keeping its connections
    // opens new ones, to the other instances once it has taken this one out (ADR 0078), and the close waits for no
    // kept-alive connection (infra/http/close-idle.ts); not while the caller is still sending
    // (an early refusal of an upload), which it would see as a reset rather than the answer.
    if (!ctx.readiness.stopping) reply.header('keep-alive', `timeout=${KEEP_ALIVE.advertisedSeconds}`);
    else if (req.raw.complete) reply.header('connection', 'close');
    reply.header('x-content-type-options', 'nosniff');
    // A public link's page and answers hold its token in their address: they set no-referrer themselves (ADR 0032).
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    if (env.secureCookies) reply.header('strict-transport-security', 'max-age=31536000');
  });

  app.setErrorHandler((error, req, reply) => sendError(reply, toAppError(error, req)));
  if (env.USER_CONTENT_URL) keepUserContentApart(app, env.USER_CONTENT_URL);

  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cabinet API',
        version: '1',
        description:
          'Documents and files together. Authenticate scripts with `Authorization: Bearer <api token>`. Every answer carries ' +
          '`Last-Change-Id`: the latest change of the activity record known when the request arrived; open ' +
          '`GET /workspaces/{ws}/events?after=` it to hear every change since, and none before.',
      },
      servers: [{ url: env.PUBLIC_URL }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    // Only the public API is described, from the route declarations; sign-in, the embedded provider, storage and health are not part of it.
    transform: openApiTransform,
    transformObject: openApiDocument,
  });
  // The reference page, its scripts and the description it reads never change while the process runs: compressed once and kept.
  await app.register(async (docs) => {
    docs.addHook('onSend', compressOnce());
    await docs.register(fastifySwaggerUi, {
      routePrefix: '/api/docs',
      // Each area of the API (a tag) opens when asked: the page draws its headings at once rather than
      // every one of its operations, and a tag's operations are shown by a click.
      uiConfig: { docExpansion: 'none' },
      // The UI's own policy (its scripts by hash; its styles inline, as it sets some at run time), framed by
      // no one and usable over plain http.
      staticCSP: true,
      transformStaticCSP: (csp) =>
        csp
          .replace(/style-src [^;]*;/, "style-src 'self' 'unsafe-inline';")
          .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
          .replace('upgrade-insecure-requests;', ''),
    });
  });

  if (env.embeddedIdp) {
    await app.register(idpPlugin, {
      issuer: embeddedIssuer(env),
      sql: ctx.database.sql,
      secret: hmac(env.SESSION_SECRET, 'idp-cookies'),
      twoStepKey: twoStepKey(env),
      requireTwoStep: env.REQUIRE_TWO_STEP,
      clients: [
        {
          client_id: EMBEDDED_CLIENT_ID,
          client_secret: embeddedClientSecret(env.SESSION_SECRET),
          redirect_uris: [`${env.PUBLIC_URL}/auth/callback`],
          post_logout_redirect_uris: [`${env.PUBLIC_URL}/signin`],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        },
      ],
      passwordPolicy: passwordPolicy(env),
      lockout: { failures: env.IDP_LOCKOUT_FAILURES, minutes: env.IDP_LOCKOUT_MINUTES },
      signInAttemptsPerMinute: env.IDP_SIGNIN_ATTEMPTS_PER_MINUTE,
      rateKey,
      mail: mailOptions(env),
      devOutboxPage: env.IDP_DEV_OUTBOX_PAGE,
      trustProxy: env.TRUST_PROXY !== false,
      homeUrl: `${env.PUBLIC_URL}/signin`,
      onPasswordReset: (accountId) => endSessionsOfIdentity(ctx, embeddedIssuer(env), accountId),
    });
  }

  await healthRoutes(app, ctx);
  if (isLocalStorage(ctx.storage)) await localStorageRoutes(app, ctx.storage, new URL(env.PUBLIC_URL).origin);
  await authBrowserRoutes(app, ctx);

  const hub = new EventHub();
  await hub.start(ctx.database);
  app.addHook('onClose', () => hub.stop());
  // Every reader of the activity record is woken on this instance by the changes it reads.
  const started = startReaders(readers, hub, ctx, app.log);
  app.addHook('onClose', async () => {
    await started.stop();
    // After the passes, which may be reading a file's text with them.
    await ctx.extractors.close();
    await ctx.previewers.close();
  });
  app.addHook('onClose', () => ctx.workers.close());

  const { authenticate, socketActor, davActor } = authenticator(ctx);
  const collab = await attachCollab(app, ctx, socketActor, hub);
  const { metrics } = ctx;
  metrics.watchApp({ collab: () => collab.stats(), searchLag: () => indexLagSeconds(ctx.db) });
  serveMetrics(app, metrics, { token: ctx.env.METRICS_TOKEN, behindProxy: ctx.env.TRUST_PROXY !== false });
  await app.register(
    async (api) => {
      holdToDeclarations(api, allRoutes());
      // Taken as the request arrives, before anything is read: what the answer shows is at least this fresh (ADR 0046).
      api.addHook('onRequest', (_req, reply, done) => {
        reply.header(LAST_CHANGE_HEADER, String(hub.latestId));
        done();
      });
      api.addHook('onRequest', authenticate);
      makeCreationsOnce(api, ctx);
      api.addHook('onSend', compressJson);
      await configRoutes(api, ctx);
      await authApiRoutes(api, ctx);
      await meRoutes(api, ctx);
      await sessionsRoutes(api, ctx);
      await tokensRoutes(api, ctx);
      await securityRoutes(api, ctx);
      await workspacesRoutes(api, ctx);
      // Items know nothing of the modules built on them: what those add to a copy is given here.
      await itemsRoutes(api, ctx, { copyDocuments });
      await filesRoutes(api, ctx, (id) => documentMarkdown(ctx, id, collab));
      await previewsRoutes(api, ctx);
      await liveRoutes(api, ctx, hub, authenticate);
      await documentsRoutes(api, ctx, collab);
      await commentsRoutes(api, ctx);
      await grantsRoutes(api, ctx);
      await teamRoutes(api, ctx);
      await activityRoutes(api, ctx);
      await groupsRoutes(api, ctx);
      await linksRoutes(api, ctx, collab);
      await notificationsRoutes(api, ctx);
      await searchRoutes(api, ctx);
      await conversionsRoutes(api, ctx);
      await adminRoutes(api, ctx);
      await lockRoutes(api, ctx);
    },
    { prefix: API_PREFIX },
  );

  await davRoutes(app, ctx, { davActor, markdown: (id) => documentMarkdown(ctx, id, collab), contents: { copyDocuments } });

  const sendIndex = await registerSpa(app, options.webDist, ctx.storage.browserOrigin);
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0]!;
    if ((req.method === 'GET' || req.method === 'HEAD') && !/^\/(api|idp|auth|storage)(\/|$)/.test(url) && !path.extname(url)) {
      // A public link's page holds its token in the address: never sent on to another site as a Referer.
      if (url.startsWith('/s/')) reply.header('referrer-policy', 'no-referrer');
      return sendIndex(req, reply);
    }
    return sendError(reply, new AppError('not_found', 'No such address.'));
  });

  return app;
}
