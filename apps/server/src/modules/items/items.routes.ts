import { ZChildrenQuery, ZCopyItemRequest, ZCreateItemRequest, ZId, ZItemList, ZIdParams, ZItem, ZItemPage, ZRestoreResult, ZTrashQuery, ZUpdateItemRequest, ZWorkspaceParams } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireActor } from '../auth/actor.ts';
import { copyItem, createItem, emptyTrash, listRecent, listStarred, starItem, getAncestors, getItem, listChildren, listTrash, purgeItem, restoreItem, trashItem, updateItem } from './items.service.ts';

/** `If-Match: "3"` (or 3) → 3; absent → undefined. */
function ifMatchVersion(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const version = Number(header.replace(/^W\//, '').replace(/"/g, ''));
  if (!Number.isInteger(version)) throw new AppError('invalid_input', 'If-Match takes the item version, as its ETag gave it.', { fields: [{ path: 'headers.if-match', message: 'is not a version' }] });
  return version;
}

export async function itemsRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/workspaces/:ws/items',
    { schema: { tags: ['items'], summary: 'Create a folder or an empty document', params: ZWorkspaceParams, body: ZCreateItemRequest, response: { 201: ZItem } } },
    async (req, reply) => reply.code(201).send(await createItem(ctx.db, requireActor(req), req.params.ws, req.body)),
  );
  r.get(
    '/workspaces/:ws/items/:id/children',
    {
      schema: {
        tags: ['items'],
        summary: 'List a folder: folders first, then by the sort key; keyset pages',
        params: ZWorkspaceParams.extend({ id: ZId }),
        querystring: ZChildrenQuery,
        response: { 200: ZItemPage },
      },
    },
    async (req) => listChildren(ctx.db, requireActor(req), req.params.ws, req.params.id, req.query),
  );
  r.get('/items/:id', { schema: { tags: ['items'], summary: 'One item', params: ZIdParams, response: { 200: ZItem } } }, async (req, reply) => {
    const item = await getItem(ctx.db, requireActor(req), req.params.id);
    return reply.header('etag', `"${item.version}"`).send(item);
  });
  r.patch(
    '/items/:id',
    {
      schema: {
        tags: ['items'],
        summary: 'Rename and/or move (If-Match: the version, to refuse a stale change)',
        params: ZIdParams,
        headers: z.object({ 'if-match': z.string().optional() }).passthrough(),
        body: ZUpdateItemRequest,
        response: { 200: ZItem },
      },
    },
    async (req, reply) => {
      const item = await updateItem(ctx.db, requireActor(req), req.params.id, req.body, ifMatchVersion(req.headers['if-match']));
      return reply.header('etag', `"${item.version}"`).send(item);
    },
  );
  r.post('/items/:id/trash', { schema: { tags: ['items'], summary: 'Move to the trash (with everything inside)', params: ZIdParams, response: { 200: ZItem } } }, async (req) =>
    trashItem(ctx.db, requireActor(req), req.params.id),
  );
  r.post(
    '/items/:id/restore',
    { schema: { tags: ['items'], summary: 'Bring back from the trash; into My files when its folder is gone', params: ZIdParams, response: { 200: ZRestoreResult } } },
    async (req) => restoreItem(ctx.db, requireActor(req), req.params.id),
  );
  r.delete('/items/:id', { schema: { tags: ['items'], summary: 'Delete a trashed item forever', params: ZIdParams } }, async (req, reply) => {
    await purgeItem(ctx.db, requireActor(req), req.params.id);
    return reply.code(204).send();
  });
  r.get(
    '/workspaces/:ws/trash',
    { schema: { tags: ['items'], summary: 'What you trashed or own in the trash, newest first', params: ZWorkspaceParams, querystring: ZTrashQuery, response: { 200: ZItemPage } } },
    async (req) => listTrash(ctx.db, requireActor(req), req.params.ws, req.query),
  );
  r.post(
    '/workspaces/:ws/trash/empty',
    { schema: { tags: ['items'], summary: 'Delete everything in your trash forever', params: ZWorkspaceParams, response: { 200: z.object({ deleted: z.number().int() }) } } },
    async (req) => emptyTrash(ctx.db, requireActor(req), req.params.ws),
  );
  r.get(
    '/items/:id/ancestors',
    { schema: { tags: ['items'], summary: 'The folders above an item that you can see, root first', params: ZIdParams, response: { 200: z.object({ items: z.array(ZItem) }) } } },
    async (req) => ({ items: await getAncestors(ctx.db, requireActor(req), req.params.id) }),
  );
  r.post(
    '/items/:id/copy',
    { schema: { tags: ['items'], summary: 'Copy a file, or a folder with everything in it, into a folder', params: ZIdParams, body: ZCopyItemRequest, response: { 201: ZItem } } },
    async (req, reply) => reply.code(201).send(await copyItem(ctx.db, requireActor(req), req.params.id, req.body)),
  );
  r.put('/items/:id/star', { schema: { tags: ['items'], summary: 'Star an item (for you only)', params: ZIdParams } }, async (req, reply) => {
    await starItem(ctx.db, requireActor(req), req.params.id, true);
    return reply.code(204).send();
  });
  r.delete('/items/:id/star', { schema: { tags: ['items'], summary: 'Remove your star', params: ZIdParams } }, async (req, reply) => {
    await starItem(ctx.db, requireActor(req), req.params.id, false);
    return reply.code(204).send();
  });
  r.get(
    '/workspaces/:ws/starred',
    { schema: { tags: ['items'], summary: 'What you starred, newest star first', params: ZWorkspaceParams, response: { 200: ZItemList } } },
    async (req) => ({ items: await listStarred(ctx.db, requireActor(req), req.params.ws) }),
  );
  r.get(
    '/workspaces/:ws/recent',
    { schema: { tags: ['items'], summary: 'Files you opened or changed lately, newest first', params: ZWorkspaceParams, response: { 200: ZItemList } } },
    async (req) => ({ items: await listRecent(ctx.db, requireActor(req), req.params.ws) }),
  );
}
