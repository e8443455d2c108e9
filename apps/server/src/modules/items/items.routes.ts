import { itemsApi } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { route } from '../../infra/http/route.ts';
import { requireActor } from '../../infra/http/actor.ts';
import {
  copyItem,
  createItem,
  emptyTrash,
  listRecent,
  listStarred,
  starItem,
  getAncestors,
  getItem,
  listChildren,
  listTrash,
  purgeItem,
  restoreItem,
  trashItem,
  updateItem,
  type ItemContents,
} from './items.service.ts';

/** `If-Match: "3"` (or 3) → 3; absent → undefined. */
function ifMatchVersion(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const version = Number(header.replace(/^W\//, '').replace(/"/g, ''));
  if (!Number.isInteger(version))
    throw new AppError('invalid_input', 'If-Match takes the item version, as its ETag gave it.', {
      fields: [{ path: 'headers.if-match', message: 'is not a version' }],
    });
  return version;
}

export async function itemsRoutes(app: FastifyInstance, ctx: AppContext, contents: ItemContents) {
  route(app, itemsApi.create, async (req) => createItem(ctx.db, requireActor(req), req.params.ws, req.body));
  route(app, itemsApi.children, async (req) => listChildren(ctx.db, requireActor(req), req.params.ws, req.params.id, req.query));
  route(app, itemsApi.get, async (req, reply) => {
    const item = await getItem(ctx.db, requireActor(req), req.params.id);
    reply.header('etag', `"${item.version}"`);
    return item;
  });
  route(app, itemsApi.update, async (req, reply) => {
    const item = await updateItem(ctx.db, requireActor(req), req.params.id, req.body, ifMatchVersion(req.headers['if-match']));
    reply.header('etag', `"${item.version}"`);
    return item;
  });
  route(app, itemsApi.trash, async (req) => trashItem(ctx.db, requireActor(req), req.params.id));
  route(app, itemsApi.restore, async (req) => restoreItem(ctx.db, requireActor(req), req.params.id));
  route(app, itemsApi.purge, async (req) => {
    await purgeItem(ctx.db, requireActor(req), req.params.id);
  });
  route(app, itemsApi.trashList, async (req) => listTrash(ctx.db, requireActor(req), req.params.ws, req.query));
  route(app, itemsApi.emptyTrash, async (req) => emptyTrash(ctx.db, requireActor(req), req.params.ws));
  route(app, itemsApi.ancestors, async (req) => ({ items: await getAncestors(ctx.db, requireActor(req), req.params.id) }));
  route(app, itemsApi.copy, async (req) => copyItem(ctx.db, requireActor(req), req.params.id, req.body, contents));
  route(app, itemsApi.star, async (req) => {
    await starItem(ctx.db, requireActor(req), req.params.id, true);
  });
  route(app, itemsApi.unstar, async (req) => {
    await starItem(ctx.db, requireActor(req), req.params.id, false);
  });
  route(app, itemsApi.starred, async (req) => ({ items: await listStarred(ctx.db, requireActor(req), req.params.ws) }));
  route(app, itemsApi.recent, async (req) => ({ items: await listRecent(ctx.db, requireActor(req), req.params.ws) }));
}
