import { eventsApi, type TItemEvent } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../infra/http/route.ts';
import { requireActor } from '../auth/actor.ts';
import { visibleItems } from '../items/items.service.ts';
import { getWorkspace } from '../workspaces/workspaces.service.ts';
import type { EventHub } from './events.ts';

const KEEPALIVE_MS = 25_000;

export async function eventsRoutes(app: FastifyInstance, ctx: AppContext, hub: EventHub) {
  route(app, eventsApi.stream, async (req, reply) => {
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

    // Events go out in the order they happened. Those that arrive while a check runs wait and
    // are checked together: one query for every folder and item they name, however many.
    let pending: TItemEvent[] = [];
    let draining = false;
    const drain = async () => {
      if (draining) return;
      draining = true;
      try {
        while (pending.length) {
          const events = pending;
          pending = [];
          const visible = await visibleItems(ctx.db, actor, [...new Set(events.flatMap((e) => [...e.parentIds, e.itemId]))]);
          for (const event of events) {
            const parentIds = event.parentIds.filter((id) => visible.has(id));
            if (parentIds.length || visible.has(event.itemId)) res.write(`event: item\ndata: ${JSON.stringify({ ...event, parentIds })}\n\n`);
          }
        }
      } catch {
        // A database hiccup drops these events; the browser refetches on its next change or reconnect.
      } finally {
        draining = false;
      }
    };
    const unsubscribe = hub.subscribe(workspace.id, (event) => {
      pending.push(event);
      void drain();
    });
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    keepalive.unref();
    req.raw.on('close', () => {
      clearInterval(keepalive);
      unsubscribe();
    });
    return reply;
  });
}
