import type { TItemEvent } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../auth/actor.ts';
import { canSee } from '../items/items.service.ts';
import { getWorkspace } from '../workspaces/workspaces.service.ts';
import type { EventHub } from './events.ts';

const KEEPALIVE_MS = 25_000;

export async function eventsRoutes(app: FastifyInstance, ctx: AppContext, hub: EventHub) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/workspaces/:ws/events',
    {
      schema: {
        tags: ['events'],
        summary: 'Live changes in the workspace (Server-Sent Events; each `data:` is an ItemEvent)',
        params: z.object({ ws: z.string().min(1).max(64) }),
      },
    },
    async (req, reply) => {
      const actor = requireActor(req);
      const workspace = await getWorkspace(ctx.db, actor.user, req.params.ws);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-content-type-options': 'nosniff',
        'x-request-id': req.id,
        // Proxies (nginx) must not hold the stream back.
        'x-accel-buffering': 'no',
      });
      res.write(`retry: 3000\n: connected\n\n`);

      // Events are checked one after another, so they reach the browser in the order they happened.
      let queue = Promise.resolve();
      const deliver = async (event: TItemEvent) => {
        const visible: string[] = [];
        for (const id of event.parentIds) if (await canSee(ctx.db, actor, id)) visible.push(id);
        if (visible.length === 0 && !(await canSee(ctx.db, actor, event.itemId))) return;
        res.write(`event: item\ndata: ${JSON.stringify({ ...event, parentIds: visible })}\n\n`);
      };
      const unsubscribe = hub.subscribe(workspace.id, (event) => {
        queue = queue.then(() => deliver(event)).catch(() => {});
      });
      const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
      keepalive.unref();
      req.raw.on('close', () => {
        clearInterval(keepalive);
        unsubscribe();
      });
    },
  );
}
