import { ZPublicConfig } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

export async function configRoutes(app: FastifyInstance, ctx: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/config',
    { schema: { tags: ['config'], summary: 'What the browser needs to know of the installation', security: [], response: { 200: ZPublicConfig } }, config: { public: true } },
    async () => ({
      providerName: ctx.env.OIDC_PROVIDER_NAME ?? (ctx.env.embeddedIdp ? 'Cabinet' : new URL(ctx.env.OIDC_ISSUER!).hostname),
      embeddedProvider: ctx.env.embeddedIdp,
      version: '0.1.0',
      documentRevisionMinutes: ctx.env.DOCUMENT_REVISION_MINUTES,
    }),
  );
}
