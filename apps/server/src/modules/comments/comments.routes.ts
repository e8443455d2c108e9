import { ZCommentParams, ZCommentThread, ZCommentThreadList, ZCreateCommentRequest, ZIdParams, ZUpdateCommentRequest } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../auth/actor.ts';
import { addComment, listThreads, removeComment, updateComment } from './comments.service.ts';

export async function commentsRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/items/:id/comments',
    { schema: { tags: ['comments'], summary: "A document's comment threads, open and resolved", params: ZIdParams, response: { 200: ZCommentThreadList } } },
    async (req) => ({ items: await listThreads(ctx.db, requireActor(req), req.params.id), nextCursor: null }),
  );
  r.post(
    '/items/:id/comments',
    { schema: { tags: ['comments'], summary: 'Start a thread (on anchored text or the whole document), or reply with threadId (commenters and up)', params: ZIdParams, body: ZCreateCommentRequest, response: { 201: ZCommentThread } } },
    async (req, reply) => reply.code(201).send(await addComment(ctx.db, requireActor(req), req.params.id, req.body)),
  );
  r.patch(
    '/items/:id/comments/:commentId',
    { schema: { tags: ['comments'], summary: "Edit a comment's words (its author), or resolve or reopen its thread", params: ZCommentParams, body: ZUpdateCommentRequest, response: { 200: ZCommentThread } } },
    async (req) => updateComment(ctx.db, requireActor(req), req.params.id, req.params.commentId, req.body),
  );
  r.delete('/items/:id/comments/:commentId', { schema: { tags: ['comments'], summary: 'Delete a comment (its author or a manager); a first comment takes its thread', params: ZCommentParams } }, async (req, reply) => {
    await removeComment(ctx.db, requireActor(req), req.params.id, req.params.commentId);
    return reply.code(204).send();
  });
}
