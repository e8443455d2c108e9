import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

/** Runs a check within 5 s: 'ok', or why it failed. */
export async function probe(check: () => Promise<void>): Promise<'ok' | string> {
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 5 s')), 5_000).unref())]);
    return 'ok';
  } catch (error) {
    return error instanceof Error ? error.message || error.name : 'unreachable';
  }
}

export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    // Draining: the load balancers take the instance out while it still serves what they send (ADR 0078).
    if (ctx.readiness.stopping) return reply.code(503).send({ status: 'stopping' });
    const [database, storage] = await Promise.all([probe(() => ctx.database.ping()), probe(() => ctx.storage.check())]);
    const ready = database === 'ok' && storage === 'ok';
    return reply.code(ready ? 200 : 503).send({
      status: ready ? 'ok' : 'unavailable',
      checks: { database: database === 'ok' ? 'ok' : 'unavailable', storage: storage === 'ok' ? 'ok' : 'unavailable' },
    });
  });
}
