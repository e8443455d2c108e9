import { configApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../infra/http/route.ts';
import { CABINET_VERSION } from '../../version.ts';

export async function configRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, configApi.get, async () => ({
    providerName: ctx.env.OIDC_PROVIDER_NAME ?? (ctx.env.embeddedIdp ? 'Cabinet' : new URL(ctx.env.OIDC_ISSUER!).hostname),
    embeddedProvider: ctx.env.embeddedIdp,
    version: CABINET_VERSION,
    documentRevisionMinutes: ctx.env.DOCUMENT_REVISION_MINUTES,
  }));
  route(app, configApi.openApi, async () => app.swagger());
}
